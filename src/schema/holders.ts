/**
 * Holder tables (re-exported by `ponder.schema.ts`, written only by the indexing functions):
 * balances from the launch tokens' `HolderBalances` events, the holder counts of launches not yet
 * indexed, and the launch-integrity figures derived from balances and early buys
 * (`src/indexing/integrity.ts`, docs/public.md "Launch integrity"). Conventions as in
 * `ponder.schema.ts`: lowercase addresses, bigint base units.
 */
import { index, onchainTable, primaryKey } from "ponder";

/**
 * One balance of a launched token, from the token's `HolderBalances` events (the balance after
 * each change, so every row equals `balanceOf` at its block). The token's holders are its rows
 * with a balance > 0: a balance that drops to 0 keeps its row at 0 (no delete, which Ponder would
 * run against the database at once; src/indexing/LaunchToken.ts), and every read filters on
 * `balance_wei > 0`. The zero address never has a row.
 */
export const holder = onchainTable(
  "holder",
  (t) => ({
    token: t.hex().notNull(),
    address: t.hex().notNull(),
    /** Token base units (18 decimals); 0 for a former holder. */
    balanceWei: t.bigint().notNull(),
    /** Chain position of the event that set this balance. */
    blockNumber: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
    timestampSec: t.bigint().notNull(),
    /**
     * Launch-integrity class of this address (`src/domain/integrity.ts`): `sniper` once it
     * received a buy within `SNIPER_WINDOW_BLOCKS` of the launch block, `bundled` once it received
     * one in the launch block; the creator never. Set by the Swap handler; the balance handler
     * moves each change of a flagged balance into the `token_integrity` sums.
     */
    sniper: t.boolean().notNull(),
    bundled: t.boolean().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.token, table.address] }),
    // Top holders and the holders list: balance descending, address ascending, within a token.
    // `nullsFirst` matches `ORDER BY balance_wei DESC` (drizzle would write DESC NULLS LAST, an
    // order PostgreSQL does not use for it); test/e2e/holders.test.ts checks a page needs no sort.
    balanceIdx: index("holder_balance_idx").on(table.token, table.balanceWei.desc().nullsFirst(), table.address),
  }),
);

/**
 * Holder counts of tokens whose launch is not indexed yet. The token's mint and the launch's own
 * transfers (liquidity, dust, first buy) precede `TokenLaunched` in the launch transaction, so the
 * holder handler cannot count them on the token row; it counts them here and the launch handler
 * takes the count, leaving 0 (as `prelaunchPoolLogs` does for pool logs).
 */
export const prelaunchHolderCount = onchainTable("prelaunch_holder_count", (t) => ({
  token: t.hex().primaryKey(),
  holderCount: t.integer().notNull(),
}));

/**
 * Launch-integrity sums of one launched token (docs/public.md "Launch integrity"), written by the
 * launch handler, the Swap handler (classifying early buys) and the balance handler (keeping the
 * held sums equal to the flagged holders' balances). Token base units throughout.
 */
export const tokenIntegrity = onchainTable("token_integrity", (t) => ({
  token: t.hex().primaryKey(),
  /** The creator's balance right after the launch transaction (its first buy included). */
  creatorBalanceAtLaunchWei: t.bigint().notNull(),
  /** Addresses flagged `sniper` / `bundled` on `holder`. */
  sniperCount: t.integer().notNull(),
  bundledCount: t.integer().notNull(),
  /** Tokens the pool sent to those addresses by buys in the sniper window / in the launch block. */
  sniperBoughtWei: t.bigint().notNull(),
  bundledBoughtWei: t.bigint().notNull(),
  /** The sum of those addresses' current balances. */
  sniperHeldWei: t.bigint().notNull(),
  bundledHeldWei: t.bigint().notNull(),
}));
