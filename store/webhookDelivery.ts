/**
 * The delivery worker's side of the webhook rows (`webhooks/worker.ts`, docs/webhooks.md
 * "Durability and replicas"): claiming due subscriptions with a lease (`FOR UPDATE SKIP LOCKED`,
 * then a lease token and expiry on the row), writing each step's outcome only while the lease is
 * held, the unconfirmed events an `include_unconfirmed` receiver acknowledged, and the queue
 * figures of the metrics.
 */
import { and, asc, count, eq, inArray, isNotNull, isNull, lt, lte, or } from "drizzle-orm";
import { inTransaction, type Store } from "./index";
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
