/**
 * Fixed-window counters in the store, for rate limits (per minute) and quotas (per UTC day).
 * Every increment is one atomic `INSERT … ON CONFLICT DO UPDATE … RETURNING`, so counts are exact
 * across several API processes sharing a PostgreSQL store.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import type { Store } from "./index";
import { counters } from "./schema";

/** A counter's state after a hit. */
export type WindowCount = { hits: number; windowStartMs: number; resetAtMs: number };

/** Start of the fixed window of `windowMs` containing `nowMs` (UTC-aligned). */
export function windowStart(nowMs: number, windowMs: number): number {
  return nowMs - (nowMs % windowMs);
}

/**
 * Adds one hit to `bucket` in the window containing `nowMs`.
 * @param nowMs - the app's clock (unix ms; `AppDeps.nowMs`), so windows follow a pinned test clock
 * @returns hits so far in this window (including this one) and when the window ends
 */
export async function incrementCounter(
  store: Store,
  bucket: string,
  windowMs: number,
  nowMs: number,
): Promise<WindowCount> {
  const start = windowStart(nowMs, windowMs);
  const resetAtMs = start + windowMs;
  const rows = await store.db
    .insert(counters)
    .values({ bucket, windowStartMs: start, hits: 1, resetAtMs })
    .onConflictDoUpdate({ target: [counters.bucket, counters.windowStartMs], set: { hits: sql`${counters.hits} + 1` } })
    .returning({ hits: counters.hits });
  return { hits: rows[0]!.hits, windowStartMs: start, resetAtMs };
}

/**
 * Adds one hit only while the window's count is below `limit` (no overshoot under concurrency).
 * @param nowMs - the app's clock (unix ms)
 * @returns the new count, or `null` when the limit was already reached
 */
export async function incrementCounterBelow(
  store: Store,
  bucket: string,
  windowMs: number,
  limit: number,
  nowMs: number,
): Promise<WindowCount | null> {
  if (limit < 1) return null;
  const start = windowStart(nowMs, windowMs);
  const resetAtMs = start + windowMs;
  const rows = await store.db
    .insert(counters)
    .values({ bucket, windowStartMs: start, hits: 1, resetAtMs })
    .onConflictDoUpdate({
      target: [counters.bucket, counters.windowStartMs],
      set: { hits: sql`${counters.hits} + 1` },
      setWhere: sql`${counters.hits} < ${limit}`,
    })
    .returning({ hits: counters.hits });
  return rows[0] ? { hits: rows[0].hits, windowStartMs: start, resetAtMs } : null;
}

/** Reads the count of the window containing `nowMs` (the app's clock, unix ms; 0 when absent). */
export async function readCounter(store: Store, bucket: string, windowMs: number, nowMs: number): Promise<WindowCount> {
  const start = windowStart(nowMs, windowMs);
  const rows = await store.db
    .select({ hits: counters.hits })
    .from(counters)
    .where(and(eq(counters.bucket, bucket), eq(counters.windowStartMs, start)));
  return { hits: rows[0]?.hits ?? 0, windowStartMs: start, resetAtMs: start + windowMs };
}

/** Removes one hit from the window containing `nowMs` (the app's clock, unix ms), never below zero. */
export async function decrementCounter(store: Store, bucket: string, windowMs: number, nowMs: number): Promise<void> {
  const start = windowStart(nowMs, windowMs);
  await store.db
    .update(counters)
    .set({ hits: sql`greatest(${counters.hits} - 1, 0)` })
    .where(and(eq(counters.bucket, bucket), eq(counters.windowStartMs, start)));
}

/** Deletes every window of `bucket`. */
export async function resetCounter(store: Store, bucket: string): Promise<void> {
  await store.db.delete(counters).where(eq(counters.bucket, bucket));
}

/** Deletes windows that ended before `beforeMs` (housekeeping). */
export async function pruneCounters(store: Store, beforeMs: number): Promise<void> {
  await store.db.delete(counters).where(lt(counters.resetAtMs, beforeMs));
}
