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
import type { EventFeed, FeedEvent, FeedQuery } from "./feed";

type EventRow = typeof schema.event.$inferSelect;

/**
 * The highest block whose events the indexer will never revert, even after a crash: Ponder's
 * `finalized_checkpoint` (`_ponder_checkpoint`). Its crash recovery reverts only the writes its
 * reorg tables still hold, which are those above that checkpoint (it restarts indexing from
 * `safe_checkpoint`, the last finalized *write*, with nothing written between the two). Ponder
 * moves it in steps of its finality depth (30 blocks on chain 4663) once the head is twice that
 * depth past it, so it trails the head by 30-59 blocks. The checkpoint's block number is its
 * characters 27-42 (timestamp 10, chain id 16, block number 16, …); a finalized checkpoint covers
 * its whole block.
 * @returns the block number, or null before the indexer wrote a checkpoint
 */
export async function indexerFinalizedBlock(db: MarketDb): Promise<bigint | null> {
  const rows = rowsOf(
    await db.execute(
      sql`SELECT SUBSTRING(finalized_checkpoint FROM 27 FOR 16) AS block FROM ${ponderInternalTable("_ponder_checkpoint")}`,
    ),
  );
  return rows[0] ? BigInt(String(rows[0].block)) : null;
}

/**
 * The confirmed boundary as an event id: every event of a block at most `confirmationBlocks` below
 * the indexed head *and* at or below the indexer's finalized block ({@link indexerFinalizedBlock}).
 * A delivery cursor that walked past a row which a crash recovery then removed and indexed again
 * later would skip that event for good (seen with a depth of 3 under a kill -9; Ponder's finality
 * depth of 30 is not enough either, its finalized block trails the head by up to 59 blocks).
 * @example confirmedEventCursor({ headBlock: 100n, finalizedBlock: 55n, confirmationBlocks: 3 }) // 55999999n: block 55 is the bound
 */
export function confirmedEventCursor(input: {
  headBlock: bigint;
  finalizedBlock: bigint;
  confirmationBlocks: number;
}): bigint {
  const byDepth = input.headBlock - BigInt(input.confirmationBlocks);
  const block = byDepth < input.finalizedBlock ? byDepth : input.finalizedBlock;
  return block < 0n ? 0n : firstEventIdAfterBlock(block) - 1n;
}

function feedEvent(row: EventRow): FeedEvent {
  const record = eventRecord(row, true);
  return { id: row.id, kind: row.kind, token: record.token, timestampSec: record.timestamp_sec, record };
}

/**
 * The events of the indexer's database: the confirmed ones ({@link confirmedEventCursor}) and,
 * for `include_unconfirmed` subscriptions, every indexed one.
 * @param db - Ponder's read-only database
 * @param confirmationBlocks - `EVENTS_CONFIRMATION_BLOCKS` (an event is final once the indexed head is this many blocks past it)
 * @example await indexedEventFeed(db, 30).confirmedCursor() // 1234999999n (every event of block ≤ 1234 is final)
 */
export function indexedEventFeed(db: MarketDb, confirmationBlocks: number): EventFeed {
  const e = schema.event;
  const matching = async ({ afterId, uptoId, kinds, token, limit }: FeedQuery & { limit: number }) => {
    if (kinds.length === 0 || uptoId <= afterId) return [];
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
      .limit(limit);
    return rows.map(feedEvent);
  };
  return {
    confirmedCursor: async () => {
      const [head, finalizedBlock] = await Promise.all([indexedHead(db), indexerFinalizedBlock(db)]);
      if (!head || finalizedBlock === null) return null;
      return confirmedEventCursor({ headBlock: head.blockNumber, finalizedBlock, confirmationBlocks });
    },
    nextEvent: async (q) => (await matching({ ...q, limit: 1 }))[0] ?? null,
    eventsAfter: matching,
    indexedCursor: async () => {
      const head = await indexedHead(db);
      return head ? firstEventIdAfterBlock(head.blockNumber) - 1n : null;
    },
    eventsByIds: async (ids) =>
      ids.length === 0 ? [] : (await db.select().from(e).where(inArray(e.id, ids))).map(feedEvent),
    eventById: async (id) => {
      const rows = await db.select().from(e).where(eq(e.id, id)).limit(1);
      return rows[0] ? feedEvent(rows[0]) : null;
    },
  };
}
