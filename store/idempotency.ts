/**
 * Idempotency records (IETF draft "The Idempotency-Key HTTP Header Field"): one row per
 * (scope, key), reserved atomically before the work starts, completed with the response.
 */
import { and, eq, lt } from "drizzle-orm";
import type { Store } from "./index";
import { idempotencyRecords } from "./schema";

/** How long a completed record is kept: 24 hours from the first request. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long an in-flight reservation blocks retries before a crashed request's key may be taken over. */
export const IDEMPOTENCY_LOCK_MS = 60_000;

/** A stored record. */
export type IdempotencyRecord = typeof idempotencyRecords.$inferSelect;

/** Outcome of {@link reserveIdempotencyKey}. */
export type Reservation =
  | { kind: "reserved" }
  | { kind: "mismatch" }
  | { kind: "in_flight" }
  | { kind: "completed"; record: IdempotencyRecord };

/**
 * Reserves `(scope, key)` for a request with `fingerprint`: insert-if-absent, so of any number of
 * concurrent requests exactly one gets `reserved`. An expired record is replaced; an in-flight
 * record whose lock ran out (the process died) is taken over by a conditional update.
 */
export async function reserveIdempotencyKey(
  store: Store,
  input: { scope: string; key: string; fingerprint: string; nowMs?: number },
): Promise<Reservation> {
  const nowMs = input.nowMs ?? Date.now();
  const where = and(eq(idempotencyRecords.scope, input.scope), eq(idempotencyRecords.idempotencyKey, input.key));
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await store.db
      .insert(idempotencyRecords)
      .values({
        scope: input.scope,
        idempotencyKey: input.key,
        fingerprint: input.fingerprint,
        state: "in_flight",
        lockedUntilMs: nowMs + IDEMPOTENCY_LOCK_MS,
        createdAtMs: nowMs,
        expiresAtMs: nowMs + IDEMPOTENCY_TTL_MS,
      })
      .onConflictDoNothing()
      .returning({ scope: idempotencyRecords.scope });
    if (inserted.length) return { kind: "reserved" };
    const existing = (await store.db.select().from(idempotencyRecords).where(where))[0];
    if (!existing) continue; // deleted in between (released): try again
    if (existing.expiresAtMs <= nowMs) {
      await store.db.delete(idempotencyRecords).where(and(where, lt(idempotencyRecords.expiresAtMs, nowMs + 1)));
      continue;
    }
    if (existing.fingerprint !== input.fingerprint) return { kind: "mismatch" };
    if (existing.state === "done") return { kind: "completed", record: existing };
    if (existing.lockedUntilMs > nowMs) return { kind: "in_flight" };
    const taken = await store.db
      .update(idempotencyRecords)
      .set({ lockedUntilMs: nowMs + IDEMPOTENCY_LOCK_MS })
      .where(and(where, eq(idempotencyRecords.state, "in_flight"), eq(idempotencyRecords.lockedUntilMs, existing.lockedUntilMs)))
      .returning({ scope: idempotencyRecords.scope });
    return taken.length ? { kind: "reserved" } : { kind: "in_flight" };
  }
  return { kind: "in_flight" };
}

/** Stores the final response of a reserved key. */
export async function completeIdempotencyKey(
  store: Store,
  input: { scope: string; key: string; status: number; contentType: string | null; body: Uint8Array },
): Promise<void> {
  await store.db
    .update(idempotencyRecords)
    .set({ state: "done", responseStatus: input.status, responseContentType: input.contentType, responseBody: input.body })
    .where(and(eq(idempotencyRecords.scope, input.scope), eq(idempotencyRecords.idempotencyKey, input.key)));
}

/** Drops a reservation (the request failed; a retry may run again). */
export async function releaseIdempotencyKey(store: Store, input: { scope: string; key: string }): Promise<void> {
  await store.db
    .delete(idempotencyRecords)
    .where(
      and(
        eq(idempotencyRecords.scope, input.scope),
        eq(idempotencyRecords.idempotencyKey, input.key),
        eq(idempotencyRecords.state, "in_flight"),
      ),
    );
}

/** Deletes records that expired before `nowMs` (housekeeping). */
export async function pruneIdempotencyRecords(store: Store, nowMs = Date.now()): Promise<void> {
  await store.db.delete(idempotencyRecords).where(lt(idempotencyRecords.expiresAtMs, nowMs));
}
