/**
 * The 24 h retention of second bars (1s, 15s) on the candles endpoints and UDF `/history`
 * (docs/public.md "Second bars"): measured from the indexed head's block time, not the clock.
 *
 * - The whole window older than the retention start: 400 `out_of_retention`.
 * - A window straddling it: `from` is clamped up to the retention start; the answer says so with
 *   `X-Bars-From-Clamped: <requested from>` (and the JSON body's `from_sec` is the clamped one).
 * - Every second-bar answer carries `X-Bars-Retention-Start-Sec`: the oldest bucket start served.
 */
import type { Context } from "hono";
import { isSecondResolution, type Resolution, secondBarsRetentionStartSec } from "../../src/domain/candles";
import { indexedHead } from "../../market/indexedHead";
import type { MarketDb } from "../../market/db";
import { ApiError } from "../errors";
import { CANDLE_MESSAGES } from "./params";

/** Header naming the oldest second-bar bucket start served (unix seconds). */
export const RETENTION_START_HEADER = "X-Bars-Retention-Start-Sec";
/** Header present when `from` was clamped to the retention start: the `from` that was asked for. */
export const FROM_CLAMPED_HEADER = "X-Bars-From-Clamped";

/**
 * The oldest second-bar bucket start served now, or null for stored resolutions (and before the
 * indexer's first block): bounds UDF `nextTime` on an empty range.
 */
export async function secondBarsRetentionStart(db: MarketDb, resolution: Resolution): Promise<number | null> {
  if (!isSecondResolution(resolution)) return null;
  const head = await indexedHead(db);
  return head ? secondBarsRetentionStartSec(resolution, Number(head.timestampSec)) : null;
}

/**
 * Applies the second-bar retention to a resolved window (stored resolutions pass unchanged).
 * @param window - inclusive bucket starts, unix seconds
 * @returns the window to read, and the retention start (null for stored resolutions)
 * @throws ApiError 400 `out_of_retention` when `toSec` is before the retention start; 503
 *   `not_indexed_yet` before the indexer's first block
 */
export async function secondBarsWindow(
  c: Context,
  db: MarketDb,
  resolution: Resolution,
  window: { fromSec: bigint; toSec: bigint },
): Promise<{ window: { fromSec: bigint; toSec: bigint }; retentionStartSec: number | null }> {
  if (!isSecondResolution(resolution)) return { window, retentionStartSec: null };
  const head = await indexedHead(db);
  if (!head) throw new ApiError("not_indexed_yet", "the indexer has not processed a block yet");
  const start = secondBarsRetentionStartSec(resolution, Number(head.timestampSec));
  if (window.toSec < BigInt(start))
    throw new ApiError("out_of_retention", CANDLE_MESSAGES.retention(resolution, start));
  c.header(RETENTION_START_HEADER, String(start));
  if (window.fromSec >= BigInt(start)) return { window, retentionStartSec: start };
  c.header(FROM_CLAMPED_HEADER, String(window.fromSec));
  return { window: { fromSec: BigInt(start), toSec: window.toSec }, retentionStartSec: start };
}
