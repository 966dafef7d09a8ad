/**
 * Exact price math for a Uniswap V3 TOKEN/WETH pool.
 *
 * Invariant: every price in this service is an integer number of wei per one whole token
 * (10^decimals base units), floored, computed from the pool's sqrtPriceX96 with bigint arithmetic
 * only. The pool price is token1 per token0 in base units: price = sqrtPriceX96^2 / 2^192
 * (Uniswap V3 whitepaper, section 6.1).
 */

/** 2^192, the denominator of sqrtPriceX96 squared. */
export const Q192 = 1n << 192n;

/**
 * Wei per one whole token (10^tokenDecimals base units), floored, from the pool's sqrtPriceX96.
 *
 * Source: Uniswap V3 whitepaper section 6.1 (price = (sqrtPriceX96 / 2^96)^2 = token1/token0).
 * @param sqrtPriceX96 - the pool's sqrt price, Q64.96 (as in `slot0` or a `Swap` event)
 * @param tokenIsToken0 - true when the launched token is the pool's token0 (WETH is token1)
 * @param tokenDecimals - decimals of the launched token (WETH has 18; the ratio is in base units)
 * @returns wei per whole token, floored
 * @throws RangeError when sqrtPriceX96 is not positive
 * @example priceWeiPerToken(2n ** 96n, true) // 1000000000000000000n (1 token = 1 ETH)
 */
export function priceWeiPerToken(sqrtPriceX96: bigint, tokenIsToken0: boolean, tokenDecimals = 18): bigint {
  if (sqrtPriceX96 <= 0n) throw new RangeError("sqrtPriceX96 must be positive");
  const unit = 10n ** BigInt(tokenDecimals);
  const squared = sqrtPriceX96 * sqrtPriceX96;
  // token0 = token: price (WETH per token) = sqrtP^2 / 2^192; token1 = token: its inverse.
  return tokenIsToken0 ? (squared * unit) / Q192 : (Q192 * unit) / squared;
}

/**
 * Market capitalisation in wei: price per whole token times total supply.
 *
 * @param priceWei - wei per whole token (see {@link priceWeiPerToken})
 * @param totalSupply - total supply in token base units
 * @param tokenDecimals - token decimals
 * @returns market cap in wei, floored
 * @example marketCapWei(3_000_000_000n, 10n ** 27n) // 3000000000000000000n (3 ETH)
 */
export function marketCapWei(priceWei: bigint, totalSupply: bigint, tokenDecimals = 18): bigint {
  return (priceWei * totalSupply) / 10n ** BigInt(tokenDecimals);
}

/**
 * Whether `token` sorts before `weth`, i.e. is the pool's token0 (Uniswap V3 orders a pair by
 * address as an unsigned 160-bit integer).
 *
 * @param token - the launched token's address
 * @param weth - the wrapped native token's address
 * @returns true when `token` is token0
 * @example isToken0("0x0000000000000000000000000000000000000001", "0x00000000000000000000000000000000000000ff") // true
 */
export function isToken0(token: string, weth: string): boolean {
  // Equal-length lowercase hex strings order exactly like the numbers they encode.
  return token.toLowerCase() < weth.toLowerCase();
}

/** A swap seen from the launched token's side. */
export type TokenSwap = {
  /** "buy": the trader received the token (or, with no token moved, paid WETH); "sell": the reverse ({@link swapSide}). */
  side: "buy" | "sell";
  /** Token base units that moved, always positive. */
  tokenAmount: bigint;
  /** WETH wei that moved, always positive. */
  ethAmountWei: bigint;
};

/**
 * Orients a Uniswap V3 `Swap` event's pool deltas to the launched token.
 *
 * `amount0`/`amount1` are the pool's balance changes (positive = paid into the pool), per
 * IUniswapV3PoolEvents.Swap. A buy is a swap where the token leaves the pool, or, when no token
 * moves, where WETH enters it ({@link swapSide}).
 * @param amount0 - pool delta of token0, base units
 * @param amount1 - pool delta of token1, base units
 * @param tokenIsToken0 - orientation of the launched token
 * @returns side and absolute amounts
 * @example orientSwap(-5n, 7n, true) // { side: "buy", tokenAmount: 5n, ethAmountWei: 7n }
 */
export function orientSwap(amount0: bigint, amount1: bigint, tokenIsToken0: boolean): TokenSwap {
  const tokenDelta = tokenIsToken0 ? amount0 : amount1;
  const wethDelta = tokenIsToken0 ? amount1 : amount0;
  return {
    side: swapSide(tokenDelta, wethDelta),
    tokenAmount: tokenDelta < 0n ? -tokenDelta : tokenDelta,
    ethAmountWei: wethDelta < 0n ? -wethDelta : wethDelta,
  };
}

/**
 * The side of a swap from the pool's deltas of the launched token and of WETH (docs/public.md
 * "Trade side"). The token delta decides: negative (the token left the pool) is a buy, positive a
 * sell. A swap can move no token at all — e.g. a 1-wei WETH input that the 1 % fee consumes
 * entirely — and then the WETH delta decides: WETH paid into the pool is a buy, WETH taken out a
 * sell. Both zero (nothing moved) counts as a sell; a real Uniswap V3 swap always moves one side.
 * @param tokenDeltaUnits - pool balance change of the token, base units (positive = paid in)
 * @param wethDeltaWei - pool balance change of WETH, wei (positive = paid in)
 * @returns "buy" or "sell"
 * @example swapSide(-5n, 7n) // "buy"
 * @example swapSide(5n, -7n) // "sell"
 * @example swapSide(0n, 1n) // "buy" (1 wei in, 0 tokens out)
 * @example swapSide(0n, -1n) // "sell"
 */
export function swapSide(tokenDeltaUnits: bigint, wethDeltaWei: bigint): "buy" | "sell" {
  if (tokenDeltaUnits !== 0n) return tokenDeltaUnits < 0n ? "buy" : "sell";
  return wethDeltaWei > 0n ? "buy" : "sell";
}
