/**
 * The one definition of "confirmed" (docs/public.md "Confirmation"): an event is confirmed once
 * its block is at least `EVENTS_CONFIRMATION_BLOCKS` below the indexed head *and* at or below the
 * indexer's finalized block. The events feed (`next_since_id`), the SSE streams' confirmed frames
 * (and so `Last-Event-ID`) and webhook delivery all use it, so a cursor any of them hands out never
 * passes a row that the indexer could still remove.
 *
 * Why the finalized block: Ponder's crash recovery reverts the writes its reorg tables still hold,
 * which are those above its `finalized_checkpoint`, and indexes them again. A cursor that moved past
 * such a row (seen with a depth of 3 under a kill -9) would skip it for good when it comes back.
 * Ponder moves that checkpoint in steps of its finality depth (30 blocks on chain 4663) once the
 * head is twice that depth past it, so it trails the head by 30-59 blocks.
 */
import { sql } from "ponder";
import { decodeCheckpointBlock } from "../ops/ponderInternals";
import { firstEventIdAfterBlock } from "../src/domain/events";
import { rowsOf, type MarketDb } from "./db";
import { ponderInternalTable } from "./ponderTables";

/** Where the indexer stands: its raw latest checkpoint, head block and finalized block. */
export type IndexerProgress = {
  /** `latest_checkpoint` as stored (changes with every indexed block). */
  checkpoint: string;
  headBlock: bigint;
  /** Block of `finalized_checkpoint`: nothing at or below it is ever reverted, not even by a crash recovery. */
  finalizedBlock: bigint;
};

/**
 * Reads the indexer's progress in one query (Ponder's `_ponder_checkpoint`).
 * @returns the progress, or null before the indexer wrote a checkpoint
 */
export async function indexerProgress(db: MarketDb): Promise<IndexerProgress | null> {
  const rows = rowsOf(
    await db.execute(
      sql`SELECT latest_checkpoint, finalized_checkpoint FROM ${ponderInternalTable("_ponder_checkpoint")}`,
    ),
  );
  const row = rows[0];
  if (!row) return null;
  const checkpoint = String(row.latest_checkpoint);
  return {
    checkpoint,
    headBlock: decodeCheckpointBlock(checkpoint).blockNumber,
    finalizedBlock: decodeCheckpointBlock(String(row.finalized_checkpoint)).blockNumber,
  };
}

/**
 * The newest confirmed block: min(head − `confirmationBlocks`, finalized block); −1 when none is.
 * @example confirmedBlock({ headBlock: 100n, finalizedBlock: 55n }, 3) // 55n (the finalized block bounds it)
 * @example confirmedBlock({ headBlock: 100n, finalizedBlock: 70n }, 64) // 36n (the depth bounds it)
 */
export function confirmedBlock(
  progress: Pick<IndexerProgress, "headBlock" | "finalizedBlock">,
  confirmationBlocks: number,
): bigint {
  const byDepth = progress.headBlock - BigInt(confirmationBlocks);
  const block = byDepth < progress.finalizedBlock ? byDepth : progress.finalizedBlock;
  return block < 0n ? -1n : block;
}

/**
 * The first event id that is not confirmed (every id below it is): the first id after
 * {@link confirmedBlock}; 0 when no block is confirmed.
 * @example confirmedEventBound({ headBlock: 100n, finalizedBlock: 55n }, 3) // 56000000n
 */
export function confirmedEventBound(
  progress: Pick<IndexerProgress, "headBlock" | "finalizedBlock">,
  confirmationBlocks: number,
): bigint {
  return firstEventIdAfterBlock(confirmedBlock(progress, confirmationBlocks));
}

/**
 * The newest confirmed block ({@link confirmedBlock}) read from the indexer's progress in one
 * query: the bound every "confirmed" reader uses (the events feed, the SSE streams, webhooks, the
 * token list, the partner feeds, the DEX Screener adapter, the events-head gauge).
 * @returns the block (−1 while none is confirmed), or null before the indexer's first checkpoint
 */
export async function confirmedHeadBlock(db: MarketDb, confirmationBlocks: number): Promise<bigint | null> {
  const progress = await indexerProgress(db);
  return progress ? confirmedBlock(progress, confirmationBlocks) : null;
}
