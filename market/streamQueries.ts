/**
 * Range reads of the two Server-Sent Events streams (market/streamHub.ts), both in event-id
 * order: the events feed's own rows, and trades keyed by the id of their `trade` event in that
 * feed (a first buy's event sits after its launch event, so a trade's position is its event's,
 * not its Swap log's; `src/indexing/recordTrade.ts`). Every read is bounded by `limit` and uses an index:
 * the event primary key, `(kind, id)` or `(token, id)`, and the trade primary key for the join.
 */
import { and, asc, eq, gt, lt, sql } from "ponder";
import * as schema from "../ponder.schema";
import type { MarketDb } from "./db";

/** A trade with the id of its `trade` event (the stream's resume position). */
export type TradeWithEventId = { eventId: bigint; trade: typeof schema.trade.$inferSelect };

/**
 * Trades whose `trade` event id lies in (`afterId`, `beforeId`), ascending, at most `limit`.
 * @param token - lowercase token address to restrict to (optional)
 */
export async function tradesByEventId(
  db: MarketDb,
  afterId: bigint,
  beforeId: bigint,
  limit: number,
  token?: `0x${string}`,
): Promise<TradeWithEventId[]> {
  const e = schema.event;
  const t = schema.trade;
  if (beforeId <= afterId + 1n) return [];
  return db
    .select({ eventId: e.id, trade: t })
    .from(e)
    .innerJoin(t, eq(t.id, sql`${e.payloadJson}::json->>'trade_id'`))
    .where(and(eq(e.kind, "trade"), gt(e.id, afterId), lt(e.id, beforeId), token ? eq(e.token, token) : undefined))
    .orderBy(asc(e.id))
    .limit(limit);
}

/**
 * Events with id in (`afterId`, `beforeId`), ascending, at most `limit` (the public events feed's rows).
 * @param token - lowercase token address to restrict to (optional)
 */
export async function eventsById(
  db: MarketDb,
  afterId: bigint,
  beforeId: bigint,
  limit: number,
  token?: `0x${string}`,
): Promise<(typeof schema.event.$inferSelect)[]> {
  const e = schema.event;
  if (beforeId <= afterId + 1n) return [];
  return db
    .select()
    .from(e)
    .where(and(gt(e.id, afterId), lt(e.id, beforeId), token ? eq(e.token, token) : undefined))
    .orderBy(asc(e.id))
    .limit(limit);
}
