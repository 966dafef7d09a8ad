/**
 * The offchain store's creator-funding table (docs/public.md "Launch integrity",
 * `creator_funded`), re-exported by `store/schema.ts`. Same conventions as `store/schema.ts`: no
 * Postgres schema (the store's `search_path`), times in unix ms.
 */
import { bigint, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";

/** One creator-funded sniper as stored (`fundedWei`: decimal string of wei). */
export type StoredFundedSniper = { address: string; fundedWei: string; transferCount: number };

/**
 * One row per launch whose creator's transactions were read (launches/creatorFunding.ts): written
 * once the sniper window is confirmed, so it never changes afterwards. `status`: `measured`
 * (`funded` lists the creator-funded snipers, possibly none) or `unavailable` (`reason`: the
 * creator sent more transactions than the bound, or the RPC could not answer). A launch without a
 * row is still pending.
 */
export const creatorFunding = pgTable(
  "creator_funding",
  {
    /** Lower-case token address. */
    token: text("token").primaryKey(),
    /** The launch's `token.launch_seq` (chain order of launches): the scan's cursor. */
    launchSeq: integer("launch_seq").notNull(),
    launchBlockNumber: bigint("launch_block_number", { mode: "bigint" }).notNull(),
    status: text("status", { enum: ["measured", "unavailable"] }).notNull(),
    reason: text("reason"),
    /** First and last block whose creator transactions were read (src/domain/creatorFunding.ts). */
    windowStartBlock: bigint("window_start_block", { mode: "bigint" }).notNull(),
    windowEndBlock: bigint("window_end_block", { mode: "bigint" }).notNull(),
    /** Transactions the creator sent in the window (from its nonce); null when the RPC failed. */
    creatorTransactionCount: integer("creator_transaction_count"),
    funded: jsonb("funded").$type<StoredFundedSniper[]>().notNull(),
    measuredAtMs: bigint("measured_at_ms", { mode: "number" }).notNull(),
  },
  (t) => [index("creator_funding_launch_seq_idx").on(t.launchSeq)],
);
