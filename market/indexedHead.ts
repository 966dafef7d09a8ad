/**
 * The indexer's progress: its checkpoint (Ponder's `_ponder_checkpoint` table) and the head block
 * decoded from it.
 */
import { sql } from "ponder";
import { decodeCheckpointBlock, type IndexedHead } from "../ops/ponderInternals";
import { rowsOf, type MarketDb } from "./db";
import { ponderInternalTable } from "./ponderTables";

export type { IndexedHead };

/** The indexer's raw checkpoint string (changes with every indexed block), or null before the first. */
export async function indexedCheckpoint(db: MarketDb): Promise<string | null> {
  const rows = rowsOf(
    await db.execute(sql`SELECT latest_checkpoint FROM ${ponderInternalTable("_ponder_checkpoint")}`),
  );
  return rows[0] ? String(rows[0].latest_checkpoint) : null;
}

/** The indexer's head, or null before the first checkpoint. */
export async function indexedHead(db: MarketDb): Promise<IndexedHead | null> {
  const checkpoint = await indexedCheckpoint(db);
  return checkpoint === null ? null : decodeCheckpointBlock(checkpoint);
}
