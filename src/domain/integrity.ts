/**
 * Launch-integrity arithmetic (docs/public.md "Launch integrity"), shared by the indexer
 * (`src/indexing/integrity.ts`) and the API (`market/integrity.ts`): which early buys make a
 * sniper or a bundled wallet, how one buy or one balance change moves the token's integrity sums,
 * and the shares of supply served. Pure functions, exact bigint math.
 */
import { holderShareBps } from "./holders";

/**
 * Sniper window: a buy in the launch block or in the next `SNIPER_WINDOW_BLOCKS` blocks is an
 * early buy (10 blocks = 1 s at the chain's 100 ms blocks). Changing it changes derived rows:
 * re-index with a new `DATABASE_SCHEMA`.
 */
export const SNIPER_WINDOW_BLOCKS = 10n;

/** How many largest holders `top10_balance_bps` sums. */
export const TOP_BALANCES = 10;

/** Integrity class of one address of one token (the `holder.sniper` / `holder.bundled` flags). */
export type IntegrityFlags = { sniper: boolean; bundled: boolean };

/** The running sums of one token (`token_integrity`), token base units. */
export type IntegritySums = {
  sniperCount: number;
  bundledCount: number;
  sniperBoughtWei: bigint;
  bundledBoughtWei: bigint;
  sniperHeldWei: bigint;
  bundledHeldWei: bigint;
};

/** Sums of a token with no early buyer. */
export const EMPTY_INTEGRITY_SUMS: IntegritySums = {
  sniperCount: 0,
  bundledCount: 0,
  sniperBoughtWei: 0n,
  bundledBoughtWei: 0n,
  sniperHeldWei: 0n,
  bundledHeldWei: 0n,
};

/**
 * The class a buy gives its recipient: `sniper` when it landed in the launch block or within
 * {@link SNIPER_WINDOW_BLOCKS} blocks after it, `bundled` when it landed in the launch block
 * itself (the launch transaction included). A recipient's first buy is its earliest, so a buy in
 * the window means the recipient's first buy was in the window.
 * @param buyBlock - block of the buy
 * @param launchBlock - block of the token's launch transaction
 * @example buyClass(105n, 100n) // { sniper: true, bundled: false }
 * @example buyClass(111n, 100n) // { sniper: false, bundled: false }
 */
export function buyClass(buyBlock: bigint, launchBlock: bigint): IntegrityFlags {
  const after = buyBlock - launchBlock;
  return { sniper: after >= 0n && after <= SNIPER_WINDOW_BLOCKS, bundled: after === 0n };
}

/**
 * The sums after one early buy whose tokens went to an address other than the creator.
 * @param sums - the token's sums before the buy
 * @param before - the recipient's flags before the buy
 * @param cls - the buy's class ({@link buyClass}); a buy outside the window changes nothing
 * @param tokensWei - tokens the pool sent (base units)
 * @param balanceWei - the recipient's balance after the buy (its `holder` row: the token's
 *   `Transfer` precedes the pool's `Swap` in the same transaction); added to the held sum the
 *   first time the address enters a class, later changes arrive through {@link sumsAfterBalanceChange}
 * @returns the new sums and the recipient's new flags
 * @example sumsAfterBuy(EMPTY_INTEGRITY_SUMS, { sniper: false, bundled: false }, { sniper: true, bundled: true }, 5n, 7n)
 *   // { sums: { sniperCount: 1, bundledCount: 1, sniperBoughtWei: 5n, bundledBoughtWei: 5n, sniperHeldWei: 7n, bundledHeldWei: 7n }, flags: { sniper: true, bundled: true } }
 */
export function sumsAfterBuy(
  sums: IntegritySums,
  before: IntegrityFlags,
  cls: IntegrityFlags,
  tokensWei: bigint,
  balanceWei: bigint,
): { sums: IntegritySums; flags: IntegrityFlags } {
  const newSniper = cls.sniper && !before.sniper;
  const newBundled = cls.bundled && !before.bundled;
  return {
    sums: {
      sniperCount: sums.sniperCount + (newSniper ? 1 : 0),
      bundledCount: sums.bundledCount + (newBundled ? 1 : 0),
      sniperBoughtWei: sums.sniperBoughtWei + (cls.sniper ? tokensWei : 0n),
      bundledBoughtWei: sums.bundledBoughtWei + (cls.bundled ? tokensWei : 0n),
      sniperHeldWei: sums.sniperHeldWei + (newSniper ? balanceWei : 0n),
      bundledHeldWei: sums.bundledHeldWei + (newBundled ? balanceWei : 0n),
    },
    flags: { sniper: before.sniper || cls.sniper, bundled: before.bundled || cls.bundled },
  };
}

/**
 * The sums after a flagged address's balance changed: each class it belongs to holds
 * `afterWei - beforeWei` more.
 * @example sumsAfterBalanceChange(s, { sniper: true, bundled: false }, 7n, 2n).sniperHeldWei // s.sniperHeldWei - 5n
 */
export function sumsAfterBalanceChange(
  sums: IntegritySums,
  flags: IntegrityFlags,
  beforeWei: bigint,
  afterWei: bigint,
): IntegritySums {
  const delta = afterWei - beforeWei;
  return {
    ...sums,
    sniperHeldWei: sums.sniperHeldWei + (flags.sniper ? delta : 0n),
    bundledHeldWei: sums.bundledHeldWei + (flags.bundled ? delta : 0n),
  };
}

/**
 * `top10_balance_bps`: the {@link TOP_BALANCES} largest balances, summed, as a share of supply
 * (rounded down once, on the sum).
 * @param balancesWei - the candidate balances (any order; the pool and fee locker already left out)
 * @param totalSupplyWei - the token's total supply (base units)
 * @example topBalancesBps([1n, 5n, 4n], 100n) // 1000
 */
export function topBalancesBps(balancesWei: readonly bigint[], totalSupplyWei: bigint): number {
  const top = [...balancesWei].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)).slice(0, TOP_BALANCES);
  return holderShareBps(
    top.reduce((s, b) => s + b, 0n),
    totalSupplyWei,
  );
}
