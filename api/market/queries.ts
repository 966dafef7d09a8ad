/**
 * Read queries over the indexer's tables. Every query is bounded by a `limit` and served by an
 * index declared in `ponder.schema.ts`.
 */
import { and, asc, desc, eq, gte, lte } from "ponder";
import type { Address } from "viem";
import * as schema from "../../ponder.schema";
import type { Resolution } from "../../src/domain/candles";
import { lower } from "../../src/domain/hex";
import { withStats } from "./publicQueries";
import type { MetadataSource } from "../launch/metadata";

import type { MarketDb } from "./db";

export type { MarketDb } from "./db";

/**
 * The token with this address, its 24 h figures at `nowSec` and its stored creator metadata
 * (`withStats`), or null.
 */
export async function findToken(db: MarketDb, address: Address, nowSec: number, storedMetadata?: MetadataSource) {
  const rows = await db
    .select()
    .from(schema.token)
    .where(eq(schema.token.address, lower(address)))
    .limit(1);
  if (!rows[0]) return null;
  const [row] = await withStats(db, rows, nowSec, storedMetadata);
  return row ?? null;
}

/**
 * The launched token's address if there is one (one primary-key lookup, no 24 h figures): for
 * endpoints that only need to know the token exists (trades, candles).
 * @returns the stored (lowercase) address, or null
 */
export async function findTokenAddress(db: MarketDb, address: Address): Promise<`0x${string}` | null> {
  const rows = await db
    .select({ address: schema.token.address })
    .from(schema.token)
    .where(eq(schema.token.address, lower(address)))
    .limit(1);
  return rows[0]?.address ?? null;
}

/**
 * What a holder page needs of its token (one primary-key lookup): pool, factory, total supply and
 * holder count; null when no launched token has this address.
 */
export async function findTokenHolderFacts(db: MarketDb, address: Address) {
  const t = schema.token;
  const rows = await db
    .select({
      address: t.address,
      pool: t.pool,
      factory: t.factory,
      totalSupply: t.totalSupply,
      holderCount: t.holderCount,
    })
    .from(t)
    .where(eq(t.address, lower(address)))
    .limit(1);
  return rows[0] ?? null;
}

/** Newest launches first (launch block, then log index). */
export async function newestTokens(db: MarketDb, limit: number) {
  return db
    .select()
    .from(schema.token)
    .orderBy(desc(schema.token.launchBlockNumber), desc(schema.token.launchLogIndex))
    .limit(limit);
}

/** Trades across every launched token, newest first. */
export async function recentTrades(db: MarketDb, limit: number) {
  return db
    .select()
    .from(schema.trade)
    .orderBy(desc(schema.trade.blockNumber), desc(schema.trade.logIndex))
    .limit(limit);
}

/** Candles of one resolution whose bucket starts within [fromSec, toSec], oldest first. */
export async function tokenCandles(
  db: MarketDb,
  address: Address,
  resolution: Resolution,
  fromSec: bigint,
  toSec: bigint,
) {
  return db
    .select()
    .from(schema.candle)
    .where(
      and(
        eq(schema.candle.token, lower(address)),
        eq(schema.candle.resolution, resolution),
        gte(schema.candle.bucketStartSec, fromSec),
        lte(schema.candle.bucketStartSec, toSec),
      ),
    )
    .orderBy(asc(schema.candle.bucketStartSec));
}

/**
 * Whether the indexer already has the token's row (its page and read API resolve), waiting up to
 * `waitMs` (polling every 200 ms).
 */
export async function tokenIndexed(db: MarketDb, token: Address, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rows = await db
      .select({ address: schema.token.address })
      .from(schema.token)
      .where(eq(schema.token.address, lower(token)))
      .limit(1);
    if (rows.length > 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
}
