/**
 * Data access of the creator-funding rows (store/creatorFundingSchema.ts; docs/public.md "Launch
 * integrity", `creator_funded`). Rows are written once per launch, after its sniper window is
 * confirmed; writing the same launch again (two API processes scanning it) replaces it with the
 * same facts.
 */
import { desc, eq } from "drizzle-orm";
import type { Store } from "./index";
import { creatorFunding, type StoredFundedSniper } from "./schema";

/** A launch's creator-funding row as the store holds it. */
export type CreatorFundingRow = typeof creatorFunding.$inferSelect;

/** Writes (or replaces) a launch's creator-funding row. */
export async function recordCreatorFunding(store: Store, row: CreatorFundingRow): Promise<void> {
  await store.db
    .insert(creatorFunding)
    .values(row)
    .onConflictDoUpdate({
      target: creatorFunding.token,
      set: {
        status: row.status,
        reason: row.reason,
        windowStartBlock: row.windowStartBlock,
        windowEndBlock: row.windowEndBlock,
        creatorTransactionCount: row.creatorTransactionCount,
        funded: row.funded,
        measuredAtMs: row.measuredAtMs,
      },
    });
}

/**
 * A launch's creator-funding row, or null while it is pending.
 * @param token - the token address (any case)
 */
export async function creatorFundingOf(store: Store, token: string): Promise<CreatorFundingRow | null> {
  const rows = await store.db
    .select()
    .from(creatorFunding)
    .where(eq(creatorFunding.token, token.toLowerCase()))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * The newest launch written (`token.launch_seq`): the scan continues after it.
 * @returns 0 before the first row (sequence numbers start at 1)
 */
export async function lastFundingScannedSeq(store: Store): Promise<number> {
  const rows = await store.db
    .select({ launchSeq: creatorFunding.launchSeq })
    .from(creatorFunding)
    .orderBy(desc(creatorFunding.launchSeq))
    .limit(1);
  return rows[0]?.launchSeq ?? 0;
}

export type { StoredFundedSniper };
