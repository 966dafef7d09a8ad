/**
 * Candle resolutions and bucketing (OHLCV). A bucket of resolution r starts at the largest
 * multiple of r seconds not after the trade's block timestamp (UTC-aligned, like every major
 * charting API); a 1d bucket therefore starts at 00:00 UTC.
 */

/** Supported resolutions and their length in seconds. */
export const RESOLUTION_SECONDS = {
  "1m": 60,
  "5m": 300,
  "15m": 900,
  "1h": 3_600,
  "4h": 14_400,
  "1d": 86_400,
} as const;

/** A supported resolution name: `1m`, `5m`, `15m`, `1h`, `4h` or `1d`. */
export type Resolution = keyof typeof RESOLUTION_SECONDS;

/** Every supported resolution, shortest first. */
export const RESOLUTIONS = Object.keys(RESOLUTION_SECONDS) as Resolution[];

/**
 * Start of the bucket containing `timestampSec`.
 *
 * @param timestampSec - unix seconds (a block timestamp)
 * @param resolution - bucket length name
 * @returns unix seconds of the bucket start (a multiple of the resolution)
 * @throws RangeError for a negative timestamp
 * @example bucketStartSec(1_700_000_123n, "1m") // 1700000100n
 */
export function bucketStartSec(timestampSec: bigint, resolution: Resolution): bigint {
  if (timestampSec < 0n) throw new RangeError("timestampSec must not be negative");
  const size = BigInt(RESOLUTION_SECONDS[resolution]);
  return timestampSec - (timestampSec % size);
}

/**
 * The first bucket start of the last `countback` buckets ending at `toSec` (inclusive), clamped
 * at the epoch: what `countback` means on the candles endpoint and on UDF `/history` alike.
 *
 * @param toSec - unix seconds, the window's inclusive end
 * @param resolution - bucket length name
 * @param countback - how many buckets, >= 1
 * @returns unix seconds of the window's start
 * @example countbackStartSec(1_700_000_000, "1m", 3) // 1699999880 (three 1m buckets ending at toSec)
 */
export function countbackStartSec(toSec: number, resolution: Resolution, countback: number): number {
  return Math.max(0, toSec - RESOLUTION_SECONDS[resolution] * (countback - 1));
}
