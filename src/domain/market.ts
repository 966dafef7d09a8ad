/**
 * Derived market figures of the public surface, as exact integer math (docs/public.md
 * "Definitions"): graduation progress and price change (the trending score is defined over the
 * activity windows: `src/domain/activityWindows.ts`).
 */

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
