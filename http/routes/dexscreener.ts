/**
 * DexScreener adapter, mounted at `/api/public/integrations/dexscreener/evmchain` (docs/public.md
 * "DexScreener adapter"). Follows DEX Screener's public "Adapter Specs" (v1.1): four GET endpoints
 * whose bodies are exactly the spec's shapes — `{ block }`, `{ asset }`, `{ pair }`, `{ events }` —
 * without this API's `ok: true` envelope (the consumer validates against the spec). Failures use
 * the API's error catalogue body as everywhere else.
 *
 * Units (spec): amounts, supplies, reserves and `priceNative` are decimal strings in whole units
 * (base units / 10^decimals); block numbers, unix-seconds timestamps and indexes are JSON numbers.
 *
 * Data availability: `/latest-block` is the events feed's *confirmed* block — the indexer's head
 * minus `EVENTS_CONFIRMATION_BLOCKS` (default 30 = Ponder's finality depth) — never the RPC head,
 * so `/events` has every event up to it and a reorg never changes a range already served.
 */
import { confirmedHeadBlock } from "../../market/confirmedBound";
import { Hono, type Context } from "hono";
import type { PublicClient } from "viem";
import { erc20Abi, formatUnits, getAddress } from "viem";
import { z } from "zod";
import { documented } from "../openapi/describe";
import type { Deployment } from "../../config/deployment";
import type { PublicConfig } from "../../config/public";
import { ApiError } from "../errors";
import { toJsonText } from "../../src/domain/json";
import {
  assetOfToken,
  launchJoinEvent,
  pairOfToken,
  sortEvents,
  swapEvent,
  type DsAsset,
  type DsEvent,
} from "../../market/dexscreener";
import { launchesInBlocks, tokenByAddress, tokenByPool, tradesInBlocks } from "../../market/dexscreenerQueries";
import type { MarketDb } from "../../market/db";
import { validate } from "../validation";
import { addressParam } from "../../src/domain/wire";

/** Most blocks one `/events` request may span (`toBlock − fromBlock + 1`): 100 s at 100 ms blocks. */
const MAX_EVENTS_BLOCK_RANGE = 1_000;

/** What the adapter reads. */
export type DexScreenerDeps = {
  db: MarketDb;
  /** Chain client (block timestamps, the WETH asset). */
  publicClient: PublicClient;
  /** Chain id, WETH address, pool fee. */
  deployment: Deployment;
  /** Confirmation depth (`EVENTS_CONFIRMATION_BLOCKS`). */
  publicConfig: Pick<PublicConfig, "confirmationBlocks">;
};

const blockNumberParam = (name: string) =>
  z
    .string({ message: `${name} is required` })
    .regex(/^\d{1,15}$/, `${name} must be a non-negative integer block number`)
    .transform((v) => BigInt(v));

const idQuery = z.object({ id: addressParam });
const eventsQuery = z.object({ fromBlock: blockNumberParam("fromBlock"), toBlock: blockNumberParam("toBlock") });

/** Sends a spec body as JSON (bigint-safe), without the `ok` envelope. */
function sendSpec(c: Context, body: Record<string, unknown>, cacheControl = "no-store"): Response {
  return c.body(toJsonText(body), 200, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": cacheControl,
  });
}

/** Builds the adapter router (mount at `/api/public/integrations/dexscreener/evmchain`). */
export function dexscreenerRoutes(deps: DexScreenerDeps) {
  const { confirmationBlocks } = deps.publicConfig;
  const weth = getAddress(deps.deployment.contracts.weth);

  /**
   * The newest block `/events` serves: the one confirmed bound (market/confirmedBound.ts:
   * min(indexed head − confirmation depth, the indexer's finalized block), at least 0).
   * @throws ApiError `not_indexed_yet` before the indexer's first checkpoint
   */
  async function latestBlockNumber(): Promise<bigint> {
    const confirmed = await confirmedHeadBlock(deps.db, confirmationBlocks);
    if (confirmed === null) throw new ApiError("not_indexed_yet", "the indexer has not processed a block yet");
    return confirmed > 0n ? confirmed : 0n;
  }

  async function chainCall<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new ApiError("chain_unavailable", `could not read ${what}: ${(err as Error).message.split("\n")[0]}`);
    }
  }

  /** Spec `Asset` of WETH, read from its contract (WETH9's `totalSupply` is the ETH it holds). */
  async function wethAsset(): Promise<DsAsset> {
    const read = <F extends "name" | "symbol" | "decimals" | "totalSupply">(functionName: F) =>
      deps.publicClient.readContract({ address: weth, abi: erc20Abi, functionName });
    const [name, symbol, decimals, totalSupply] = await chainCall("the WETH asset", () =>
      Promise.all([read("name"), read("symbol"), read("decimals"), read("totalSupply")]),
    );
    return { id: weth, name, symbol, totalSupply: formatUnits(totalSupply, decimals) };
  }

  return (
    new Hono()
      /**
       * GET /latest-block — spec `LatestBlockResponse`: `{ block: { blockNumber, blockTimestamp } }`,
       * the newest block whose events `/events` serves (the confirmed bound: min(indexed head −
       * `EVENTS_CONFIRMATION_BLOCKS`, the indexer's finalized block));
       * `blockTimestamp` in unix seconds (read from the chain). 503 `not_indexed_yet` before the
       * first checkpoint, `chain_unavailable` when the RPC does not answer.
       */
      .get(
        "/latest-block",
        documented({
          tag: "dexscreener",
          summary: "Newest block the /events endpoint serves (confirmed)",
          ok: z.object({ block: z.object({ blockNumber: z.number().int(), blockTimestamp: z.number().int() }) }),
          errors: ["not_indexed_yet", "chain_unavailable"],
        }),
        async (c) => {
          const blockNumber = await latestBlockNumber();
          const block = await chainCall(`block ${blockNumber}`, () => deps.publicClient.getBlock({ blockNumber }));
          return sendSpec(c, { block: { blockNumber: Number(blockNumber), blockTimestamp: Number(block.timestamp) } });
        },
      )
      /**
       * GET /asset?id=<address> — spec `AssetResponse`: `{ asset: { id, name, symbol, totalSupply } }`
       * for a launched token (from the index) or the quote token WETH (from its contract);
       * `totalSupply` in whole tokens. `circulatingSupply`, `coinGeckoId`, `coinMarketCapId` are not
       * known and omitted. 400 `invalid_address`; 404 `asset_not_found`.
       */
      .get(
        "/asset",
        documented({
          tag: "dexscreener",
          summary: "A launched token or WETH (whole-unit supply)",
          ok: z.object({ asset: z.looseObject({ id: z.string(), name: z.string(), symbol: z.string() }) }),
          errors: ["invalid_request", "invalid_address", "asset_not_found", "chain_unavailable"],
        }),
        validate("query", idQuery),
        async (c) => {
          const { id } = c.req.valid("query");
          if (id === weth) return sendSpec(c, { asset: await wethAsset() }, "public, max-age=60");
          const row = await tokenByAddress(deps.db, id);
          if (!row) throw new ApiError("asset_not_found", `no launched token or WETH at ${id}`);
          return sendSpec(c, { asset: assetOfToken(row) }, "public, max-age=60");
        },
      )
      /**
       * GET /pair?id=<pool address> — spec `PairResponse`: `{ pair: { id, dexKey: "uniswap",
       * asset0Id, asset1Id, createdAtBlockNumber, createdAtBlockTimestamp, createdAtTxnId,
       * creator, feeBps: 100 } }`; asset0/asset1 = the pool's token0/token1; created at the launch
       * transaction. 400 `invalid_address`; 404 `pair_not_found` (not a launch pool).
       */
      .get(
        "/pair",
        documented({
          tag: "dexscreener",
          summary: "A launch pool: asset0/asset1 = token0/token1, feeBps 100",
          ok: z.object({
            pair: z.looseObject({ id: z.string(), dexKey: z.string(), asset0Id: z.string(), asset1Id: z.string() }),
          }),
          errors: ["invalid_request", "invalid_address", "pair_not_found"],
        }),
        validate("query", idQuery),
        async (c) => {
          const { id } = c.req.valid("query");
          const row = await tokenByPool(deps.db, id);
          if (!row) throw new ApiError("pair_not_found", `no launch pool at ${id}`);
          return sendSpec(c, { pair: pairOfToken(row, deps.deployment.launchFactory.poolFee) }, "public, max-age=60");
        },
      )
      /**
       * GET /events?fromBlock=&toBlock= — spec `EventsResponse`: `{ events: [...] }`, every event of
       * blocks fromBlock..toBlock **inclusive**, ordered by block, `txnIndex`, `eventIndex`:
       * - `swap` per pool Swap of a launch pool (including the creator's first buy): `asset0In` +
       *   `asset1Out` or `asset1In` + `asset0Out`, `priceNative` (asset0 in asset1), `reserves`
       *   after the swap;
       * - `join` per launch: the launch's liquidity (its Mints summed), `amount0`/`amount1`,
       *   `reserves` after it.
       * Each carries `block`, `txnId`, `txnIndex`, `eventIndex` (log index), `maker`, `pairId`.
       * 400 `invalid_request` (missing/malformed), `invalid_block_range` (fromBlock > toBlock,
       * more than {@link MAX_EVENTS_BLOCK_RANGE} blocks, or toBlock above `/latest-block`).
       */
      .get(
        "/events",
        documented({
          tag: "dexscreener",
          summary: "swap and join events in a block range (inclusive, at most 1,000 blocks)",
          ok: z.object({
            events: z.array(
              z.looseObject({
                eventType: z.enum(["swap", "join", "exit"]),
                txnId: z.string(),
                block: z.looseObject({ blockNumber: z.number().int() }),
              }),
            ),
          }),
          errors: ["invalid_request", "invalid_block_range", "not_indexed_yet"],
        }),
        validate("query", eventsQuery),
        async (c) => {
          const { fromBlock, toBlock } = c.req.valid("query");
          if (fromBlock > toBlock)
            throw new ApiError("invalid_block_range", `fromBlock ${fromBlock} is after toBlock ${toBlock}`);
          if (toBlock - fromBlock + 1n > BigInt(MAX_EVENTS_BLOCK_RANGE)) {
            throw new ApiError("invalid_block_range", `the range spans more than ${MAX_EVENTS_BLOCK_RANGE} blocks`);
          }
          const latest = await latestBlockNumber();
          if (toBlock > latest)
            throw new ApiError(
              "invalid_block_range",
              `toBlock ${toBlock} is ahead of the latest block ${latest} (see /latest-block)`,
            );
          const [trades, launches] = await Promise.all([
            tradesInBlocks(deps.db, fromBlock, toBlock),
            launchesInBlocks(deps.db, fromBlock, toBlock),
          ]);
          const events: DsEvent[] = [
            ...launches.map(launchJoinEvent),
            ...trades.map((r) => swapEvent(r.trade, r.token)),
          ];
          // A confirmed range never changes (see the module comment): cacheable.
          return sendSpec(c, { events: sortEvents(events) }, "public, max-age=60");
        },
      )
  );
}
