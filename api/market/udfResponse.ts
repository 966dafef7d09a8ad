/**
 * The UDF branch of the v1 candles endpoint: looks up the close before the window (for gap
 * filling and `nextTime`) and sends the shaped history as plain JSON (UDF bodies carry no `ok`).
 */
import type { Context } from "hono";
import type { Address } from "viem";
import { RESOLUTION_SECONDS, type Resolution } from "../../src/domain/candles";
import { toJsonText } from "../json";
import { candleBefore } from "./publicQueries";
import type { MarketDb } from "./queries";
import { toUdfHistory, type CandleIn } from "./udf";

/**
 * Sends `{s, t, o, h, l, c, v}` or `{s: "no_data", nextTime?}` (TradingView UDF `/history`).
 * @param window - resolved inclusive bucket-start range
 */
export async function udfHistoryResponse(
  c: Context,
  db: MarketDb,
  address: Address,
  resolution: Resolution,
  rows: readonly CandleIn[],
  window: { fromSec: bigint; toSec: bigint },
  fill: boolean,
  countback: number | undefined,
): Promise<Response> {
  const before = await candleBefore(db, address.toLowerCase() as `0x${string}`, resolution, window.fromSec);
  const history = toUdfHistory(rows, {
    sizeSec: RESOLUTION_SECONDS[resolution],
    fromSec: Number(window.fromSec),
    toSec: Number(window.toSec),
    fill,
    prevCloseWei: before?.closeWei ?? null,
    countback,
    nextTimeSec: before ? Number(before.bucketStartSec) : null,
  });
  return c.body(toJsonText(history), 200, { "content-type": "application/json; charset=utf-8" });
}
