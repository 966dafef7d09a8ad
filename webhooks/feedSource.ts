/**
 * The delivery worker's {@link EventFeed} over the indexer's `event` table: the same rows, the
 * same confirmation depth (`EVENTS_CONFIRMATION_BLOCKS`) and the same record (`eventRecord`) as
 * `GET /api/public/events`, so a webhook's `data` is exactly what the feed serves for that id.
 */
import { and, asc, eq, gt, inArray, lte, sql } from "ponder";
import * as schema from "../ponder.schema";
import { firstEventIdAfterBlock } from "../src/domain/events";
import { type MarketDb, rowsOf } from "../market/db";
import { eventRecord } from "../market/eventRecord";
import { indexedHead } from "../market/indexedHead";
import { ponderInternalTable } from "../market/ponderTables";
import type { EventFeed, FeedEvent } from "./worker";

type EventRow = typeof schema.event.$inferSelect;

/**
 * The highest block whose events the indexer will never revert, even after a crash: Ponder's
 * `safe_checkpoint` (`_ponder_checkpoint`), which its crash recovery restores, dropping every row
 * above it and indexing those blocks again. It moves in steps of Ponder's finality depth (30 blocks
 * on chain 4663) once the head is twice that depth past it, so it trails the head by 30-60 blocks.
 * The checkpoint's block number is its characters 27-42 (Ponder's checkpoint layout: timestamp 10,
 * chain id 16, block number 16, …); a finalized checkpoint covers its whole block.
 * @returns the block number, or null before the indexer wrote a checkpoint
 */
export async function indexerSafeBlock(db: MarketDb): Promise<bigint | null> {
  const rows = rowsOf(
    await db.execute(
      sql`SELECT SUBSTRING(safe_checkpoint FROM 27 FOR 16) AS block FROM ${ponderInternalTable("_ponder_checkpoint")}`,
    ),
  );
  return rows[0] ? BigInt(String(rows[0].block)) : null;
}

/**
 * The confirmed boundary as an event id: every event of a block at most `confirmationBlocks` below
 * the indexed head *and* at or below the indexer's safe block ({@link indexerSafeBlock}). A
 * delivery cursor that walked past a row which a crash recovery then removed and indexed again
 * later would skip that event for good (seen with a depth of 3, and with a depth of 30, which is
 * Ponder's finality depth but not its safe block, under a kill -9).
 * @example confirmedEventCursor({ headBlock: 100n, safeBlock: 55n, confirmationBlocks: 3 }) // 55999999n: block 55 is the bound
 */
export function confirmedEventCursor(input: {
  headBlock: bigint;
  safeBlock: bigint;
  confirmationBlocks: number;
}): bigint {
  const byDepth = input.headBlock - BigInt(input.confirmationBlocks);
  const block = byDepth < input.safeBlock ? byDepth : input.safeBlock;
  return block < 0n ? 0n : firstEventIdAfterBlock(block) - 1n;
}

function feedEvent(row: EventRow): FeedEvent {
  const record = eventRecord(row, true);
  return { id: row.id, kind: row.kind, token: record.token, timestampSec: record.timestamp_sec, record };
}

/**
 * The confirmed events of the indexer's database ({@link confirmedEventCursor}).
 * @param db - Ponder's read-only database
 * @param confirmationBlocks - `EVENTS_CONFIRMATION_BLOCKS` (an event is final once the indexed head is this many blocks past it)
 * @example await indexedEventFeed(db, 30).confirmedCursor() // 1234999999n (every event of block ≤ 1234 is final)
 */
export function indexedEventFeed(db: MarketDb, confirmationBlocks: number): EventFeed {
  const e = schema.event;
  return {
    confirmedCursor: async () => {
      const [head, safeBlock] = await Promise.all([indexedHead(db), indexerSafeBlock(db)]);
      if (!head || safeBlock === null) return null;
      return confirmedEventCursor({ headBlock: head.blockNumber, safeBlock, confirmationBlocks });
    },
    nextEvent: async ({ afterId, uptoId, kinds, token }) => {
      if (kinds.length === 0 || uptoId <= afterId) return null;
      const rows = await db
        .select()
        .from(e)
        .where(
          and(
            gt(e.id, afterId),
            lte(e.id, uptoId),
            inArray(e.kind, kinds as EventRow["kind"][]),
            token ? eq(e.token, token.toLowerCase() as `0x${string}`) : undefined,
          ),
        )
        .orderBy(asc(e.id))
        .limit(1);
      return rows[0] ? feedEvent(rows[0]) : null;
    },
    eventById: async (id) => {
      const rows = await db.select().from(e).where(eq(e.id, id)).limit(1);
      return rows[0] ? feedEvent(rows[0]) : null;
    },
  };
}
