/**
 * The fee locker's split (docs/contracts.md "Fee split"): per position and per token, the creator
 * receives `amount * 7000 / 10000` (floored) and the protocol the rest, so rounding favours the
 * protocol by at most one base unit per position and token. Mirrors `FeeLocker._pay` exactly,
 * which `FeeLocker._collect` calls once per position: a sum over positions must be split position
 * by position, never as one amount ({@link splitFeesPerPosition}).
 */

/** Creator share of collected fees, basis points. */
const CREATOR_SHARE_BPS = 7000n;

/** Creator and protocol amounts of one token, base units (sum = the amount split). */
export type FeeSplit = { creator: bigint; protocol: bigint };

/**
 * Splits one position's collected amount of one token between creator and protocol exactly as
 * the fee locker's `_pay` does.
 * @param amount - base units collected for one token of one position
 * @returns creator and protocol amounts (sum = amount)
 * @example splitFees(10n) // { creator: 7n, protocol: 3n }
 * @example splitFees(1n) // { creator: 0n, protocol: 1n }
 */
export function splitFees(amount: bigint): FeeSplit {
  const creator = (amount * CREATOR_SHARE_BPS) / 10_000n;
  return { creator, protocol: amount - creator };
}

/**
 * Splits the amounts of one token collected from several positions (one `collectFees` call each,
 * or one `collectFeesMany`) and sums the shares: the locker floors the creator's 70 % per
 * position, so the creator's total can be up to one base unit per position below 70 % of the sum.
 * @param amounts - base units of one token, one entry per position
 * @returns summed creator and protocol amounts (sum = Σ amounts)
 * @example splitFeesPerPosition([1n, 1n]) // { creator: 0n, protocol: 2n } (splitFees(2n) would give the creator 1n)
 * @example splitFeesPerPosition([10n, 3n]) // { creator: 9n, protocol: 4n }
 */
export function splitFeesPerPosition(amounts: readonly bigint[]): FeeSplit {
  let creator = 0n;
  let protocol = 0n;
  for (const amount of amounts) {
    const s = splitFees(amount);
    creator += s.creator;
    protocol += s.protocol;
  }
  return { creator, protocol };
}
