/**
 * One record, one block (docs/public.md "One record, one block"): the reads behind a token record
 * (its row, 24 h figures, activity windows, ETH/USD) run in one read-only REPEATABLE READ
 * transaction, so they all see the database as of one commit of the indexer, and the indexer's
 * checkpoint read in the same transaction names that block.
 *
 * Why: on PostgreSQL each statement outside a transaction takes its own snapshot (READ
 * COMMITTED), and the record's statements ran one after the other and side by side on separate pool
 * connections; a block the indexer committed between them was in some figures and not in others
 * (24 h figures one trade apart from the all-time ones). Ponder commits a block's rows and its
 * checkpoint in one transaction, so one snapshot holds one whole block. On PGlite neither side has
 * a real transaction (Ponder runs `transaction(cb)` as `cb(db)` there): the read holds an
 * in-process lock that the writer holds for each whole block (`market/pgliteBlocks.ts`), so the
 * indexer's next block waits for the read (reads are a few statements long).
 */
import { atIndexerBlockBoundary } from "./pgliteBlocks";
import { decodeCheckpointBlock, type IndexedHead } from "../ops/ponderInternals";
import type { MarketDb } from "./db";
import { indexedCheckpoint } from "./indexedHead";

/** The indexed block a read saw (the indexer's checkpoint in the read's snapshot); null before the first. */
export type AsOf = IndexedHead | null;

type TransactionalDb = {
  transaction<T>(
    run: (tx: MarketDb) => Promise<T>,
    config: { isolationLevel: "repeatable read"; accessMode: "read only" },
  ): Promise<T>;
};

/**
 * Runs `read` in one read-only REPEATABLE READ transaction over the indexer's tables and hands it
 * the block the snapshot holds.
 * @param db - the API's read-only handle (Ponder's `ponder:api` db; its type hides `transaction`,
 *   the drizzle instance behind it has it)
 * @param read - the reads; every query must go through the `tx` it receives
 * @returns what `read` returns
 */
export async function atOneBlock<T>(db: MarketDb, read: (tx: MarketDb, asOf: AsOf) => Promise<T>): Promise<T> {
  return atIndexerBlockBoundary(() =>
    (db as unknown as TransactionalDb).transaction(
      async (tx) => {
        const checkpoint = await indexedCheckpoint(tx);
        return read(tx, checkpoint === null ? null : decodeCheckpointBlock(checkpoint));
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    ),
  );
}
