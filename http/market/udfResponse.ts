/**
 * The UDF branch of the v1 candles endpoint: looks up the close before the window (for gap
 * filling and `nextTime`) and sends the shaped history as plain JSON (UDF bodies carry no `ok`).
 */
import type { Context } from "hono";
import type { Address } from "viem";
import { RESOLUTION_SECONDS, type Resolution } from "../../src/domain/candles";
import { toJsonText } from "../../src/domain/json";
import { candleBefore } from "../../market/candleQueries";
import type { candle } from "../../ponder.schema";
import type { MarketDb } from "../../market/db";
import { ethBar, toUdfHistory, type CandleIn } from "../../market/udf";

type CandleRow = typeof candle.$inferSelect;

/**
 * A candle's USD bar in the shaper's 18-decimal units, or null when no trade of the bucket had an
 * ETH/USD.
 */
function usdBar(row: CandleRow): CandleIn | null {
  const { openUsdE18, highUsdE18, lowUsdE18, closeUsdE18, volumeUsdE18 } = row;
  if (openUsdE18 === null || highUsdE18 === null || lowUsdE18 === null || closeUsdE18 === null) return null;
  return {
    bucketStartSec: row.bucketStartSec,
    openE18: openUsdE18,
    highE18: highUsdE18,
    lowE18: lowUsdE18,
    closeE18: closeUsdE18,
    volumeE18: volumeUsdE18 ?? 0n,
  };
}

/**
 * Sends `{s, t, o, h, l, c, v}` or `{s: "no_data", nextTime?}` (TradingView UDF `/history`).
 * @param window - resolved inclusive bucket-start range
 * @param opts.currency - `eth`: ETH per token and ETH volume; `usd`: USD per token and USD volume
 *   (each trade at its own ETH/USD; buckets without one are left out, so no reference pool means
 *   `no_data`)
 * @param opts.retentionStartSec - second bars: the oldest bucket start served; an older last bar
 *   still gives the close for filling but no `nextTime` (a chart would ask for it and be refused)
 */
export async function udfHistoryResponse(
  c: Context,
  db: MarketDb,
  address: Address,
  resolution: Resolution,
  rows: readonly CandleRow[],
  window: { fromSec: bigint; toSec: bigint },
  opts: {
    fill: boolean;
    countback: number | undefined;
    currency: "eth" | "usd";
    retentionStartSec: number | null;
  },
): Promise<Response> {
  const usd = opts.currency === "usd";
  const before = await candleBefore(db, address, resolution, window.fromSec);
  const bars = usd ? rows.flatMap((r) => usdBar(r) ?? []) : rows.map(ethBar);
  const prevClose = usd ? (before?.closeUsdE18 ?? null) : (before?.closeWei ?? null);
  const history = toUdfHistory(bars, {
    sizeSec: RESOLUTION_SECONDS[resolution],
    fromSec: Number(window.fromSec),
    toSec: Number(window.toSec),
    fill: opts.fill,
    prevCloseE18: prevClose,
    countback: opts.countback,
    nextTimeSec:
      before && prevClose !== null && Number(before.bucketStartSec) >= (opts.retentionStartSec ?? 0)
        ? Number(before.bucketStartSec)
        : null,
  });
  return c.body(toJsonText(history), 200, { "content-type": "application/json; charset=utf-8" });
}
