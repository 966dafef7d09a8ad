/**
 * Read queries of the DexScreener adapter over the indexer's tables: launch pools by address and
 * the swaps and launches of an inclusive block range, each served by an index of
 * `ponder.schema.ts` (`trade.chainOrderIdx`, `token.launchOrderIdx`, `token.poolIdx`).
 */
import { and, asc, eq, gte, lte } from "ponder";
import * as schema from "../ponder.schema";
import type { MarketDb } from "./db";
import { lower } from "../src/domain/hex";

type TokenRow = typeof schema.token.$inferSelect;
type TradeRow = typeof schema.trade.$inferSelect;

/** The launched token whose pool is `pool` (lowercase or any case), or null. */
export async function tokenByPool(db: MarketDb, pool: `0x${string}`): Promise<TokenRow | null> {
  const rows = await db
    .select()
    .from(schema.token)
    .where(eq(schema.token.pool, lower(pool)))
    .limit(1);
  return rows[0] ?? null;
}

/** The launched token at `address` (any case), or null. */
export async function tokenByAddress(db: MarketDb, address: `0x${string}`): Promise<TokenRow | null> {
  const rows = await db
    .select()
    .from(schema.token)
    .where(eq(schema.token.address, lower(address)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Trades with `fromBlock <= block <= toBlock`, in chain order, each with its token row (pool
 * orientation and decimals). The caller bounds the range.
 */
export async function tradesInBlocks(
  db: MarketDb,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<Array<{ trade: TradeRow; token: TokenRow }>> {
  const t = schema.trade;
  return db
    .select({ trade: t, token: schema.token })
    .from(t)
    .innerJoin(schema.token, eq(t.token, schema.token.address))
    .where(and(gte(t.blockNumber, fromBlock), lte(t.blockNumber, toBlock)))
    .orderBy(asc(t.blockNumber), asc(t.txIndex), asc(t.logIndex));
}

/** Launches with `fromBlock <= launch block <= toBlock`, in chain order. */
export async function launchesInBlocks(db: MarketDb, fromBlock: bigint, toBlock: bigint): Promise<TokenRow[]> {
  const tk = schema.token;
  return db
    .select()
    .from(tk)
    .where(and(gte(tk.launchBlockNumber, fromBlock), lte(tk.launchBlockNumber, toBlock)))
    .orderBy(asc(tk.launchBlockNumber), asc(tk.launchLogIndex));
}
