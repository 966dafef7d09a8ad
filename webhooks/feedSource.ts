/**
 * The delivery worker's {@link EventFeed} over the indexer's `event` table: the same rows, the
 * same confirmed boundary (market/confirmedBound.ts) and the same record (`eventRecord`) as
 * `GET /api/public/events`, so a webhook's `data` is exactly what the feed serves for that id.
 */
import { and, asc, eq, gt, inArray, lte } from "ponder";
import * as schema from "../ponder.schema";
import { firstEventIdAfterBlock } from "../src/domain/events";
import { confirmedEventBound, indexerProgress } from "../market/confirmedBound";
import type { MarketDb } from "../market/db";
import { eventRecord } from "../market/eventRecord";
import { indexedHead } from "../market/indexedHead";
import type { EventFeed, FeedEvent, FeedQuery } from "./feed";

type EventRow = typeof schema.event.$inferSelect;

/**
 * The confirmed boundary as an event id: the last id of the newest confirmed block
 * (market/confirmedBound.ts: min(head − `confirmationBlocks`, the indexer's finalized block), the
 * same bound as the events feed's `next_since_id` and the SSE confirmed frames).
 * @example confirmedEventCursor({ headBlock: 100n, finalizedBlock: 55n, confirmationBlocks: 3 }) // 55999999n: block 55 is the bound
 */
export function confirmedEventCursor(input: {
  headBlock: bigint;
  finalizedBlock: bigint;
  confirmationBlocks: number;
}): bigint {
  const bound = confirmedEventBound(input, input.confirmationBlocks);
  return bound === 0n ? 0n : bound - 1n;
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
      const progress = await indexerProgress(db);
      return progress ? confirmedEventCursor({ ...progress, confirmationBlocks }) : null;
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
