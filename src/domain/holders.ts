/**
 * Holder arithmetic shared by the indexer (`src/indexing/LaunchToken.ts`) and the API (holder records):
 * the holder-count change of one balance update, a holder's share of the supply, and the labels of
 * the launchpad's own addresses. Pure functions.
 */
import { lower } from "./hex";

/**
 * How one stored balance update changes a token's holder count.
 * @param held - whether the address held a non-zero balance before
 * @param balanceWei - its balance after the update (base units)
 * @returns +1 (a new holder), -1 (a holder sold or sent everything), else 0
 * @example holderCountDelta(false, 5n) // 1
 */
export function holderCountDelta(held: boolean, balanceWei: bigint): number {
  if (!held && balanceWei > 0n) return 1;
  if (held && balanceWei === 0n) return -1;
  return 0;
}

/**
 * A balance as a share of the total supply in basis points (1 bp = 0.01 %), rounded down, so the
 * shares of all holders sum to at most 10,000. A holder with less than 1 bp shows 0.
 * @param balanceWei - holder balance (base units)
 * @param totalSupplyWei - the token's total supply (base units); 0 gives 0
 * @example holderShareBps(1n, 3n) // 3333
 */
export function holderShareBps(balanceWei: bigint, totalSupplyWei: bigint): number {
  if (totalSupplyWei <= 0n) return 0;
  return Number((balanceWei * 10_000n) / totalSupplyWei);
}

/** Labels of known addresses in holder records (docs/public.md "Holders"). */
export const HOLDER_LABELS = ["pool", "fee_locker", "position_manager", "factory", "burn"] as const;
export type HolderLabel = (typeof HOLDER_LABELS)[number];

/** The address launches send token rounding dust to (`LaunchFactory.DEAD`). */
export const BURN_ADDRESS = "0x000000000000000000000000000000000000dEaD" as const;

/**
 * The label of a holder address: the token's own pool, the fee locker, the Uniswap position
 * manager, the launch factory that launched it, the burn address (`0x…dEaD`, where launches send
 * rounding dust), else null.
 * @param address - the holder (any case)
 * @param known - the token's pool and factory, the deployment's fee locker and position manager (any case)
 * @example holderLabel("0x…dead", known) // "burn"
 */
export function holderLabel(
  address: string,
  known: { pool: string; factory: string; feeLocker: string; positionManager: string },
): HolderLabel | null {
  const a = lower(address);
  if (a === lower(known.pool)) return "pool";
  if (a === lower(known.feeLocker)) return "fee_locker";
  if (a === lower(known.positionManager)) return "position_manager";
  if (a === lower(known.factory)) return "factory";
  if (a === lower(BURN_ADDRESS)) return "burn";
  return null;
}
