/**
 * Exact USD conversion through a WETH/stablecoin Uniswap V3 reference pool (`ETH_USD_POOL`).
 *
 * Invariants (docs/public.md "USD values"):
 * - The stablecoin is taken as exactly 1 USD per whole coin (10^stablecoinDecimals base units).
 * - The ETH/USD in force is a pool price, sqrtPriceX96, whose square over 2^192 is token1 base
 *   units per token0 base unit (Uniswap V3 whitepaper, section 6.1).
 * - Every USD amount is an integer of 10^-18 USD ("USD E18"), the exact rational value rounded
 *   down (all values are non-negative, so this is also toward zero). One conversion, from wei:
 *   `usdE18 = floor(amountWei × usdPerEth × 10^18 / 10^18)`, with usdPerEth taken exactly from
 *   sqrtPriceX96 (no intermediate rounding).
 * - Served as a decimal string: the E18 integer with the decimal point 18 places from the right,
 *   trailing fractional zeros dropped (`formatUsd`, viem's `formatUnits`).
 */
import { formatUnits } from "viem";
import { Q192 } from "./price";

/** Decimal places of every USD amount this service computes and serves. */
export const USD_DECIMALS = 18;

/** How the reference pool is oriented: which side is WETH and the stablecoin's decimals. */
export type EthUsdOrientation = {
  /** true when WETH is the pool's token0 (the stablecoin is token1). */
  wethIsToken0: boolean;
  /** Decimals of the stablecoin (6 for USDC/USDT). */
  stablecoinDecimals: number;
};

/**
 * USD value of an amount of wei at a reference-pool price, in 10^-18 USD, rounded down.
 *
 * WETH token0: stablecoin base units = wei × sqrtP² / 2^192, so
 * usdE18 = floor(wei × sqrtP² × 10^18 / (2^192 × 10^d)).
 * WETH token1: stablecoin base units = wei × 2^192 / sqrtP², so
 * usdE18 = floor(wei × 2^192 × 10^18 / (sqrtP² × 10^d)).
 * @param amountWei - a non-negative amount of wei (ETH or WETH base units)
 * @param sqrtPriceX96 - the reference pool's sqrtPriceX96 (Q64.96) in force
 * @param orientation - WETH side and stablecoin decimals of the reference pool
 * @returns USD × 10^18, floored
 * @throws RangeError when sqrtPriceX96 is not positive or amountWei is negative
 * @example
 * // 3,000 USDC (6 decimals, token1) per WETH (token0): sqrtPriceX96 = sqrt(3000e6 / 1e18) × 2^96
 * weiToUsdE18(10n ** 18n, 4339505179874779489431521n, { wethIsToken0: true, stablecoinDecimals: 6 })
 * // 2999999999999999999999n (≈ 3,000 USD, floored)
 */
export function weiToUsdE18(amountWei: bigint, sqrtPriceX96: bigint, orientation: EthUsdOrientation): bigint {
  if (sqrtPriceX96 <= 0n) throw new RangeError("sqrtPriceX96 must be positive");
  if (amountWei < 0n) throw new RangeError("amountWei must not be negative");
  const squared = sqrtPriceX96 * sqrtPriceX96;
  const scale = 10n ** BigInt(USD_DECIMALS);
  const stableUnit = 10n ** BigInt(orientation.stablecoinDecimals);
  return orientation.wethIsToken0
    ? (amountWei * squared * scale) / (Q192 * stableUnit)
    : (amountWei * Q192 * scale) / (squared * stableUnit);
}

/**
 * USD per ETH (one whole ether, 10^18 wei) at a reference-pool price, in 10^-18 USD, rounded down.
 * @param sqrtPriceX96 - the reference pool's sqrtPriceX96
 * @param orientation - WETH side and stablecoin decimals
 * @returns USD per ETH × 10^18, floored
 * @example
 * // WETH token1, USDC token0: sqrtPriceX96 = sqrt(1e18 / 3000e6) × 2^96
 * ethUsdE18(1446501726624926496477173928747177n, { wethIsToken0: false, stablecoinDecimals: 6 }) // 3000000000000000000000n (3,000 USD)
 */
export function ethUsdE18(sqrtPriceX96: bigint, orientation: EthUsdOrientation): bigint {
  return weiToUsdE18(10n ** 18n, sqrtPriceX96, orientation);
}

/**
 * A USD E18 integer as the decimal string the API serves (trailing fractional zeros dropped).
 * @param usdE18 - USD × 10^18
 * @returns e.g. "3000", "0.000011265", "2999.999999999999999999"
 * @example formatUsd(3_000n * 10n ** 18n) // "3000"
 * @example formatUsd(11_265_000_000_000n) // "0.000011265"
 */
export function formatUsd(usdE18: bigint): string {
  return formatUnits(usdE18, USD_DECIMALS);
}

/**
 * {@link formatUsd} that passes `null` (no ETH/USD known) through: USD fields are null, never "0",
 * when there is no reference price.
 * @example formatUsdOrNull(null) // null
 */
export function formatUsdOrNull(usdE18: bigint | null | undefined): string | null {
  return usdE18 === null || usdE18 === undefined ? null : formatUsd(usdE18);
}

/**
 * The reference-pool orientation from its two tokens and WETH's address.
 * @param token0 - the pool's token0
 * @param token1 - the pool's token1
 * @param weth - the chain's WETH
 * @returns true when WETH is token0
 * @throws Error when neither token is WETH (the configured pool is not a WETH pair)
 * @example wethIsToken0Of("0xC02a…", "0xA0b8…", "0xC02a…") // true
 */
export function wethIsToken0Of(token0: string, token1: string, weth: string): boolean {
  const w = weth.toLowerCase();
  if (token0.toLowerCase() === w) return true;
  if (token1.toLowerCase() === w) return false;
  throw new Error(`ETH_USD_POOL is not a WETH pair: token0 ${token0}, token1 ${token1}, WETH ${weth}`);
}

/**
 * Larger of a stored nullable value and a new one (a candle's USD high); null only when both are.
 * @example maxOrNull(null, 5n) // 5n
 */
export function maxOrNull(a: bigint | null, b: bigint | null): bigint | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

/**
 * Smaller of a stored nullable value and a new one (a candle's USD low); null only when both are.
 * @example minOrNull(7n, 5n) // 5n
 */
export function minOrNull(a: bigint | null, b: bigint | null): bigint | null {
  if (a === null) return b;
  if (b === null) return a;
  return a < b ? a : b;
}

/**
 * Sum of a stored nullable total and a new nullable amount (a candle's USD volume); null only
 * when both are (no trade of the bucket had an ETH/USD).
 * @example addOrNull(null, 5n) // 5n
 */
export function addOrNull(a: bigint | null, b: bigint | null): bigint | null {
  if (a === null) return b;
  if (b === null) return a;
  return a + b;
}
