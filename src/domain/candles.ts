/**
 * Candle resolutions and bucketing (OHLCV). A bucket of resolution r starts at the largest
 * multiple of r seconds not after the trade's block timestamp (UTC-aligned, like every major
 * charting API); a 1d bucket therefore starts at 00:00 UTC.
 *
 * Two kinds: stored resolutions (1m … 1d, one `candle` row per token and bucket, written per
 * trade) and second bars (1s, 15s), aggregated from the `trade` rows when read and served for the
 * last {@link SECOND_BARS_RETENTION_SEC} seconds before the indexed head only (docs/public.md
 * "Second bars").
 */

/** Stored resolutions and their length in seconds (the indexer writes one candle row each per trade). */
export const STORED_RESOLUTION_SECONDS = {
  "1m": 60,
  "5m": 300,
  "15m": 900,
  "1h": 3_600,
  "4h": 14_400,
  "1d": 86_400,
} as const;

/** Second bars and their length in seconds: aggregated from trades at read time, never stored. */
export const SECOND_RESOLUTION_SECONDS = { "1s": 1, "15s": 15 } as const;

/** Every supported resolution and its length in seconds. */
export const RESOLUTION_SECONDS = { ...SECOND_RESOLUTION_SECONDS, ...STORED_RESOLUTION_SECONDS } as const;

/** A supported resolution name: `1s`, `15s`, `1m`, `5m`, `15m`, `1h`, `4h` or `1d`. */
export type Resolution = keyof typeof RESOLUTION_SECONDS;

/** A stored resolution name (`1m` … `1d`). */
export type StoredResolution = keyof typeof STORED_RESOLUTION_SECONDS;

/** A second-bar resolution name (`1s`, `15s`). */
export type SecondResolution = keyof typeof SECOND_RESOLUTION_SECONDS;

/** Every supported resolution, shortest first. */
export const RESOLUTIONS = Object.keys(RESOLUTION_SECONDS) as Resolution[];

/** The stored resolutions, shortest first: the indexer upserts one candle per trade for each. */
export const STORED_RESOLUTIONS = Object.keys(STORED_RESOLUTION_SECONDS) as StoredResolution[];

/** How far back second bars are served: 24 h before the indexed head's block time. */
export const SECOND_BARS_RETENTION_SEC = 86_400;

/**
 * Whether a resolution is a second bar (aggregated from trades, 24 h retention).
 * @example isSecondResolution("15s") // true
 * @example isSecondResolution("1m") // false
 */
export function isSecondResolution(resolution: Resolution): resolution is SecondResolution {
  return resolution in SECOND_RESOLUTION_SECONDS;
}

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

/**
 * The oldest second-bar bucket start served: the first bucket starting at or after
 * `headSec − 86,400` (a bucket straddling the edge would hold only part of its trades' window).
 *
 * @param resolution - `1s` or `15s`
 * @param headSec - the indexed head's block timestamp, unix seconds
 * @returns unix seconds, a multiple of the resolution, never negative
 * @example secondBarsRetentionStartSec("15s", 1_700_086_407) // 1700000010 (1_700_000_007 rounded up to 15 s)
 */
export function secondBarsRetentionStartSec(resolution: SecondResolution, headSec: number): number {
  const size = SECOND_RESOLUTION_SECONDS[resolution];
  const edge = Math.max(0, headSec - SECOND_BARS_RETENTION_SEC);
  return Math.ceil(edge / size) * size;
}
