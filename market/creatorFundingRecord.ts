/**
 * `creator_funded` of the launch-integrity record (docs/public.md "Launch integrity"): the store's
 * row for the launch (written by launches/creatorFunding.ts once the sniper window is confirmed)
 * and the funded snipers' current balances, read with the rest of the record.
 */
import { holderShareBps } from "../src/domain/holders";
import type { CreatorFundingRow } from "../store/creatorFunding";
import { creatorFundingOf } from "../store/creatorFunding";
import type { Store } from "../store/index";

/** Looks up a launch's creator-funding row; null while pending (or when the store cannot be read). */
export type CreatorFundingSource = (token: string) => Promise<CreatorFundingRow | null>;

/**
 * The creator-funding lookup over the app's store. Never fails a read: when the store is down the
 * figure is served as pending (logged once per source).
 * @param getStore - the app's store getter
 */
export function creatorFundingSource(getStore: () => Promise<Store>): CreatorFundingSource {
  let warned = false;
  return async (token) => {
    try {
      return await creatorFundingOf(await getStore(), token);
    } catch (err) {
      if (!warned) {
        warned = true;
        console.error(`creator funding: store lookup failed, serving pending: ${(err as Error).message}`);
      }
      return null;
    }
  };
}

/** Why a launch's figure is pending. */
export const CREATOR_FUNDED_PENDING =
  "the creator's transactions are read once the sniper window's blocks are confirmed; not yet done for this launch";

/**
 * The served `creator_funded` object.
 * @param row - the launch's row, or null (pending)
 * @param heldWei - the funded snipers' balances now, summed (token base units)
 * @param totalSupply - token base units
 * @example creatorFundedRecord(null, 0n, 10n ** 27n).status // "pending"
 */
export function creatorFundedRecord(row: CreatorFundingRow | null, heldWei: bigint, totalSupply: bigint) {
  if (!row || row.status === "unavailable")
    return {
      status: row ? ("unavailable" as const) : ("pending" as const),
      available: false,
      count: null,
      funded_eth_wei: null,
      held_wei: null,
      held_bps: null,
      window_start_block: row ? Number(row.windowStartBlock) : null,
      window_end_block: row ? Number(row.windowEndBlock) : null,
      reason: row?.reason ?? CREATOR_FUNDED_PENDING,
    };
  return {
    status: "measured" as const,
    available: true,
    count: row.funded.length,
    funded_eth_wei: row.funded.reduce((s, f) => s + BigInt(f.fundedWei), 0n),
    held_wei: heldWei,
    held_bps: holderShareBps(heldWei, totalSupply),
    window_start_block: Number(row.windowStartBlock),
    window_end_block: Number(row.windowEndBlock),
    reason: null,
  };
}
