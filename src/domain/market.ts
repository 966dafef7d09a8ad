/**
 * Derived market figures of the public surface, as exact integer math (docs/public.md
 * "Definitions"): trending score, graduation progress and 24 h price change.
 */

/** Length of the trending window: the last 24 hours of 1h candles. */
export const TRENDING_WINDOW_HOURS = 24;

/** Half-life of the trending decay, hours. */
export const TRENDING_HALF_LIFE_HOURS = 6;

/** Weight of one trade in the trending score, wei (so activity counts besides size). */
export const TRENDING_TRADE_WEIGHT_WEI = 10n ** 16n; // 0.01 ETH

/**
 * Decay weight per bucket age, parts per million: round(1e6 * 2^(-age / 6)) for ages 0..23 h.
 * Written out so the score is exact and reproducible in any language.
 */
export const TRENDING_DECAY_PPM: readonly bigint[] = Array.from({ length: TRENDING_WINDOW_HOURS }, (_, age) =>
  BigInt(Math.round(1e6 * 2 ** (-age / TRENDING_HALF_LIFE_HOURS))),
);

/** One 1h candle bucket of a token, as the trending score reads it. */
export type HourBucket = { bucketStartSec: bigint; volumeWei: bigint; tradeCount: number };

/**
 * Trending score of a token: Σ over its 1h buckets of the last 24 h of
 * (volumeWei + tradeCount × 0.01 ETH) × decay(age) / 1e6, where age = whole hours between the
 * bucket start and the current hour's start, decay halving every 6 hours. Buckets older than 23 h
 * or in the future count 0.
 *
 * @param buckets - the token's 1h candles (any order)
 * @param nowSec - current unix seconds
 * @returns score in wei-equivalent units (floored)
 * @example trendingScore([{ bucketStartSec: 3600n, volumeWei: 10n ** 18n, tradeCount: 2 }], 3700) // 1020000000000000000n
 */
export function trendingScore(buckets: readonly HourBucket[], nowSec: number): bigint {
  const currentHour = BigInt(Math.floor(nowSec / 3600));
  let score = 0n;
  for (const b of buckets) {
    const age = currentHour - b.bucketStartSec / 3600n;
    if (age < 0n || age >= BigInt(TRENDING_WINDOW_HOURS)) continue;
    const weight = TRENDING_DECAY_PPM[Number(age)]!;
    score += ((b.volumeWei + BigInt(b.tradeCount) * TRENDING_TRADE_WEIGHT_WEI) * weight) / 1_000_000n;
  }
  return score;
}

/**
 * Graduation progress in basis points: market cap / threshold, floored, capped at 10,000.
 * @param marketCapWei - current market cap, wei
 * @param thresholdWei - `GRADUATION_MARKET_CAP_WEI`
 * @returns 0..10000
 * @example graduationProgressBps(2_500_000_000_000_000_000n, 10n ** 19n) // 2500
 */
export function graduationProgressBps(marketCapWei: bigint, thresholdWei: bigint): number {
  if (thresholdWei <= 0n) return 10_000;
  const bps = (marketCapWei * 10_000n) / thresholdWei;
  return Number(bps > 10_000n ? 10_000n : bps);
}

/**
 * Relative price change in basis points, truncated toward zero: (now − then) × 10,000 / then.
 * @param priceNowWei - current price
 * @param priceThenWei - reference price (24 h ago); null or 0 gives null
 * @returns signed basis points, or null when there is no reference
 * @example priceChangeBps(150n, 100n) // 5000
 * @example priceChangeBps(50n, 100n) // -5000
 */
export function priceChangeBps(priceNowWei: bigint, priceThenWei: bigint | null): number | null {
  if (priceThenWei === null || priceThenWei === 0n) return null;
  return Number(((priceNowWei - priceThenWei) * 10_000n) / priceThenWei);
}
