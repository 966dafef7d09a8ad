/**
 * Public read-only surface `/api/public` (spec: Public surface, Events). No authentication.
 * Definitions, limits and cursors: docs/public.md.
 */
import { Hono } from "hono";
import { isAddress, getAddress } from "viem";
import { z } from "zod";
import type { PublicConfig } from "../../config/public";
import { isSlugShaped } from "../../src/domain/slug";
import { ApiError } from "../errors";
import { sendOk } from "../json";
import { decodeCursor, encodeCursor, tokenCursorShape, tradeCursorShape } from "../market/cursor";
import type { Deployment } from "../../config/deployment";
import { holderList, holderPosition, tokenDetail } from "../market/holders";
import { findToken, findTokenAddress } from "../market/tokenQueries";
import type { MarketDb } from "../market/db";
import { eventRange } from "../market/eventQueries";
import { findTokenBySlug, sortKey, tokenPage, trendingTokens, type TokenSort } from "../market/tokenQueries";
import { indexedHead } from "../market/indexedHead";
import { tradePage } from "../market/tradeQueries";
import { withStats } from "../market/tokenStats";
import { eventRecord } from "../market/eventRecord";
import { SEARCH_TIERS, searchTokens } from "../market/search";
import { tokenRecord } from "../market/tokenRecord";
import { tradeRecord } from "../market/tradeRecord";
import { limitParam, validate } from "../validation";
import { candlesQuery, issuedCursorParam } from "../market/params";
import { candlesResponse } from "../market/candlesResponse";
import { documented } from "../openapi/describe";
import { holderListDoc, tokenDetailDoc } from "../openapi/tokenDocs";
import {
  addressWire,
  candlesBody,
  eventWire,
  okBody,
  tokenPage as tokenPageWire,
  tokenWire,
  tradePage as tradePageWire,
  uintString,
} from "../openapi/schemas";
import { lower } from "../../src/domain/hex";

/** What the public router reads (the deployment's fee locker and position manager label holders). */
export type PublicDeps = {
  db: MarketDb;
  publicBaseUrl: string;
  publicConfig: PublicConfig;
  deployment: Pick<Deployment, "contracts">;
  nowSec?: () => number;
};

const tokenPath = z.object({
  address_or_slug: z.string().min(1).max(100, "must be a token address or a slug of at most 100 characters"),
});
const cursorParam = issuedCursorParam;
/** Token lists: `limit` default 20, max 100; `cursor` from the previous page's `next_cursor`. */
const tokenListQuery = z.object({ limit: limitParam(20, 100), cursor: cursorParam });
/** Trending: `limit` default 20, max 100 (a bounded set: tokens traded in the last 24 h). */
const trendingQuery = z.object({ limit: limitParam(20, 100) });
/** Holder lists: `limit` default 50, max 200; `cursor`. */
const holderListQuery = z.object({ limit: limitParam(50, 200), cursor: cursorParam });
/** Trade lists: `limit` default 50, max 200; `cursor`. */
const tradeListQuery = z.object({ limit: limitParam(50, 200), cursor: cursorParam });
/** Search: `q` 1-64 characters after trimming; `limit` default 10, max 50. */
const searchQuery = z.object({
  q: z.string().trim().min(1, "q must not be empty").max(64, "q must be at most 64 characters"),
  limit: limitParam(10, 50),
});
/** Events: `since_id` default 0; `limit` default 100, max 500; `include_pending` 0/1/true/false. */
const eventsQuery = z.object({
  since_id: z.coerce
    .number({ message: "since_id must be an integer" })
    .int("since_id must be an integer")
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(0),
  limit: limitParam(100, 500),
  include_pending: z.enum(["0", "1", "true", "false"]).default("0"),
});

/** Event ids below this bound belong to blocks at or below `block` (`src/domain/events.ts`). */
export function eventIdBound(block: bigint): bigint {
  return (block + 1n) * 1_000_000n;
}

/** Builds the `/api/public` router. */
export function publicRoutes(deps: PublicDeps) {
  const config = deps.publicConfig;
  const nowSec = deps.nowSec ?? (() => Math.floor(Date.now() / 1000));
  const render = async (rows: Parameters<typeof withStats>[1]) =>
    (await withStats(deps.db, rows, nowSec())).map((r) => tokenRecord(r, deps));

  /** Address (any case) or slug -> token row; 404 `token_not_found` otherwise. */
  async function resolveToken(addressOrSlug: string) {
    let row = null;
    if (isAddress(addressOrSlug, { strict: false })) row = await findToken(deps.db, getAddress(addressOrSlug));
    else if (isSlugShaped(addressOrSlug)) {
      const bySlug = await findTokenBySlug(deps.db, addressOrSlug);
      row = bySlug ? ((await withStats(deps.db, [bySlug], nowSec()))[0] ?? null) : null;
    }
    if (!row) throw new ApiError("token_not_found", `no launched token for "${addressOrSlug}"`);
    return row;
  }

  /** Address (any case) or slug -> the token's checksummed address, without its 24 h figures; 404 otherwise. */
  async function resolveTokenAddress(addressOrSlug: string): Promise<`0x${string}`> {
    let address: string | null = null;
    if (isAddress(addressOrSlug, { strict: false }))
      address = await findTokenAddress(deps.db, getAddress(addressOrSlug));
    else if (isSlugShaped(addressOrSlug)) address = (await findTokenBySlug(deps.db, addressOrSlug))?.address ?? null;
    if (!address) throw new ApiError("token_not_found", `no launched token for "${addressOrSlug}"`);
    return getAddress(address);
  }

  async function listTokens(sort: TokenSort, limit: number, cursor: string | undefined, onlyNotGraduated = false) {
    const after = cursor ? decodeCursor(cursor, tokenCursorShape) : undefined;
    const rows = await tokenPage(deps.db, { sort, limit, after, onlyNotGraduated });
    const last = rows.at(-1);
    return {
      tokens: await render(rows),
      next_cursor:
        rows.length === limit && last
          ? encodeCursor({ s: last.launchSeq, ...(sortKey(last, sort) ? { k: sortKey(last, sort)! } : {}) })
          : null,
    };
  }

  async function listTrades(limit: number, cursor: string | undefined, token?: `0x${string}`) {
    const c = cursor ? decodeCursor(cursor, tradeCursorShape) : undefined;
    const rows = await tradePage(deps.db, { limit, token, before: c ? { b: BigInt(c.b), l: c.l } : undefined });
    const last = rows.at(-1);
    return {
      trades: rows.map(tradeRecord),
      next_cursor:
        rows.length === limit && last ? encodeCursor({ b: last.blockNumber.toString(), l: last.logIndex }) : null,
    };
  }

  return (
    new Hono()
      /**
       * GET /api/public/tokens/new?limit=&cursor= — newest launches first (launch order).
       * `limit` default 20, max 100. 200 `{ok, tokens, next_cursor}`; 400 `invalid_request`/`invalid_cursor`.
       */
      .get(
        "/tokens/new",
        documented({
          tag: "public",
          summary: "Newest launches first",
          ok: tokenPageWire,
          errors: ["invalid_request", "invalid_cursor"],
        }),
        validate("query", tokenListQuery),
        async (c) => {
          const { limit, cursor } = c.req.valid("query");
          return sendOk(c, await listTokens("new", limit, cursor));
        },
      )
      /**
       * GET /api/public/tokens/trending?limit= — highest trending score first (docs/public.md
       * "Trending"); only tokens with a trade in the last 24 h. `limit` default 20, max 100.
       * 200 `{ok, tokens: [record + trending_score]}`.
       */
      .get(
        "/tokens/trending",
        documented({
          tag: "public",
          summary: "Tokens by trending score (traded in the last 24 h)",
          ok: okBody({ tokens: z.array(tokenWire.extend({ trending_score: uintString })) }),
          errors: ["invalid_request"],
        }),
        validate("query", trendingQuery),
        async (c) => {
          const scored = await trendingTokens(deps.db, nowSec(), c.req.valid("query").limit);
          const records = await render(scored.map((s) => s.row));
          return sendOk(c, { tokens: records.map((r, i) => ({ ...r, trending_score: scored[i]!.score })) });
        },
      )
      /**
       * GET /api/public/tokens/graduating?limit=&cursor= — tokens not yet graduated, closest to
       * graduation first (market cap descending, then newer launch); each record has
       * `graduation_progress_bps`. `limit` default 20, max 100. 200 `{ok, tokens, next_cursor}`.
       */
      .get(
        "/tokens/graduating",
        documented({
          tag: "public",
          summary: "Tokens not yet graduated, closest to graduation first",
          ok: tokenPageWire,
          errors: ["invalid_request", "invalid_cursor"],
        }),
        validate("query", tokenListQuery),
        async (c) => {
          const { limit, cursor } = c.req.valid("query");
          return sendOk(c, await listTokens("market_cap", limit, cursor, true));
        },
      )
      /**
       * GET /api/public/search?q=&limit= — launched tokens matching `q` over address prefix, symbol,
       * name and slug, best match first (ranking: `api/market/search.ts`, docs/public.md "Search").
       * Each record carries `match`, the tier it matched in. 200 `{ok, query, tokens}`; 400 `invalid_request`.
       */
      .get(
        "/search",
        documented({
          tag: "public",
          summary: "Search tokens by address prefix, symbol, name or slug, ranked",
          ok: okBody({ query: z.string(), tokens: z.array(tokenWire.extend({ match: z.enum(SEARCH_TIERS) })) }),
          errors: ["invalid_request"],
        }),
        validate("query", searchQuery),
        async (c) => {
          const { q, limit } = c.req.valid("query");
          const hits = await searchTokens(deps.db, q, limit);
          const records = await render(hits.map((h) => h.row));
          return sendOk(c, { query: q, tokens: records.map((r, i) => ({ ...r, match: hits[i]!.match })) });
        },
      )
      /**
       * GET /api/public/token/{address_or_slug} — one token record with `top_holders` (the ten
       * largest balances, docs/public.md "Holders"); 404 `token_not_found`.
       */
      .get(
        "/token/:address_or_slug",
        documented(
          tokenDetailDoc("public", "One token record by address or slug, with its top holders", [
            "invalid_request",
            "token_not_found",
          ]),
        ),
        validate("param", tokenPath),
        async (c) => {
          const row = await resolveToken(c.req.valid("param").address_or_slug);
          return sendOk(c, { token: await tokenDetail(deps.db, row, deps, deps.deployment) });
        },
      )
      /**
       * GET /api/public/token/{address_or_slug}/holders?limit=&cursor= — the token's holders
       * (non-zero balances), largest first, then by address; `limit` default 50, max 200; `cursor`
       * = the previous page's `next_cursor`. 200 `{ok, token, holder_count, holders,
       * next_cursor}`; 400 `invalid_request`/`invalid_cursor`; 404 `token_not_found`. Source: the
       * tokens' `HolderBalances` events (docs/public.md "Holders").
       */
      .get(
        "/token/:address_or_slug/holders",
        documented(holderListDoc("public", ["invalid_request", "invalid_cursor", "token_not_found"])),
        validate("param", tokenPath),
        validate("query", holderListQuery),
        async (c) => {
          const address = await resolveTokenAddress(c.req.valid("param").address_or_slug);
          const { limit, cursor } = c.req.valid("query");
          const after = cursor ? holderPosition(cursor) : undefined;
          return sendOk(c, await holderList(deps.db, address, limit, after, deps.deployment));
        },
      )
      /**
       * GET /api/public/token/{address_or_slug}/trades?limit=&cursor= — newest first; `limit`
       * default 50, max 200. 200 `{ok, token, trades, next_cursor}`; 404 `token_not_found`.
       */
      .get(
        "/token/:address_or_slug/trades",
        documented({
          tag: "public",
          summary: "A token's trades, newest first",
          ok: tradePageWire.extend({ token: addressWire }),
          errors: ["invalid_request", "invalid_cursor", "token_not_found"],
        }),
        validate("param", tokenPath),
        validate("query", tradeListQuery),
        async (c) => {
          const address = await resolveTokenAddress(c.req.valid("param").address_or_slug);
          const { limit, cursor } = c.req.valid("query");
          return sendOk(c, {
            token: address,
            ...(await listTrades(limit, cursor, lower(address))),
          });
        },
      )
      /**
       * GET /api/public/token/{address_or_slug}/candles?resolution=&from=&to= — the v1 candles
       * answer without a key (the token page's chart reads it): same parameters, bounds and
       * shape (`format=udf` too). 400 `invalid_request`/`invalid_resolution`/`invalid_range`; 404.
       */
      .get(
        "/token/:address_or_slug/candles",
        documented({
          tag: "public",
          summary: "A token's OHLCV candles, oldest first (as the v1 candles endpoint)",
          ok: candlesBody,
          errors: ["invalid_request", "invalid_resolution", "invalid_range", "token_not_found"],
        }),
        validate("param", tokenPath),
        validate("query", candlesQuery),
        async (c) => {
          const address = await resolveTokenAddress(c.req.valid("param").address_or_slug);
          return candlesResponse(c, deps.db, address, c.req.valid("query"), nowSec());
        },
      )
      /** GET /api/public/trades/recent?limit=&cursor= — trades of every launched token, newest first. */
      .get(
        "/trades/recent",
        documented({
          tag: "public",
          summary: "Trades of every launched token, newest first",
          ok: tradePageWire,
          errors: ["invalid_request", "invalid_cursor"],
        }),
        validate("query", tradeListQuery),
        async (c) => {
          const { limit, cursor } = c.req.valid("query");
          return sendOk(c, await listTrades(limit, cursor));
        },
      )
      /**
       * GET /api/public/events?since_id=&limit=&include_pending= — confirmed events with
       * `id > since_id`, ascending (chain order), at most `limit` (default 100, max 500).
       * An event is confirmed when the indexed head is ≥ `EVENTS_CONFIRMATION_BLOCKS` past its
       * block: confirmed events never change or disappear, so `next_since_id` is a safe cursor
       * across reorgs. `include_pending=1` adds `pending` (newer, unconfirmed events, which a
       * reorg may remove or replace, possibly under the same id); the cursor never moves past
       * them. 200 `{ok, events, pending?, next_since_id, head_block, confirmed_block,
       * confirmation_blocks}`; 400 `invalid_request`; 503 `not_indexed_yet`.
       */
      .get(
        "/events",
        documented({
          tag: "public",
          summary: "Events feed: confirmed events after since_id, in chain order",
          ok: okBody({
            events: z.array(eventWire),
            pending: z.array(eventWire).optional(),
            next_since_id: z.number().int().nonnegative(),
            head_block: z.number().int(),
            confirmed_block: z.number().int(),
            confirmation_blocks: z.number().int(),
          }),
          errors: ["invalid_request", "not_indexed_yet"],
        }),
        validate("query", eventsQuery),
        async (c) => {
          const { since_id, limit, include_pending } = c.req.valid("query");
          const head = await indexedHead(deps.db);
          if (!head) throw new ApiError("not_indexed_yet", "the indexer has not processed a block yet");
          const confirmedBlock = head.blockNumber - BigInt(config.confirmationBlocks);
          const sinceId = BigInt(since_id);
          const confirmedBound = confirmedBlock >= 0n ? eventIdBound(confirmedBlock) : 0n;
          const rows = await eventRange(deps.db, sinceId, confirmedBound, limit);
          // Fewer than `limit` rows: everything up to the confirmed boundary has been served.
          const lastId = rows.at(-1)?.id;
          const next =
            rows.length === limit && lastId !== undefined
              ? lastId
              : confirmedBound - 1n > sinceId
                ? confirmedBound - 1n
                : sinceId;
          const body: Record<string, unknown> = {
            events: rows.map((r) => eventRecord(r, true)),
            next_since_id: Number(next),
            head_block: Number(head.blockNumber),
            confirmed_block: Number(confirmedBlock < 0n ? -1n : confirmedBlock),
            confirmation_blocks: config.confirmationBlocks,
          };
          if (include_pending === "1" || include_pending === "true") {
            const from = sinceId > confirmedBound - 1n ? sinceId : confirmedBound - 1n;
            const pending =
              rows.length < limit
                ? await eventRange(deps.db, from, eventIdBound(head.blockNumber + 1_000_000n), limit - rows.length)
                : [];
            body.pending = pending.map((r) => eventRecord(r, false));
          }
          return sendOk(c, body);
        },
      )
  );
}
