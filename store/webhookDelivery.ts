/**
 * The delivery worker's side of the webhook rows (`webhooks/worker.ts`, docs/webhooks.md
 * "Durability and replicas"): claiming due subscriptions with a lease (`FOR UPDATE SKIP LOCKED`,
 * then a lease token and expiry on the row), writing each step's outcome only while the lease is
 * held, the unconfirmed events an `include_unconfirmed` receiver acknowledged, and the queue
 * figures of the metrics.
 */
import { and, asc, count, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import { executeRows, inTransaction, type Store } from "./index";
import { webhookDeliveries, webhookSubscriptions, webhookUnconfirmedSent } from "./schema";
import type { UnconfirmedSent, WebhookDelivery, WebhookSubscription } from "./webhooks";

/**
 * Claims up to `limit` subscriptions that have work: `active` or `failing`, due
 * (`next_attempt_at_ms <= now`), not leased by anyone (or the lease expired), and either an event
 * in flight, a cursor below `confirmedCursor`, or (`include_unconfirmed`) below `indexedCursor`. Rows are picked with `FOR UPDATE SKIP LOCKED`
 * (concurrent claimers take disjoint sets) and stamped with `leaseToken` until `now + leaseMs`.
 * @returns the claimed rows (lease fields as stamped)
 */
export async function claimDueSubscriptions(
  store: Store,
  input: {
    nowMs: number;
    leaseMs: number;
    leaseToken: string;
    limit: number;
    confirmedCursor: bigint;
    /** The last indexed event id (confirmed or not). */
    indexedCursor: bigint;
  },
): Promise<WebhookSubscription[]> {
  const s = webhookSubscriptions;
  return inTransaction(store, async (tx) => {
    const rows = await tx.db
      .select()
      .from(s)
      .where(
        and(
          inArray(s.status, ["active", "failing"]),
          lte(s.nextAttemptAtMs, input.nowMs),
          or(isNull(s.leaseUntilMs), lt(s.leaseUntilMs, input.nowMs)),
          or(
            isNotNull(s.pendingEventId),
            lt(s.cursorEventId, input.confirmedCursor),
            and(eq(s.includeUnconfirmed, true), lt(s.cursorEventId, input.indexedCursor)),
          ),
        ),
      )
      .orderBy(asc(s.nextAttemptAtMs))
      .limit(input.limit)
      .for("update", { skipLocked: true });
    if (rows.length === 0) return [];
    const leaseUntilMs = input.nowMs + input.leaseMs;
    await tx.db
      .update(s)
      .set({ leaseToken: input.leaseToken, leaseUntilMs })
      .where(
        inArray(
          s.id,
          rows.map((r) => r.id),
        ),
      );
    return rows.map((r) => ({ ...r, leaseToken: input.leaseToken, leaseUntilMs }));
  });
}

/** The delivery state a worker writes after a step (only the fields it changes). */
export type DeliveryStatePatch = Partial<
  Pick<
    WebhookSubscription,
    | "status"
    | "statusReason"
    | "cursorEventId"
    | "pendingEventId"
    | "pendingRetraction"
    | "attempts"
    | "firstAttemptAtMs"
    | "nextAttemptAtMs"
    | "leaseToken"
    | "leaseUntilMs"
  >
>;

/**
 * Writes a worker's step for a subscription it holds: the state patch, (optionally) the attempt
 * row and the changes to its unconfirmed events sent, in one transaction, only if the row still
 * carries `leaseToken` (a deleted subscription or a lease taken over after expiry writes nothing).
 * @returns false when the lease was lost (the caller stops delivering this subscription)
 */
export async function recordAttempt(
  store: Store,
  input: {
    id: string;
    leaseToken: string;
    nowMs: number;
    patch: DeliveryStatePatch;
    attempt?: Omit<WebhookDelivery, "id" | "subscriptionId">;
    /** An unconfirmed event the receiver just acknowledged (`include_unconfirmed`). */
    sent?: Omit<UnconfirmedSent, "subscriptionId">;
    /** Unconfirmed events sent that are settled (final as sent, or their retraction acknowledged). */
    settledEventIds?: bigint[];
  },
): Promise<boolean> {
  return inTransaction(store, async (tx) => {
    const updated = await tx.db
      .update(webhookSubscriptions)
      .set({ ...input.patch, updatedAtMs: input.nowMs })
      .where(and(eq(webhookSubscriptions.id, input.id), eq(webhookSubscriptions.leaseToken, input.leaseToken)))
      .returning({ id: webhookSubscriptions.id });
    if (updated.length === 0) return false;
    if (input.attempt) await tx.db.insert(webhookDeliveries).values({ ...input.attempt, subscriptionId: input.id });
    if (input.sent)
      await tx.db
        .insert(webhookUnconfirmedSent)
        .values({ ...input.sent, subscriptionId: input.id })
        .onConflictDoUpdate({
          target: [webhookUnconfirmedSent.subscriptionId, webhookUnconfirmedSent.eventId],
          set: { ...input.sent },
        });
    if (input.settledEventIds?.length)
      await tx.db
        .delete(webhookUnconfirmedSent)
        .where(
          and(
            eq(webhookUnconfirmedSent.subscriptionId, input.id),
            inArray(webhookUnconfirmedSent.eventId, input.settledEventIds),
          ),
        );
    return true;
  });
}

/** A confirmed event a subscription's receiver acknowledged, as {@link recordAcknowledgements} writes it. */
export type Acknowledgement = {
  id: string;
  leaseToken: string;
  /** The cursor after it (the event's id, or the window's top for a share's last event). */
  cursorEventId: bigint;
  /** Scheduling clock at the answer, unix ms (next attempt time and `updated_at_ms`). */
  atMs: number;
  /** The lease's new expiry, or null when the lease ends with this acknowledgement. */
  leaseUntilMs: number | null;
  attempt: Omit<WebhookDelivery, "id" | "subscriptionId">;
};

/**
 * Writes many subscriptions' acknowledgements in one statement, however many rows: each subscription still holding its lease gets the delivered state (`active`, nothing in
 * flight, the cursor moved up) and its attempt row. At most one acknowledgement per subscription.
 * @returns the ids whose lease held (the others were deleted or taken over: nothing written for them)
 */
export async function recordAcknowledgements(store: Store, acks: Acknowledgement[]): Promise<Set<string>> {
  if (acks.length === 0) return new Set();
  const values = sql.join(
    acks.map(
      ({ id, leaseToken, cursorEventId, atMs, leaseUntilMs, attempt: a }) =>
        sql`(${id}::text, ${leaseToken}::text, ${cursorEventId.toString()}::bigint, ${atMs}::bigint, ${leaseUntilMs}::bigint,
          ${a.messageId}::text, ${a.eventId === null ? null : a.eventId.toString()}::bigint, ${a.eventType}::text,
          ${a.attempt}::integer, ${a.outcome}::text, ${a.statusCode}::integer, ${a.error}::text, ${a.durationMs}::integer,
          ${a.responsePrefix}::text, ${a.nextAttemptAtMs}::bigint, ${a.attemptedAtMs}::bigint)`,
    ),
    sql`, `,
  );
  // One statement (its own transaction): the state of every subscription still leased, then the
  // attempt rows of exactly those.
  const rows = await executeRows<{ id: string }>(
    store,
    sql`WITH v(id, lease, cursor, at, lease_until, message_id, event_id, event_type, attempt, outcome,
        status_code, error, duration_ms, response_prefix, next_attempt_at_ms, attempted_at_ms) AS (VALUES ${values}),
      u AS (UPDATE ${webhookSubscriptions} AS s SET status = 'active', status_reason = NULL,
        pending_event_id = NULL, pending_retraction = false, attempts = 0, first_attempt_at_ms = NULL,
        cursor_event_id = GREATEST(s.cursor_event_id, v.cursor), next_attempt_at_ms = v.at,
        lease_token = CASE WHEN v.lease_until IS NULL THEN NULL ELSE s.lease_token END,
        lease_until_ms = v.lease_until, updated_at_ms = v.at
        FROM v WHERE s.id = v.id AND s.lease_token = v.lease RETURNING s.id)
      INSERT INTO ${webhookDeliveries} (subscription_id, message_id, event_id, event_type, attempt, outcome,
        status_code, error, duration_ms, response_prefix, next_attempt_at_ms, attempted_at_ms)
      SELECT v.id, v.message_id, v.event_id, v.event_type, v.attempt, v.outcome, v.status_code, v.error,
        v.duration_ms, v.response_prefix, v.next_attempt_at_ms, v.attempted_at_ms FROM v JOIN u ON u.id = v.id
      RETURNING subscription_id AS id`,
  );
  return new Set(rows.map((r) => String(r.id)));
}

/**
 * Ends the leases of subscriptions a round found nothing (more) to send to, in one statement:
 * their cursors move up to `cursorEventId` (never down) and the lease is released, only where the
 * row still carries `leaseToken`.
 * @param input.ids - the subscriptions (claimed together under `leaseToken`)
 * @param input.cursorEventId - every matching event up to this id was acknowledged (or there is none)
 */
export async function releaseIdle(
  store: Store,
  input: { ids: string[]; leaseToken: string; cursorEventId: bigint; nowMs: number },
): Promise<void> {
  if (input.ids.length === 0) return;
  const s = webhookSubscriptions;
  await store.db
    .update(s)
    .set({
      cursorEventId: sql`GREATEST(${s.cursorEventId}, ${input.cursorEventId.toString()}::bigint)`,
      leaseToken: null,
      leaseUntilMs: null,
      updatedAtMs: input.nowMs,
    })
    .where(and(inArray(s.id, input.ids), eq(s.leaseToken, input.leaseToken)));
}

/**
 * The unconfirmed events a subscription's receiver acknowledged and that are not settled yet,
 * ascending by id.
 */
export async function listUnconfirmedSent(store: Store, subscriptionId: string): Promise<UnconfirmedSent[]> {
  return store.db
    .select()
    .from(webhookUnconfirmedSent)
    .where(eq(webhookUnconfirmedSent.subscriptionId, subscriptionId))
    .orderBy(asc(webhookUnconfirmedSent.eventId));
}

/**
 * Queue figures for the metrics: subscriptions (`active`) with confirmed events not yet
 * acknowledged, and subscriptions marked `failing`.
 */
export async function deliveryQueueStats(
  store: Store,
  confirmedCursor: bigint,
): Promise<{ behind: number; failing: number }> {
  const s = webhookSubscriptions;
  const [behind] = await store.db
    .select({ n: count() })
    .from(s)
    .where(and(eq(s.status, "active"), or(isNotNull(s.pendingEventId), lt(s.cursorEventId, confirmedCursor))));
  const [failing] = await store.db.select({ n: count() }).from(s).where(eq(s.status, "failing"));
  return { behind: Number(behind?.n ?? 0), failing: Number(failing?.n ?? 0) };
}
