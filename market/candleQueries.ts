/**
 * Read queries over the indexer's `candle` table (one row per token, stored resolution and
 * bucket); second bars (1s, 15s) are aggregated from trades instead (./secondBars.ts).
 */
import { and, asc, desc, eq, gte, lt, lte } from "ponder";
import type { Address } from "viem";
import * as schema from "../ponder.schema";
import { isSecondResolution, type Resolution } from "../src/domain/candles";
import { lower } from "../src/domain/hex";
import type { MarketDb } from "./db";
import { secondBarBefore, secondBars } from "./secondBars";

/**
 * Candles of one resolution whose bucket starts within [fromSec, toSec], oldest first: stored
 * rows, or for 1s/15s bars aggregated from the trades (same row shape and semantics).
 */
export async function tokenCandles(
  db: MarketDb,
  address: Address,
  resolution: Resolution,
  fromSec: bigint,
  toSec: bigint,
) {
  if (isSecondResolution(resolution)) return secondBars(db, address, resolution, fromSec, toSec);
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

/** The last candle of a token and resolution whose bucket starts before `beforeSec`, or null. */
export async function candleBefore(db: MarketDb, token: Address, resolution: Resolution, beforeSec: bigint) {
  if (isSecondResolution(resolution)) return secondBarBefore(db, token, resolution, beforeSec);
  const c = schema.candle;
  const rows = await db
    .select()
    .from(c)
    .where(and(eq(c.token, lower(token)), eq(c.resolution, resolution), lt(c.bucketStartSec, beforeSec)))
    .orderBy(desc(c.bucketStartSec))
    .limit(1);
  return rows[0] ?? null;
}
