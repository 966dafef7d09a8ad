/**
 * Fees already collected per token, and the block both halves of a creator-rewards answer are
 * stated at (docs/public.md "Creator rewards").
 *
 * Invariant: `claimed` (indexed `fee_claim` rows) and `unclaimed` (the chain simulated at one
 * block) never straddle a collection. The indexer's head is read before the rows; the rows may
 * already hold later blocks (a block committed meanwhile or, on PGlite where the API shares the
 * indexer's session, one still being written), so the answer is stated at the later of the head
 * and the newest collection in the rows: no collection lies between that block and the rows.
 * Claimed totals are summed from the `fee_claim` rows in the same statement that finds the newest
 * collection, never from the token row (written by a separate statement of the indexer's flush).
 */
import { inArray, max, sql } from "drizzle-orm";
import * as schema from "../../ponder.schema";
import type { IndexedHead } from "../../ops/ponderInternals";
import type { MarketDb } from "../db";

/** Collected fees of one token, base units (WETH in wei, the token in its base units). */
export type ClaimedFees = {
  creatorWei: bigint;
  creatorToken: bigint;
  protocolWei: bigint;
  protocolToken: bigint;
};

/** No collection yet. */
export const NOTHING_CLAIMED: ClaimedFees = { creatorWei: 0n, creatorToken: 0n, protocolWei: 0n, protocolToken: 0n };

/** Claimed fees per token (lower-case address) and the newest collection among them, if any. */
export type ClaimedSnapshot = { byToken: Map<string, ClaimedFees>; newest: IndexedHead | null };

/**
 * Sums the indexed collections of `tokens` in one statement.
 * @param db - the read-side database
 * @param tokens - lower-case token addresses
 * @returns per-token sums (tokens without a collection are absent) and the block and timestamp
 *   of the newest collection
 */
export async function claimedFeesOf(db: MarketDb, tokens: readonly `0x${string}`[]): Promise<ClaimedSnapshot> {
  if (tokens.length === 0) return { byToken: new Map(), newest: null };
  const f = schema.feeClaim;
  const rows = await db
    .select({
      token: f.token,
      creatorWei: sql<string>`sum(${f.creatorFeesWei})::text`,
      creatorToken: sql<string>`sum(${f.creatorFeesToken})::text`,
      protocolWei: sql<string>`sum(${f.protocolFeesWei})::text`,
      protocolToken: sql<string>`sum(${f.protocolFeesToken})::text`,
      lastBlockNumber: max(f.blockNumber),
      lastTimestampSec: max(f.timestampSec),
    })
    .from(f)
    .where(inArray(f.token, [...tokens]))
    .groupBy(f.token);
  const byToken = new Map<string, ClaimedFees>();
  let newest: IndexedHead | null = null;
  for (const r of rows) {
    byToken.set(r.token, {
      creatorWei: BigInt(r.creatorWei),
      creatorToken: BigInt(r.creatorToken),
      protocolWei: BigInt(r.protocolWei),
      protocolToken: BigInt(r.protocolToken),
    });
    const last = { blockNumber: BigInt(r.lastBlockNumber ?? 0n), timestampSec: BigInt(r.lastTimestampSec ?? 0n) };
    if (!newest || last.blockNumber > newest.blockNumber) newest = last;
  }
  return { byToken, newest };
}

/**
 * The block a creator-rewards answer is stated at: the indexer's head read before the rows, or
 * the newest collection in the rows when that is later (see the module's invariant).
 * @param headBeforeRows - the indexed head, read before the `fee_claim` rows
 * @param newestClaim - the newest collection in those rows, or null
 * @returns the block number and timestamp to simulate uncollected fees at and to report
 * @example statedAt({ blockNumber: 10n, timestampSec: 100n }, { blockNumber: 11n, timestampSec: 101n }) // block 11
 */
export function statedAt(headBeforeRows: IndexedHead, newestClaim: IndexedHead | null): IndexedHead {
  return newestClaim && newestClaim.blockNumber > headBeforeRows.blockNumber ? newestClaim : headBeforeRows;
}
