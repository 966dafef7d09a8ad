/**
 * Webhook subscriptions and their delivery attempts in the store (docs/webhooks.md). The owner
 * reads (`*ForWallet`) match the id *and* the wallet, so another wallet's key sees nothing (the
 * route answers 404). The delivery worker's side of the rows is `store/webhookDelivery.ts`:
 * claims with a lease (`FOR UPDATE SKIP LOCKED`, then a lease token and expiry on the row),
 * outcomes written only while the lease is held (so with several processes on one PostgreSQL
 * exactly one delivers a subscription at a time), and the unconfirmed events sent.
 */
import { randomBytes } from "node:crypto";
import { and, asc, count, desc, eq, lt } from "drizzle-orm";
import { getAddress } from "viem";
import { inTransaction, type Store } from "./index";
import { LOCK_NAMESPACE, lockOwner } from "./locks";
import { webhookDeliveries, webhookSubscriptions, webhookUnconfirmedSent } from "./schema";

/** A subscription row as the store holds it. */
export type WebhookSubscription = typeof webhookSubscriptions.$inferSelect;
/** An unconfirmed event an `include_unconfirmed` subscription's receiver acknowledged. */
export type UnconfirmedSent = typeof webhookUnconfirmedSent.$inferSelect;
/** A delivery attempt row. */
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;

/** How long delivery attempts stay in the log (`GET …/deliveries`), milliseconds: 3 days. */
export const DELIVERY_LOG_RETENTION_MS = 3 * 86_400_000;

/** Default bound on a wallet's subscriptions (`WEBHOOKS_PER_WALLET`). */
export const MAX_WEBHOOKS_PER_WALLET = 10;

/**
 * Thrown by {@link createSubscription} when the wallet already holds `limit` subscriptions;
 * nothing was stored. The HTTP layer maps it to 409 `webhook_limit_reached`.
 */
export class WebhookLimitError extends Error {
  override readonly name = "WebhookLimitError";
  constructor(readonly limit: number) {
    super(`this wallet already has ${limit} webhook subscriptions (the maximum); delete one first`);
  }
}

/**
 * Stores a new subscription, unless the wallet already holds `maxPerWallet` (count and insert in
 * one transaction under a per-wallet advisory lock: concurrent creations never exceed the bound).
 * @param input.wallet - owner wallet (any case; stored checksummed)
 * @param input.cursorEventId - events with an id above this are delivered
 * @param input.secret - the `whsec_…` signing secret (`webhooks/signing.ts`)
 * @returns the stored row
 * @throws WebhookLimitError when the wallet is at the bound (nothing stored)
 * @example await createSubscription(store, { wallet, apiKeyId, url, events: ["trade"], tokenAddress: null, description: null, secret, cursorEventId: 0n, nowMs, maxPerWallet: 10 })
 */
export async function createSubscription(
  store: Store,
  input: {
    wallet: string;
    apiKeyId: string;
    url: string;
    events: string[];
    tokenAddress: string | null;
    description: string | null;
    secret: string;
    cursorEventId: bigint;
    /** Send events as they are indexed, and `event.retracted` when a reorg removes one. */
    includeUnconfirmed?: boolean;
    nowMs: number;
    maxPerWallet: number;
  },
): Promise<WebhookSubscription> {
  const row: WebhookSubscription = {
    id: `wh_${randomBytes(12).toString("hex")}`,
    wallet: getAddress(input.wallet),
    apiKeyId: input.apiKeyId,
    url: input.url,
    events: input.events,
    tokenAddress: input.tokenAddress ? getAddress(input.tokenAddress) : null,
    description: input.description,
    secret: input.secret,
    previousSecret: null,
    previousSecretExpiresAtMs: null,
    status: "active",
    statusReason: null,
    cursorEventId: input.cursorEventId,
    pendingEventId: null,
    includeUnconfirmed: input.includeUnconfirmed ?? false,
    pendingRetraction: false,
    attempts: 0,
    firstAttemptAtMs: null,
    nextAttemptAtMs: input.nowMs,
    leaseToken: null,
    leaseUntilMs: null,
    createdAtMs: input.nowMs,
    updatedAtMs: input.nowMs,
  };
  await inTransaction(store, async (tx) => {
    await lockOwner(tx, LOCK_NAMESPACE.walletWebhooks, row.wallet);
    const [held] = await tx.db
      .select({ n: count() })
      .from(webhookSubscriptions)
      .where(eq(webhookSubscriptions.wallet, row.wallet));
    if (Number(held?.n ?? 0) >= input.maxPerWallet) throw new WebhookLimitError(input.maxPerWallet);
    await tx.db.insert(webhookSubscriptions).values(row);
  });
  return row;
}

/** A wallet's subscriptions, oldest first. */
export async function listSubscriptionsForWallet(store: Store, wallet: string): Promise<WebhookSubscription[]> {
  return store.db
    .select()
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.wallet, getAddress(wallet)))
    .orderBy(asc(webhookSubscriptions.createdAtMs), asc(webhookSubscriptions.id));
}

/**
 * One subscription of a wallet.
 * @returns the row, or null when no subscription has this id *for this wallet*
 */
export async function getSubscriptionForWallet(
  store: Store,
  id: string,
  wallet: string,
): Promise<WebhookSubscription | null> {
  const rows = await store.db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.wallet, getAddress(wallet))))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Deletes a wallet's subscription and its attempt log; a delivery in flight finds its lease gone
 * and writes nothing.
 * @returns false when no subscription has this id for this wallet
 */
export async function deleteSubscriptionForWallet(store: Store, id: string, wallet: string): Promise<boolean> {
  return inTransaction(store, async (tx) => {
    const gone = await tx.db
      .delete(webhookSubscriptions)
      .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.wallet, getAddress(wallet))))
      .returning({ id: webhookSubscriptions.id });
    if (gone.length === 0) return false;
    await tx.db.delete(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, id));
    await tx.db.delete(webhookUnconfirmedSent).where(eq(webhookUnconfirmedSent.subscriptionId, id));
    return true;
  });
}

/**
 * Replaces the signing secret; the old one keeps signing (a second signature) until
 * `nowMs + overlapMs`.
 * @returns the updated row, or null when no subscription has this id for this wallet
 */
export async function rotateSecretForWallet(
  store: Store,
  input: { id: string; wallet: string; secret: string; nowMs: number; overlapMs: number },
): Promise<WebhookSubscription | null> {
  return inTransaction(store, async (tx) => {
    const current = await getSubscriptionForWallet(tx, input.id, input.wallet);
    if (!current) return null;
    const [row] = await tx.db
      .update(webhookSubscriptions)
      .set({
        secret: input.secret,
        previousSecret: current.secret,
        previousSecretExpiresAtMs: input.nowMs + input.overlapMs,
        updatedAtMs: input.nowMs,
      })
      .where(eq(webhookSubscriptions.id, input.id))
      .returning();
    return row ?? null;
  });
}

/**
 * Makes a `failing` or `disabled` subscription `active` again with a fresh retry window; delivery
 * continues with the first unacknowledged event (nothing was skipped).
 * @returns the updated row, or null when no subscription has this id for this wallet
 */
export async function resumeSubscriptionForWallet(
  store: Store,
  id: string,
  wallet: string,
  nowMs: number,
): Promise<WebhookSubscription | null> {
  const [row] = await store.db
    .update(webhookSubscriptions)
    .set({
      status: "active",
      statusReason: null,
      attempts: 0,
      firstAttemptAtMs: null,
      nextAttemptAtMs: nowMs,
      updatedAtMs: nowMs,
    })
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.wallet, getAddress(wallet))))
    .returning();
  return row ?? null;
}

/**
 * A page of a subscription's attempts, newest first.
 * @param beforeId - only attempts with a smaller id (the previous page's cursor); null: from the newest
 * @param limit - page size
 */
export async function listDeliveries(
  store: Store,
  subscriptionId: string,
  beforeId: number | null,
  limit: number,
): Promise<WebhookDelivery[]> {
  return store.db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.subscriptionId, subscriptionId),
        beforeId === null ? undefined : lt(webhookDeliveries.id, beforeId),
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit);
}

/** Logs an attempt outside the delivery order (a `ping` from `POST …/test`). */
export async function insertDelivery(store: Store, attempt: Omit<WebhookDelivery, "id">): Promise<void> {
  await store.db.insert(webhookDeliveries).values(attempt);
}

/** Deletes attempt rows older than `beforeMs` (housekeeping). @returns rows deleted */
export async function pruneDeliveries(store: Store, beforeMs: number): Promise<number> {
  const gone = await store.db
    .delete(webhookDeliveries)
    .where(lt(webhookDeliveries.attemptedAtMs, beforeMs))
    .returning({ id: webhookDeliveries.id });
  return gone.length;
}
