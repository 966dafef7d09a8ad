/**
 * Deletes expired rows: ended rate/quota windows, idempotency records past their 24 h, expired
 * sessions and key challenges. Safe to run from several processes at once (plain deletes).
 */
import { lt } from "drizzle-orm";
import { pruneCounters } from "./counters";
import { pruneIdempotencyRecords } from "./idempotency";
import type { Store } from "./index";
import { keyChallenges } from "./schema";
import { pruneSessions } from "./sessions";

/** How often the service runs {@link pruneExpired}: every 10 minutes. */
export const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

/** Runs every prune once. */
export async function pruneExpired(store: Store, nowMs = Date.now()): Promise<void> {
  await pruneCounters(store, nowMs);
  await pruneIdempotencyRecords(store, nowMs);
  await pruneSessions(store, nowMs);
  await store.db.delete(keyChallenges).where(lt(keyChallenges.expiresAtMs, nowMs));
}
