/**
 * Standard outputs outside `/api`: the Uniswap token list `/token-list/evmchain.json` and the RSS
 * 2.0 feeds `/feed/{new-launches,big-buys,graduations}.xml` (spec: Public surface, XML feeds;
 * docs/public.md "Token list", "RSS feeds"). Rendering is done by the pure `feeds/` module.
 */
import { confirmedHeadBlock } from "../../market/confirmedBound";
import { Hono } from "hono";
import { formatEther, getAddress } from "viem";
import { z } from "zod";
import type { Deployment } from "../../config/deployment";
import type { PublicConfig } from "../../config/public";
import { renderRss, type RssItem } from "../../feeds/rss";
import { renderTokenList, tokenListVersion } from "../../feeds/tokenList";
import { ApiError } from "../errors";
import { toJsonText } from "../../src/domain/json";
import { countLaunches, tokenPage } from "../../market/tokenLists";
import { tokensByAddress } from "../../market/tokenLookups";
import { latestEventsOfKind } from "../../market/eventQueries";
import type { MarketDb } from "../../market/db";
import { limitParam, validate } from "../validation";
import { documented } from "../openapi/describe";
import { sendConditional } from "./conditional";
import { decodeEventPayload } from "../../src/domain/events";
import { tokenUrl } from "../../src/domain/urls";

/** What the feeds router reads. */
export type FeedsDeps = { db: MarketDb; publicBaseUrl: string; publicConfig: PublicConfig; deployment: Deployment };

/** Token list `limit`: default 1000, max 10000 (the schema's maximum). */
const tokenListQuery = z.object({ limit: limitParam(1000, 10_000) });

/** Items per RSS feed. */
const RSS_ITEMS = 50;

const FEEDS = {
  "new-launches": {
    kind: "launch",
    title: "evmchain: new launches",
    description: "Tokens launched on evmchain, newest first.",
  },
  "big-buys": {
    kind: "big_buy",
    title: "evmchain: big buys",
    description: "Buys at or above the big-buy threshold, newest first.",
  },
  graduations: {
    kind: "graduation",
    title: "evmchain: graduations",
    description: "Tokens whose market cap reached the graduation threshold.",
  },
} as const;

/** Builds the router mounted at the root (`/token-list/…`, `/feed/…`). */
export function feedsRoutes(deps: FeedsDeps) {
  const config = deps.publicConfig;
  const chainId = deps.deployment.chainId;
  const app = new Hono()
    /**
     * GET /token-list/evmchain.json?limit= — Uniswap token list of the newest `limit` confirmed
     * launches (default 1000, max 10000), oldest first; version per docs/public.md; names and
     * symbols sanitised to the schema (flagged `extensions.sanitized`). Conditional GET.
     * 200 token list JSON; 304; 400 `invalid_request`; 404 `token_list_empty`; 503 `not_indexed_yet`.
     */
    .get(
      "/token-list/evmchain.json",
      documented({
        tag: "feeds",
        summary: "Uniswap token list (https://uniswap.org/tokenlist.schema.json) of launched tokens",
        ok: z.looseObject({
          name: z.string(),
          timestamp: z.string(),
          version: z.object({ major: z.number().int(), minor: z.number().int(), patch: z.number().int() }),
          tokens: z.array(
            z.looseObject({
              chainId: z.number().int(),
              address: z.string(),
              name: z.string(),
              symbol: z.string(),
              decimals: z.number().int(),
            }),
          ),
        }),
        also: { 304: { description: "Not modified (conditional GET)" } },
        errors: ["invalid_request", "token_list_empty", "not_indexed_yet"],
      }),
      validate("query", tokenListQuery),
      async (c) => {
        const { limit } = c.req.valid("query");
        // The one confirmed bound (market/confirmedBound.ts): a listed launch is never reverted.
        const confirmedBlock = await confirmedHeadBlock(deps.db, config.confirmationBlocks);
        if (confirmedBlock === null) throw new ApiError("not_indexed_yet", "the indexer has not processed a block yet");
        const count = confirmedBlock >= 0n ? await countLaunches(deps.db, confirmedBlock) : 0;
        if (count === 0) throw new ApiError("token_list_empty", "no confirmed launch yet");
        const rows = (await tokenPage(deps.db, { sort: "new", limit, maxLaunchBlock: confirmedBlock })).reverse();
        const newest = rows.at(-1)!;
        const list = renderTokenList({
          name: "evmchain launches",
          chainId,
          version: tokenListVersion(count),
          timestampSec: Number(newest.launchTimestampSec),
          keywords: ["evmchain", "launches"],
          tokens: rows.map((r) => ({
            address: getAddress(r.address),
            name: r.name,
            symbol: r.symbol,
            decimals: r.decimals,
            logoURI: config.defaultImageUrl(deps.publicBaseUrl),
            slug: r.slug,
            launchTimestampSec: Number(r.launchTimestampSec),
          })),
        });
        return sendConditional(
          c,
          toJsonText(list),
          "application/json; charset=utf-8",
          Number(newest.launchTimestampSec),
        );
      },
    );

  for (const [name, feed] of Object.entries(FEEDS)) {
    /**
     * GET /feed/{name}.xml — RSS 2.0, the newest 50 entries of the kind; item guid stable
     * (`launch:{token}`, `big_buy:{trade id}`, `graduation:{token}`), link = token page,
     * pubDate = block time. Conditional GET (ETag, Last-Modified), Cache-Control.
     */
    app.get(
      `/feed/${name}.xml`,
      documented({
        tag: "feeds",
        summary: `RSS 2.0 feed: ${name}`,
        content: { "application/rss+xml": "RSS 2.0 document" },
        also: { 304: { description: "Not modified (conditional GET)" } },
      }),
      async (c) => {
        const events = await latestEventsOfKind(deps.db, feed.kind, RSS_ITEMS);
        const tokens = new Map(
          (await tokensByAddress(deps.db, [...new Set(events.map((e) => e.token))])).map((t) => [t.address, t]),
        );
        const items: RssItem[] = [];
        for (const e of events) {
          const t = tokens.get(e.token);
          if (!t) continue;
          const label = `${t.name} (${t.symbol})`;
          const link = tokenUrl(deps.publicBaseUrl, t.address);
          const p = decodeEventPayload(e.payloadJson);
          if (feed.kind === "launch") {
            items.push({
              title: `${label} launched`,
              link,
              description: `${label} launched by ${getAddress(t.creator)} with a first buy of ${formatEther(t.firstBuyWei)} ETH. Token ${getAddress(t.address)}.`,
              guid: `launch:${getAddress(t.address)}`,
              pubDateSec: Number(e.timestampSec),
              category: "launch",
            });
          } else if (feed.kind === "big_buy") {
            items.push({
              title: `Big buy: ${formatEther(BigInt(String(p.eth_amount_wei)))} ETH of ${label}`,
              link,
              description: `${getAddress(String(p.trader))} bought ${formatEther(BigInt(String(p.token_amount)))} ${t.symbol} for ${formatEther(BigInt(String(p.eth_amount_wei)))} ETH (tx ${e.txHash}).`,
              guid: `big_buy:${String(p.trade_id)}`,
              pubDateSec: Number(e.timestampSec),
              category: "big_buy",
            });
          } else {
            items.push({
              title: `${label} graduated`,
              link,
              description: `${label} reached a market cap of ${formatEther(BigInt(String(p.market_cap_wei)))} ETH (threshold ${formatEther(BigInt(String(p.threshold_wei)))} ETH).`,
              guid: `graduation:${getAddress(t.address)}`,
              pubDateSec: Number(e.timestampSec),
              category: "graduation",
            });
          }
        }
        const xml = renderRss({
          title: feed.title,
          link: deps.publicBaseUrl,
          description: feed.description,
          selfUrl: `${deps.publicBaseUrl}/feed/${name}.xml`,
          ttlMinutes: 1,
          items,
        });
        return sendConditional(c, xml, "application/rss+xml; charset=utf-8", items[0]?.pubDateSec);
      },
    );
  }
  return app;
}
