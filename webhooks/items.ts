/**
 * What the delivery worker sends (`worker.ts`): the item types, the signing secrets of a
 * subscription, and the next item of a subscription that reads its own (an item in flight, or
 * `include_unconfirmed`; confirmed-mode subscriptions with nothing in flight take theirs from the
 * round's shared window, `window.ts`).
 */
import type { Store } from "../store/index";
import { type DeliveryStatePatch, listUnconfirmedSent } from "../store/webhookDelivery";
import type { UnconfirmedSent, WebhookSubscription } from "../store/webhooks";
import type { EventFeed, FeedEvent } from "./feed";
import { nextUnconfirmedStep } from "./unconfirmed";

/**
 * The signing secrets of a subscription now: the current one, and the previous one during the
 * rotation overlap.
 */
export function activeSecrets(
  sub: Pick<WebhookSubscription, "secret" | "previousSecret" | "previousSecretExpiresAtMs">,
  nowMs: number,
): string[] {
  const secrets = [sub.secret];
  if (sub.previousSecret && (sub.previousSecretExpiresAtMs ?? 0) > nowMs) secrets.push(sub.previousSecret);
  return secrets;
}

/** One item to send: an event, or the retraction of an unconfirmed event sent before. */
export type Item = { event: FeedEvent; retract?: undefined } | { retract: UnconfirmedSent; event?: undefined };
/** The cursor move and remembered rows a step settles once its item is acknowledged (`release`: and the lease ends). */
export type Settle = { cursor?: bigint; settled?: bigint[]; release?: boolean };
/** The feed's boundaries for one tick. */
export type Bounds = { confirmed: bigint; indexed: bigint | null };

/** What {@link nextOwnItem} reads and writes with. */
export type ItemDeps = {
  feed: EventFeed;
  store: Store;
  /** Writes a step that sends nothing under the subscription's lease; false when the lease was lost. */
  write: (sub: WebhookSubscription, patch: DeliveryStatePatch, settled?: bigint[]) => Promise<boolean>;
};

/**
 * The next item of a subscription that reads its own (an item in flight, or `include_unconfirmed`),
 * or null when it is idle (its lease then written back); false when the lease was lost.
 */
export async function nextOwnItem(
  deps: ItemDeps,
  sub: WebhookSubscription,
  bounds: Bounds,
): Promise<(Item & Settle) | null | false> {
  const { write } = deps;
  if (sub.pendingEventId !== null) {
    const pending = sub.pendingEventId;
    if (sub.pendingRetraction) {
      const row = (await listUnconfirmedSent(deps.store, sub.id)).find((s) => s.eventId === pending);
      if (row) return { retract: row };
    } else {
      const event = await deps.feed.eventById(pending);
      if (event) return { event };
    }
    // Gone: a confirmed event cannot vanish (if the index was rebuilt without it, move on from
    // it); an unconfirmed one was never acknowledged, so the walk finds whatever is there now.
    const patch: DeliveryStatePatch = {
      pendingEventId: null,
      pendingRetraction: false,
      attempts: 0,
      firstAttemptAtMs: null,
    };
    if (!sub.includeUnconfirmed) patch.cursorEventId = pending;
    if (!(await write(sub, patch))) return false;
    Object.assign(sub, patch);
    return nextOwnItem(deps, sub, bounds);
  }
  if (sub.includeUnconfirmed && bounds.indexed !== null) {
    const sent = await listUnconfirmedSent(deps.store, sub.id);
    const step = await nextUnconfirmedStep(deps.feed, sub, sent, {
      confirmed: bounds.confirmed,
      indexed: bounds.indexed,
    });
    const settle = { cursor: step.cursor, settled: step.settled };
    if (step.next && "retract" in step.next) return { retract: step.next.retract, ...settle };
    if (step.next) return { event: step.next.send, ...settle };
    await write(sub, { cursorEventId: step.cursor, leaseToken: null, leaseUntilMs: null }, step.settled);
    return null;
  }
  const event =
    sub.cursorEventId < bounds.confirmed
      ? await deps.feed.nextEvent({
          afterId: sub.cursorEventId,
          uptoId: bounds.confirmed,
          kinds: sub.events,
          token: sub.tokenAddress,
        })
      : null;
  if (event) return { event };
  // Nothing (more) matches up to the confirmed boundary: the cursor moves there, the lease ends.
  const cursor = bounds.confirmed > sub.cursorEventId ? bounds.confirmed : sub.cursorEventId;
  await write(sub, { cursorEventId: cursor, leaseToken: null, leaseUntilMs: null });
  return null;
}
