/**
 * The bounds of a launch request and its transaction, one definition for every layer (the
 * request schema, the builder, the pages and the devnet scripts; docs/launch.md "Launch request").
 */

/** Largest first buy accepted: 100 ETH, in wei. */
export const MAX_FIRST_BUY_WEI = 100n * 10n ** 18n;
/** Slippage of the first buy's `amountOutMinimum` when omitted, in basis points (3%). */
export const DEFAULT_SLIPPAGE_BPS = 300;
/** Largest slippage accepted, in basis points (50%). */
export const MAX_SLIPPAGE_BPS = 5000;

/**
 * The gas limit sent for an estimate: +30% and +100,000 gas (anvil and nodes underestimate
 * Uniswap V3 swaps and pool creation).
 * @param estimatedGas - gas units from `eth_estimateGas`
 * @returns the gas limit, gas units
 * @example gasLimitWithMargin(1_000_000n) // 1_400_000n
 */
export function gasLimitWithMargin(estimatedGas: bigint): bigint {
  return (estimatedGas * 13n) / 10n + 100_000n;
}
