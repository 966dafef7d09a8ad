/**
 * The fee locker's split (docs/contracts.md "Fee split"): per token, the creator receives
 * `amount * 7000 / 10000` (floored) and the protocol the rest, so rounding favours the protocol
 * by at most one base unit. Mirrors `FeeLocker._pay` exactly.
 */

/** Creator share of collected fees, basis points. */
export const CREATOR_SHARE_BPS = 7000n;

/**
 * Splits a collected amount between creator and protocol exactly as the fee locker does.
 * @param amount - base units collected for one token
 * @returns creator and protocol amounts (sum = amount)
 * @example splitFees(10n) // { creator: 7n, protocol: 3n }
 * @example splitFees(1n) // { creator: 0n, protocol: 1n }
 */
export function splitFees(amount: bigint): { creator: bigint; protocol: bigint } {
  const creator = (amount * CREATOR_SHARE_BPS) / 10_000n;
  return { creator, protocol: amount - creator };
}
