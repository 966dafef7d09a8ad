/**
 * The delivery worker's {@link EventFeed} over the indexer's `event` table: the same rows, the
 * same confirmation depth (`EVENTS_CONFIRMATION_BLOCKS`) and the same record (`eventRecord`) as
 * `GET /api/public/events`, so a webhook's `data` is exactly what the feed serves for that id.
 */
import { and, asc, eq, gt, inArray, lte } from "ponder";
import * as schema from "../ponder.schema";
import { firstEventIdAfterBlock } from "../src/domain/events";
import type { MarketDb } from "../api/market/db";
import { eventRecord } from "../api/market/eventRecord";
import { indexedHead } from "../api/market/indexedHead";
import type { EventFeed, FeedEvent } from "./worker";

type EventRow = typeof schema.event.$inferSelect;

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
