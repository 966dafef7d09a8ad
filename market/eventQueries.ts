/**
 * Read queries over the indexer's `event` table (the events feed and the RSS feeds), bounded by a
 * `limit`.
 */
import { and, asc, desc, eq, gt, lt } from "ponder";
import * as schema from "../ponder.schema";
import type { MarketDb } from "./db";

/** Events with `sinceId < id < untilId`, ascending. */
export async function eventRange(db: MarketDb, sinceId: bigint, untilId: bigint, limit: number) {
  const e = schema.event;
  if (untilId <= sinceId + 1n) return [];
  return db
    .select()
    .from(e)
    .where(and(gt(e.id, sinceId), lt(e.id, untilId)))
    .orderBy(asc(e.id))
    .limit(limit);
}

/** Events of one kind, newest first (RSS feeds). */
export async function latestEventsOfKind(db: MarketDb, kind: "launch" | "big_buy" | "graduation", limit: number) {
  const e = schema.event;
  return db.select().from(e).where(eq(e.kind, kind)).orderBy(desc(e.id)).limit(limit);
}
