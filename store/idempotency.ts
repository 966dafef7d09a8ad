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
const IDEMPOTENCY_LOCK_MS = 60_000;

/** A stored record. */
export type IdempotencyRecord = typeof idempotencyRecords.$inferSelect;

/** Outcome of {@link reserveIdempotencyKey}. */
export type Reservation =
  /** `lockedUntilMs` is the holder's fencing token: completion and release must present it. */
  | { kind: "reserved"; lockedUntilMs: number }
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
    if (inserted.length) return { kind: "reserved", lockedUntilMs: nowMs + IDEMPOTENCY_LOCK_MS };
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
      .where(
        and(
          where,
          eq(idempotencyRecords.state, "in_flight"),
          eq(idempotencyRecords.lockedUntilMs, existing.lockedUntilMs),
        ),
      )
      .returning({ scope: idempotencyRecords.scope });
    return taken.length ? { kind: "reserved", lockedUntilMs: nowMs + IDEMPOTENCY_LOCK_MS } : { kind: "in_flight" };
  }
  return { kind: "in_flight" };
}

/** A reservation as its holder knows it: the record's key and the holder's fencing token. */
export type IdempotencyClaim = { scope: string; key: string; lockedUntilMs: number };

/** The held, still in-flight record of `claim` (a request that took the key over has another token). */
const heldBy = (claim: IdempotencyClaim) =>
  and(
    eq(idempotencyRecords.scope, claim.scope),
    eq(idempotencyRecords.idempotencyKey, claim.key),
    eq(idempotencyRecords.state, "in_flight"),
    eq(idempotencyRecords.lockedUntilMs, claim.lockedUntilMs),
  );

/**
 * Stores the final response of a reserved key. `store` may be a transaction (`inTransaction`):
 * then the response commits or rolls back with the request's own writes.
 * @returns false when the claim no longer holds the record (its lock ran out and another request
 *   took the key over); nothing was written then
 */
export async function completeIdempotencyKey(
  store: Store,
  input: IdempotencyClaim & { status: number; contentType: string | null; body: Uint8Array },
): Promise<boolean> {
  const updated = await store.db
    .update(idempotencyRecords)
    .set({
      state: "done",
      responseStatus: input.status,
      responseContentType: input.contentType,
      responseBody: input.body,
    })
    .where(heldBy(input))
    .returning({ scope: idempotencyRecords.scope });
  return updated.length > 0;
}

/** Drops a reservation that `claim` still holds (the request failed; a retry may run again). */
export async function releaseIdempotencyKey(store: Store, claim: IdempotencyClaim): Promise<void> {
  await store.db.delete(idempotencyRecords).where(heldBy(claim));
}

/** Deletes records that expired before `nowMs` (housekeeping). */
export async function pruneIdempotencyRecords(store: Store, nowMs = Date.now()): Promise<void> {
  await store.db.delete(idempotencyRecords).where(lt(idempotencyRecords.expiresAtMs, nowMs));
}
