/**
 * The delivery worker's {@link EventFeed} over the indexer's `event` table: the same rows, the
 * same confirmation depth (`EVENTS_CONFIRMATION_BLOCKS`) and the same record (`eventRecord`) as
 * `GET /api/public/events`, so a webhook's `data` is exactly what the feed serves for that id.
 */
import { and, asc, eq, gt, inArray, lte } from "ponder";
import * as schema from "../ponder.schema";
import { firstEventIdAfterBlock } from "../src/domain/events";
import type { MarketDb } from "../market/db";
import { eventRecord } from "../market/eventRecord";
import { indexedHead } from "../market/indexedHead";
import type { EventFeed, FeedEvent } from "./worker";

type EventRow = typeof schema.event.$inferSelect;

/**
 * Ponder's finality depth for chain 4663 (config/public.ts): after a restart the indexer reverts
 * and re-indexes the blocks above its finalized block, so their event rows vanish for a while.
 */
export const INDEXER_FINALITY_BLOCKS = 30;

/**
 * How deep an event must be before a webhook delivers it: the events feed's confirmation depth,
 * but never above the indexer's finalized block. A delivery cursor that passed a row which then
 * vanished during a re-index would skip that event for good (seen with a depth of 3 and a kill -9).
 * @example deliveryDepthBlocks(3) // 30
 * @example deliveryDepthBlocks(64) // 64
 */
export function deliveryDepthBlocks(confirmationBlocks: number): number {
  return Math.max(confirmationBlocks, INDEXER_FINALITY_BLOCKS);
}

function feedEvent(row: EventRow): FeedEvent {
  const record = eventRecord(row, true);
  return { id: row.id, kind: row.kind, token: record.token, timestampSec: record.timestamp_sec, record };
}

/**
 * The confirmed events of the indexer's database.
 * @param db - Ponder's read-only database
 * @param confirmationBlocks - `EVENTS_CONFIRMATION_BLOCKS` (an event is final once the indexed head is this many blocks past it)
 * @example await indexedEventFeed(db, 30).confirmedCursor() // 1234999999n (every event of block ≤ 1234 is final)
 */
export function indexedEventFeed(db: MarketDb, confirmationBlocks: number): EventFeed {
  const e = schema.event;
  return {
    confirmedCursor: async () => {
      const head = await indexedHead(db);
      if (!head) return null;
      return firstEventIdAfterBlock(head.blockNumber - BigInt(confirmationBlocks)) - 1n;
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
