/**
 * Second bars (1s, 15s): OHLCV aggregated from a token's `trade` rows when read, in the shape of a
 * stored `candle` row so every candle shaper serves them unchanged (docs/public.md "Second bars").
 *
 * Semantics equal the stored candles' (src/indexing/recordTrade.ts): open = the bucket's first
 * trade and close its last in chain order (block, log index); high/low the extremes; volumes and
 * the trade count summed; the USD columns over the trades that had an ETH/USD (first/last of those
 * open/close, null when none had). The window read is bounded (at most 1,440 buckets, within the
 * 24 h retention) and found through the `(token, timestamp_sec)` index of `trade`.
 */
import { and, desc, eq, gte, lt, lte, sql } from "ponder";
import type { Address } from "viem";
import * as schema from "../ponder.schema";
import { SECOND_RESOLUTION_SECONDS, type SecondResolution } from "../src/domain/candles";
import { lower } from "../src/domain/hex";
import type { MarketDb } from "./db";

type CandleRow = typeof schema.candle.$inferSelect;

const t = schema.trade;

/** The aggregate columns of one bucket, in chain order within it. */
function barColumns(resolution: SecondResolution) {
  // A constant of our own table (1 or 15), inlined so GROUP BY repeats the same expression.
  const size = sql.raw(String(SECOND_RESOLUTION_SECONDS[resolution]));
  const bucket = sql`(${t.timestampSec} - mod(${t.timestampSec}, ${size}))`;
  const first = (col: typeof t.priceWei | typeof t.priceUsdE18, onlyKnown = false) =>
    sql`(array_agg(${col} order by ${t.blockNumber}, ${t.logIndex})${onlyKnown ? sql` filter (where ${col} is not null)` : sql``})[1]`;
  const last = (col: typeof t.priceWei | typeof t.priceUsdE18, onlyKnown = false) =>
    sql`(array_agg(${col} order by ${t.blockNumber} desc, ${t.logIndex} desc)${onlyKnown ? sql` filter (where ${col} is not null)` : sql``})[1]`;
  const sideSum = (side: "buy" | "sell") =>
    sql`coalesce(sum(${t.ethAmountWei}) filter (where ${t.side} = ${side}), 0)`.mapWith(t.ethAmountWei);
  return {
    bucket,
    columns: {
      bucketStartSec: bucket.mapWith(t.timestampSec),
      openWei: first(t.priceWei).mapWith(t.priceWei),
      highWei: sql`max(${t.priceWei})`.mapWith(t.priceWei),
      lowWei: sql`min(${t.priceWei})`.mapWith(t.priceWei),
      closeWei: last(t.priceWei).mapWith(t.priceWei),
      volumeToken: sql`sum(${t.tokenAmount})`.mapWith(t.tokenAmount),
      volumeWei: sql`sum(${t.ethAmountWei})`.mapWith(t.ethAmountWei),
      volumeBuyWei: sideSum("buy"),
      volumeSellWei: sideSum("sell"),
      tradeCount: sql`count(*)`.mapWith(Number),
      buyCount: sql`count(*) FILTER (WHERE ${t.side} = 'buy')`.mapWith(Number),
      openUsdE18: first(t.priceUsdE18, true).mapWith(t.priceUsdE18),
      highUsdE18: sql`max(${t.priceUsdE18})`.mapWith(t.priceUsdE18),
      lowUsdE18: sql`min(${t.priceUsdE18})`.mapWith(t.priceUsdE18),
      closeUsdE18: last(t.priceUsdE18, true).mapWith(t.priceUsdE18),
      volumeUsdE18: sql`sum(${t.ethAmountUsdE18})`.mapWith(t.ethAmountUsdE18),
    },
  };
}

/**
 * The query of {@link secondBars}, not yet run (tests read its plan): one aggregate row per bucket
 * with trades, bucket starts within [fromSec, toSec], oldest first.
 */
export function secondBarsQuery(
  db: MarketDb,
  address: Address,
  resolution: SecondResolution,
  fromSec: bigint,
  toSec: bigint,
) {
  const { bucket, columns } = barColumns(resolution);
  return (
    db
      .select(columns)
      .from(t)
      // Bucket starts in [from, to] are trade times in [from, to + size − 1].
      .where(
        and(
          eq(t.token, lower(address)),
          gte(t.timestampSec, fromSec),
          lte(t.timestampSec, toSec + BigInt(SECOND_RESOLUTION_SECONDS[resolution]) - 1n),
        ),
      )
      .groupBy(bucket)
      .orderBy(bucket)
  );
}

/**
 * Second bars of a token whose bucket starts within [fromSec, toSec], oldest first; buckets
 * without trades are absent (as stored candles are).
 * @param fromSec / toSec - inclusive bucket starts, unix seconds (the caller bounds the window)
 * @returns candle-shaped rows (`openWei` … `volumeUsdE18`; prices wei per whole token, volumes
 *   token base units and wei, USD x 10^18)
 */
export async function secondBars(
  db: MarketDb,
  address: Address,
  resolution: SecondResolution,
  fromSec: bigint,
  toSec: bigint,
): Promise<CandleRow[]> {
  const rows = await secondBarsQuery(db, address, resolution, fromSec, toSec);
  return rows.map((r) => ({ token: lower(address), resolution, ...r }));
}

/**
 * The last second bar of a token starting before `beforeSec` (any age: its close is the price in
 * force, as the stored path's last candle), or null.
 */
export async function secondBarBefore(
  db: MarketDb,
  address: Address,
  resolution: SecondResolution,
  beforeSec: bigint,
): Promise<CandleRow | null> {
  const token = lower(address);
  const size = BigInt(SECOND_RESOLUTION_SECONDS[resolution]);
  const latest = await db
    .select({ timestampSec: t.timestampSec })
    .from(t)
    .where(and(eq(t.token, token), lt(t.timestampSec, beforeSec)))
    .orderBy(desc(t.timestampSec))
    .limit(1);
  if (!latest[0]) return null;
  const start = latest[0].timestampSec - (latest[0].timestampSec % size);
  const rows = await secondBars(db, address, resolution, start, start);
  return rows[0] ?? null;
}
