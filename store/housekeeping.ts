/**
 * Deletes expired rows: ended rate/quota windows, idempotency records past their 24 h, expired
 * sessions (24 h), key challenges past their expiry (5 min, used or not) and session builds still
 * in state `built` after 24 h (`SESSION_BUILD_TTL_MS`; confirmed launches are kept), webhook
 * delivery attempts older than 3 days (`DELIVERY_LOG_RETENTION_MS`). Safe to run
 * from several processes at once (plain deletes).
 */
import { pruneChallenges } from "./challenges";
import { pruneCounters } from "./counters";
import { pruneIdempotencyRecords } from "./idempotency";
import type { Store } from "./index";
import { pruneSessionBuilds } from "./launches";
import { pruneSessions } from "./sessions";
import { DELIVERY_LOG_RETENTION_MS, pruneDeliveries } from "./webhooks";

/** How often the service runs {@link pruneExpired}: every 10 minutes. */
export const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Runs every prune once.
 * @param nowMs - the clock (unix ms); rows that expired before it are deleted
 * @example await pruneExpired(store, Date.now()) // expired sessions, challenges, stale session builds… gone
 */
export async function pruneExpired(store: Store, nowMs: number): Promise<void> {
  await pruneCounters(store, nowMs);
  await pruneIdempotencyRecords(store, nowMs);
  await pruneSessions(store, nowMs);
  await pruneChallenges(store, nowMs);
  await pruneSessionBuilds(store, nowMs);
  await pruneDeliveries(store, nowMs - DELIVERY_LOG_RETENTION_MS);
}
