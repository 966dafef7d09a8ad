/**
 * Integration feeds under `/api/public/integrations` (spec: Public surface; docs/public.md
 * "Integrations"): launches, token metadata and accepted factories for aggregators, and the two
 * partner feeds whose path segments come from `PARTNER_A_SLUG` / `PARTNER_B_SLUG`.
 */
import { Hono } from "hono";
import { getAbiItem, getAddress, toEventSelector, toEventSignature } from "viem";
import { z } from "zod";
import { issuedCursorParam } from "../market/params";
import { launchFactoryAbi } from "../../abis/LaunchFactory";
import type { Deployment } from "../../config/deployment";
import type { PublicConfig } from "../../config/public";
import { ApiError } from "../errors";
import { sendOk } from "../json";
import { decodeCursor, encodeCursor, tokenCursorShape } from "../market/cursor";
import { indexedHead } from "../market/indexedHead";
import { sortKey, tokenPage, type TokenSort } from "../market/tokenQueries";
import { withStats } from "../market/tokenStats";
import { findToken } from "../market/tokenQueries";
import type { MarketDb } from "../market/db";
import { tokenMetadata, tokenRecord } from "../market/tokenRecord";
import { addressParam, limitParam, validate } from "../validation";
import { documented } from "../openapi/describe";
import { addressWire, okBody, tokenWire, uintString } from "../openapi/schemas";
import { tokenUrl } from "../../src/domain/urls";

/** What the integrations router reads. */
export type IntegrationsDeps = {
  db: MarketDb;
  publicBaseUrl: string;
  publicConfig: PublicConfig;
  deployment: Deployment;
  nowSec?: () => number;
};

/**
 * `sort` values of launch feeds: `new` (newest launch first, default), `old` (oldest first),
 * `market_cap` (highest first), `volume` (all-time WETH volume, highest first), `trades`
 * (all-time trade count, highest first); ties by newer launch.
 */
export const LAUNCH_SORTS = ["new", "old", "market_cap", "volume", "trades"] as const;

const launchesQuery = z.object({
  sort: z.enum(LAUNCH_SORTS, { message: `sort must be one of ${LAUNCH_SORTS.join(", ")}` }).default("new"),
  limit: limitParam(50, 200),
  cursor: issuedCursorParam,
});
const addressQuery = z.object({ address: addressParam });
const orderIdQuery = z.object({
  orderId: z.coerce
    .number({ message: "orderId must be an integer" })
    .int("orderId must be an integer")
    .min(0)
    .max(2 ** 31)
    .default(0),
  limit: limitParam(100, 500),
});

/** Builds the `/api/public/integrations` router. */
export function integrationsRoutes(deps: IntegrationsDeps) {
  const config = deps.publicConfig;
  const deployment = deps.deployment;
  const nowSec = deps.nowSec ?? (() => Math.floor(Date.now() / 1000));
  const launchedEvent = getAbiItem({ abi: launchFactoryAbi, name: "TokenLaunched" });

  async function launches(sort: TokenSort, limit: number, cursor: string | undefined) {
    const after = cursor ? decodeCursor(cursor, tokenCursorShape) : undefined;
    const rows = await tokenPage(deps.db, { sort, limit, after });
    const last = rows.at(-1);
    const key = last ? sortKey(last, sort) : undefined;
    return {
      rows: await withStats(deps.db, rows, nowSec()),
      next_cursor:
        rows.length === limit && last ? encodeCursor({ s: last.launchSeq, ...(key ? { k: key } : {}) }) : null,
    };
  }

  async function requireToken(address: `0x${string}`) {
    const row = await findToken(deps.db, address);
    if (!row) throw new ApiError("token_not_found", `no launched token at ${address}`);
    return row;
  }

  return (
    new Hono()
      /**
       * GET /integrations/evmchain/launches?sort=&limit=&cursor= — launched tokens as full token
       * records. `sort` see {@link LAUNCH_SORTS}; `limit` default 50, max 200.
       * 200 `{ok, sort, launches, next_cursor}`; 400 `invalid_request`/`invalid_cursor`.
       */
      .get(
        "/evmchain/launches",
        documented({
          tag: "integrations",
          summary: "Launches with their token records, sorted (new, old, market_cap, volume, trades)",
          ok: okBody({ sort: z.string(), launches: z.array(tokenWire), next_cursor: z.string().nullable() }),
          errors: ["invalid_request", "invalid_cursor"],
        }),
        validate("query", launchesQuery),
        async (c) => {
          const { sort, limit, cursor } = c.req.valid("query");
          const page = await launches(sort, limit, cursor);
          return sendOk(c, {
            sort,
            launches: page.rows.map((r) => tokenRecord(r, deps)),
            next_cursor: page.next_cursor,
          });
        },
      )
      /**
       * GET /integrations/evmchain/token-metadata?address= — name, symbol, decimals, supply,
       * metadata (platform defaults), links and page URL. 200 `{ok, token}`; 400; 404.
       */
      .get(
        "/evmchain/token-metadata",
        documented({
          tag: "integrations",
          summary: "Name, symbol, supply, metadata and links of one token",
          ok: okBody({
            token: z.looseObject({
              chain_id: z.number().int(),
              address: addressWire,
              name: z.string(),
              symbol: z.string(),
              decimals: z.number().int(),
              total_supply: uintString,
            }),
          }),
          errors: ["invalid_request", "invalid_address", "token_not_found"],
        }),
        validate("query", addressQuery),
        async (c) => {
          const row = await requireToken(c.req.valid("query").address);
          return sendOk(c, {
            token: {
              chain_id: deployment.chainId,
              address: getAddress(row.address),
              slug: row.slug,
              name: row.name,
              symbol: row.symbol,
              decimals: row.decimals,
              total_supply: row.totalSupply,
              creator: getAddress(row.creator),
              pool: getAddress(row.pool),
              quote_token: getAddress(row.weth),
              launch_timestamp_sec: Number(row.launchTimestampSec),
              ...tokenMetadata(row, deps),
              token_url: tokenUrl(deps.publicBaseUrl, row.address),
            },
          });
        },
      )
      /**
       * GET /integrations/evmchain/factories — every accepted launch factory (current first) with
       * `version` (1 = oldest), address, start block, the `TokenLaunched` signature and topic0,
       * fee locker, pool fee tier and tick spacing. 200 `{ok, chain_id, factories}`.
       */
      .get(
        "/evmchain/factories",
        documented({
          tag: "integrations",
          summary: "Accepted launch factories and the launch event's topic0",
          ok: okBody({
            chain_id: z.number().int(),
            factories: z.array(
              z.looseObject({
                address: addressWire,
                current: z.boolean(),
                launch_event: z.string(),
                launch_event_topic0: z.string(),
              }),
            ),
          }),
        }),
        (c) =>
          sendOk(c, {
            chain_id: deployment.chainId,
            factories: deployment.acceptedFactories.map((address, i) => ({
              version: deployment.acceptedFactories.length - i,
              current: i === 0,
              address,
              start_block: deployment.startBlock,
              launch_event: toEventSignature(launchedEvent),
              launch_event_topic0: toEventSelector(launchedEvent),
              fee_locker: deployment.contracts.feeLocker,
              position_manager: deployment.contracts.nonfungiblePositionManager,
              quote_token: deployment.contracts.weth,
              pool_fee: deployment.launchFactory.poolFee,
              tick_spacing: deployment.launchFactory.tickSpacing,
              creator_fee_share_bps: 7000,
            })),
          }),
      )
      /**
       * GET /integrations/{PARTNER_A_SLUG}/evmchain/tokens?orderId=&limit= — confirmed launches
       * with `orderId` (= launch sequence) greater than the given one, ascending; `limit` default
       * 100, max 500. Confirmed (see events) so an order id is never reused by a reorg.
       * 200 `{ok, tokens: [{orderId, …}], nextOrderId}`; 400.
       */
      .get(
        `/${config.partnerASlug}/evmchain/tokens`,
        documented({
          tag: "integrations",
          summary: "Partner A feed: tokens by increasing orderId",
          ok: okBody({
            tokens: z.array(
              z.looseObject({
                orderId: z.number().int(),
                chainId: z.number().int(),
                address: addressWire,
                name: z.string(),
                symbol: z.string(),
              }),
            ),
          }),
          errors: ["invalid_request"],
        }),
        validate("query", orderIdQuery),
        async (c) => {
          const { orderId, limit } = c.req.valid("query");
          const head = await indexedHead(deps.db);
          if (!head) throw new ApiError("not_indexed_yet", "the indexer has not processed a block yet");
          const rows = await tokenPage(deps.db, {
            sort: "old",
            limit,
            minSeq: orderId,
            maxLaunchBlock: head.blockNumber - BigInt(config.confirmationBlocks),
          });
          return sendOk(c, {
            tokens: rows.map((r) => ({
              orderId: r.launchSeq,
              chainId: deployment.chainId,
              address: getAddress(r.address),
              name: r.name,
              symbol: r.symbol,
              decimals: r.decimals,
              totalSupply: r.totalSupply,
              creator: getAddress(r.creator),
              pool: getAddress(r.pool),
              quoteToken: getAddress(r.weth),
              createdAtSec: Number(r.launchTimestampSec),
              createdAtBlock: Number(r.launchBlockNumber),
              txHash: r.launchTxHash,
              imageUrl: config.defaultImageUrl(deps.publicBaseUrl),
              url: tokenUrl(deps.publicBaseUrl, r.address),
            })),
            nextOrderId: rows.at(-1)?.launchSeq ?? orderId,
          });
        },
      )
      /**
       * GET /integrations/{PARTNER_B_SLUG}/evmchain/launches?sort=&limit=&cursor= — compact launch
       * records; `sort` as {@link LAUNCH_SORTS}; `limit` default 50, max 200.
       * 200 `{ok, sort, launches, next_cursor}`.
       */
      .get(
        `/${config.partnerBSlug}/evmchain/launches`,
        documented({
          tag: "integrations",
          summary: "Partner B feed: launches, sorted",
          ok: okBody({
            sort: z.string(),
            launches: z.array(
              z.looseObject({
                address: addressWire,
                name: z.string(),
                symbol: z.string(),
                price_wei: uintString,
                market_cap_wei: uintString,
              }),
            ),
          }),
          errors: ["invalid_request", "invalid_cursor"],
        }),
        validate("query", launchesQuery),
        async (c) => {
          const { sort, limit, cursor } = c.req.valid("query");
          const page = await launches(sort, limit, cursor);
          return sendOk(c, {
            sort,
            launches: page.rows.map((r) => {
              const rec = tokenRecord(r, deps);
              return {
                address: rec.address,
                name: rec.name,
                symbol: rec.symbol,
                creator: rec.creator,
                pool: rec.pool,
                launch_timestamp_sec: rec.launch_timestamp_sec,
                price_wei: rec.price_wei,
                market_cap_wei: rec.market_cap_wei,
                volume_24h_wei: rec.volume_24h_wei,
                graduated: rec.graduated,
                graduation_progress_bps: rec.graduation_progress_bps,
                token_url: rec.token_url,
              };
            }),
            next_cursor: page.next_cursor,
          });
        },
      )
      /**
       * GET /integrations/{PARTNER_B_SLUG}/evmchain/status?address= — launch status of a token:
       * launched/confirmed/graduated, progress, market state. 200 `{ok, status}`; 400; 404.
       */
      .get(
        `/${config.partnerBSlug}/evmchain/status`,
        documented({
          tag: "integrations",
          summary: "Partner B feed: one launch's status",
          ok: okBody({
            status: z.looseObject({
              address: addressWire,
              launched: z.boolean(),
              confirmed: z.boolean(),
              graduated: z.boolean(),
            }),
          }),
          errors: ["invalid_request", "invalid_address", "token_not_found"],
        }),
        validate("query", addressQuery),
        async (c) => {
          const row = await requireToken(c.req.valid("query").address);
          const head = await indexedHead(deps.db);
          const rec = tokenRecord(row, deps);
          return sendOk(c, {
            status: {
              address: rec.address,
              launched: true,
              confirmed: head !== null && head.blockNumber - row.launchBlockNumber >= BigInt(config.confirmationBlocks),
              launch_block_number: rec.launch_block_number,
              launch_tx_hash: rec.launch_tx_hash,
              graduated: rec.graduated,
              graduated_at_sec: rec.graduated_at_sec,
              graduation_progress_bps: rec.graduation_progress_bps,
              price_wei: rec.price_wei,
              market_cap_wei: rec.market_cap_wei,
              trade_count: rec.trade_count,
              token_url: rec.token_url,
            },
          });
        },
      )
  );
}
