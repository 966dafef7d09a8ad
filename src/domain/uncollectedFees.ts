/**
 * Fees a Uniswap V3 position has earned but not collected, from pool and position state (Uniswap V3
 * core `Tick.getFeeGrowthInside`, periphery `NonfungiblePositionManager.collect`): exactly what
 * `collect(tokenId, recipient, max, max)` would pay at the same block, without simulating it. Every
 * operation wraps as the contracts' unchecked Solidity 0.7 arithmetic does (fee growth modulo
 * 2^256, owed amounts modulo 2^128).
 */

const Q128 = 1n << 128n;
const MOD_256 = 1n << 256n;
const MOD_128 = 1n << 128n;

/** `a - b` modulo 2^256 (fee growth accumulators overflow by design). */
function sub256(a: bigint, b: bigint): bigint {
  return (((a - b) % MOD_256) + MOD_256) % MOD_256;
}

/** Fee growth per unit of liquidity outside a tick, one token (`ticks(tick).feeGrowthOutside{0,1}X128`). */
export type TickFeeGrowth = { feeGrowthOutsideX128: bigint };

/**
 * Fee growth per unit of liquidity inside `[tickLower, tickUpper)` now (Tick.getFeeGrowthInside).
 * @param tickCurrent - the pool's current tick (`slot0().tick`)
 * @param feeGrowthGlobalX128 - the pool's `feeGrowthGlobal{0,1}X128`
 * @param lower - the lower tick's `feeGrowthOutside{0,1}X128`
 * @param upper - the upper tick's `feeGrowthOutside{0,1}X128`
 * @returns the fee growth inside, Q128.128, modulo 2^256
 * @example feeGrowthInsideX128(0, 100n, -200, 0n, 200, 0n) // 100n (all growth happened inside)
 */
export function feeGrowthInsideX128(
  tickCurrent: number,
  feeGrowthGlobalX128: bigint,
  tickLower: number,
  lowerOutsideX128: bigint,
  tickUpper: number,
  upperOutsideX128: bigint,
): bigint {
  const below = tickCurrent >= tickLower ? lowerOutsideX128 : sub256(feeGrowthGlobalX128, lowerOutsideX128);
  const above = tickCurrent < tickUpper ? upperOutsideX128 : sub256(feeGrowthGlobalX128, upperOutsideX128);
  return sub256(sub256(feeGrowthGlobalX128, below), above);
}

/**
 * What `collect` pays for one token of a position: its owed amount plus the fees accrued since its
 * last update (`tokensOwed + mulDiv(inside - insideLast, liquidity, 2^128)`, as uint128).
 * @param tokensOwed - the position's `tokensOwed{0,1}` (base units)
 * @param liquidity - the position's liquidity
 * @param insideNowX128 - {@link feeGrowthInsideX128} now
 * @param insideLastX128 - the position's `feeGrowthInside{0,1}LastX128`
 * @returns base units of the token
 * @example uncollectedAmount(5n, 1n << 128n, 30n, 10n) // 25n
 */
export function uncollectedAmount(
  tokensOwed: bigint,
  liquidity: bigint,
  insideNowX128: bigint,
  insideLastX128: bigint,
): bigint {
  if (liquidity === 0n) return tokensOwed;
  const accrued = (sub256(insideNowX128, insideLastX128) * liquidity) / Q128;
  return (tokensOwed + (accrued % MOD_128)) % MOD_128;
}
