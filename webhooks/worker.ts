/**
 * The webhook delivery worker (docs/webhooks.md "Delivery"): at least once, in event-id order per
 * subscription, one item in flight per subscription.
 *
 * Each round: read the feed's boundaries once; claim due subscriptions with a lease
 * (store/webhookDelivery.ts, `FOR UPDATE SKIP LOCKED`: with N processes on one PostgreSQL, each
 * subscription is delivered by one of them at a time); read the window of confirmed events once
 * for all claimed confirmed-mode subscriptions with nothing in flight (`window.ts`) and hand each
 * its share; then deliver each subscription's items in order, every send through one pool of
 * `sendConcurrency` slots. The background loop does not wait for a round's deliveries: the next
 * round starts `roundMs` later and claims whatever is due and not leased (a slow receiver holds
 * only its own subscription). Confirmed mode: the cursor moves past an event once it was
 * acknowledged, or past events that do not match, so nothing is skipped. A subscription with an
 * item in flight (a retry) or `include_unconfirmed` (`unconfirmed.ts`: events as indexed, then
 * retractions) reads its own next item. A failure keeps the item in flight (`outcome.ts`); a
 * crash repeats at most the item in flight.
 *
 * No HTTP framework and no reach into the indexer here: events come from an {@link EventFeed}
 * (`feedSource.ts` in the service), time from injected clocks (tests advance `nowMs` by hours).
 */
import { randomBytes } from "node:crypto";
import pLimit from "p-limit";
import { backgroundLoop } from "../ops/backgroundLoop";
import type { Store } from "../store/index";
import {
  claimDueSubscriptions,
  type DeliveryStatePatch,
  deliveryQueueStats,
  recordAttempt,
  releaseIdle,
} from "../store/webhookDelivery";
import type { WebhookSubscription } from "../store/webhooks";
import type { EventFeed } from "./feed";
import { type AttemptOutcome, attemptOutcome } from "./outcome";
import { ATTEMPT_TIMEOUT_MS, keepAliveAgents, sendWebhook } from "./send";
import { signMessage, webhookPayload } from "./signing";
import { ackBatcher } from "./ackBatch";
import { activeSecrets, type Bounds, type Item, nextOwnItem, type Settle } from "./items";
import { retractionData, retractionMessageId, sentRow } from "./unconfirmed";
import type { UrlPolicy } from "./urlSafety";
import { readWindow, shareOf, type WindowShare } from "./window";

export type { AttemptOutcome } from "./outcome";
export { activeSecrets } from "./items";

/** Where the worker reports (metrics in the service; absent: nothing). */
export type DeliveryObserver = {
  /** One attempt; `lagSec` (block time to 2xx) when an event was delivered. */
  attempt?: (outcome: AttemptOutcome, lagSec?: number) => void;
  /** After each tick: subscriptions behind the confirmed head, subscriptions `failing`. */
  queue?: (stats: { behind: number; failing: number }) => void;
  /** A tick that failed (store or feed unreachable); the next tick tries again. */
  error?: (err: Error) => void;
};

/** Settings and seams of the worker. */
export type DeliveryWorkerDeps = {
  store: Store;
  feed: EventFeed;
  policy: UrlPolicy;
  /** Scheduling clock, unix ms (retries, leases, windows). Tests advance it. */
  nowMs?: () => number;
  /** Clock of `webhook-timestamp` and of the lag metric, unix ms (default: the wall clock). */
  wallClockMs?: () => number;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  /** Per-attempt deadline, ms (default 10 s). */
  attemptTimeoutMs?: number;
  /** Subscriptions claimed per round (default 128). */
  concurrency?: number;
  /** Requests in flight at once, over all subscriptions (default 64). */
  sendConcurrency?: number;
  /** Items delivered per claimed subscription before its lease is handed back (default 100). */
  maxEventsPerClaim?: number;
  /** Events read per round's shared window (default 5,000). */
  windowLimit?: number;
  /** Pause between rounds while deliveries run or were started, ms (default 100). */
  roundMs?: number;
  /** Pause between rounds that found nothing to do, ms (default 250). */
  idleMs?: number;
  observer?: DeliveryObserver;
};

/** A running (or manually ticked) worker. */
export type DeliveryWorker = {
  /** One round, waiting for its deliveries: claim and deliver. @returns attempts made */
  tick: () => Promise<number>;
  /** Ticks in the background until {@link DeliveryWorker.stop}. */
  start: () => void;
  /** Stops ticking and waits for the deliveries in progress (their leases are written back). */
  stop: () => Promise<void>;
};

/**
 * Builds a delivery worker.
 * @example const worker = deliveryWorker({ store, feed, policy }); worker.start(); … await worker.stop();
 */
export function deliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const nowMs = deps.nowMs ?? (() => Date.now());
  const wallClockMs = deps.wallClockMs ?? (() => Date.now());
  const random = deps.random ?? Math.random;
  const attemptTimeoutMs = deps.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  // A lease outlives one attempt with room to write its outcome; it is renewed after each item.
  const leaseMs = attemptTimeoutMs + 20_000;
  const concurrency = deps.concurrency ?? 128;
  const sendSlot = pLimit(deps.sendConcurrency ?? 64);
  const agents = keepAliveAgents(deps.sendConcurrency ?? 64);
  const maxEventsPerClaim = deps.maxEventsPerClaim ?? 100;
  const acks = ackBatcher(deps.store);
  const observer = deps.observer ?? {};

  /** Writes a step that sends nothing; false when the lease was lost. */
  const write = (sub: WebhookSubscription, patch: DeliveryStatePatch, settled?: bigint[]) =>
    recordAttempt(deps.store, {
      id: sub.id,
      leaseToken: sub.leaseToken!,
      nowMs: nowMs(),
      patch,
      settledEventIds: settled,
    });
  const nextItem = (sub: WebhookSubscription, bounds: Bounds) =>
    nextOwnItem({ feed: deps.feed, store: deps.store, write }, sub, bounds);

  /**
   * Delivers one claimed subscription's items in order: its `share` of the round's window, or
   * (no share) the items it reads itself. @returns attempts made
   */
  async function deliver(claimed: WebhookSubscription, bounds: Bounds, share?: WindowShare): Promise<number> {
    const sub = { ...claimed };
    let attempts = 0;
    const queue = share ? [...share.events] : null;
    for (let n = 0; n < maxEventsPerClaim; n++) {
      let item: (Item & Settle) | null | false;
      if (queue) {
        const event = queue.shift();
        if (!event) break;
        // The last item of a share not cut short moves the cursor to the window's top and ends the lease.
        const last = queue.length === 0 && share!.cursorAfter !== null;
        item = last ? { event, cursor: share!.cursorAfter!, release: true } : { event };
      } else item = await nextItem(sub, bounds);
      if (!item) return attempts;
      const eventId = item.event ? item.event.id : item.retract.eventId;
      const messageId = item.event ? eventId.toString() : retractionMessageId(item.retract);
      const type = item.event ? item.event.kind : "event.retracted";
      const body = item.event
        ? webhookPayload(
            item.event.kind,
            item.event.timestampSec,
            // As the feed's `include_pending` serves it: not yet confirmed above the boundary.
            item.event.id > bounds.confirmed ? { ...item.event.record, confirmed: false } : item.event.record,
          )
        : webhookPayload(type, item.retract.timestampSec, retractionData(item.retract));
      const message = signMessage(messageId, wallClockMs(), body, activeSecrets(sub, nowMs()));
      const result = await sendSlot(() =>
        sendWebhook({ url: sub.url, message, policy: deps.policy, timeoutMs: attemptTimeoutMs, agents }),
      );
      attempts++;
      const at = nowMs();
      const decided = attemptOutcome({
        sub,
        item: { eventId, retraction: !item.event },
        result,
        atMs: at,
        leaseMs,
        random: random(),
      });
      const delivered = decided.outcome === "delivered";
      const patch: DeliveryStatePatch = { ...decided.patch };
      if (delivered && item.cursor !== undefined) patch.cursorEventId = item.cursor;
      else if (delivered && !sub.includeUnconfirmed) patch.cursorEventId = eventId;
      if (delivered && item.release) Object.assign(patch, { leaseToken: null, leaseUntilMs: null });
      const settled = delivered ? [...(item.settled ?? []), ...(item.retract ? [eventId] : [])] : undefined;
      const attempt = {
        messageId,
        eventId,
        eventType: type,
        attempt: decided.attempt,
        statusCode: result.statusCode ?? null,
        error: result.error ?? null,
        durationMs: result.durationMs,
        responsePrefix: result.responsePrefix,
        attemptedAtMs: at,
        outcome: decided.outcome,
        nextAttemptAtMs: decided.nextAttemptAtMs,
      };
      // A confirmed event acknowledged: written with the other subscriptions' in one batch (`ackBatch.ts`).
      const ok =
        delivered && item.event && !sub.includeUnconfirmed
          ? await acks.record({
              id: sub.id,
              leaseToken: sub.leaseToken!,
              cursorEventId: patch.cursorEventId!,
              atMs: at,
              leaseUntilMs: item.release ? null : at + leaseMs,
              attempt,
            })
          : await recordAttempt(deps.store, {
              id: sub.id,
              leaseToken: sub.leaseToken!,
              nowMs: at,
              patch,
              settledEventIds: settled,
              sent: delivered && item.event && sub.includeUnconfirmed ? sentRow(item.event) : undefined,
              attempt,
            });
      const lagSec =
        delivered && item.event ? Math.max(0, (wallClockMs() - item.event.timestampSec * 1000) / 1000) : undefined;
      observer.attempt?.(decided.outcome, lagSec);
      if (!ok || !delivered || item.release) return attempts;
      Object.assign(sub, patch);
    }
    // The claim's share is used up: hand the lease back so the next tick (or process) continues.
    await write(sub, { leaseToken: null, leaseUntilMs: null });
    return attempts;
  }

  /** Deliveries this worker runs now (the loop's rounds do not wait for them). */
  const inFlight = new Set<Promise<number>>();
  let statsAtMs = 0;

  /** One round: claims what is due and starts its deliveries. @returns the deliveries started */
  async function round(): Promise<Promise<number>[]> {
    const confirmed = await deps.feed.confirmedCursor();
    if (confirmed === null) return [];
    const indexed = deps.feed.indexedCursor ? await deps.feed.indexedCursor() : null;
    const leaseToken = `lease_${randomBytes(12).toString("hex")}`;
    const claimed = await claimDueSubscriptions(deps.store, {
      nowMs: nowMs(),
      leaseMs,
      leaseToken,
      limit: concurrency,
      confirmedCursor: confirmed,
      indexedCursor: indexed ?? confirmed,
    });
    // Confirmed mode, nothing in flight: one shared read of the window (when the feed reads ranges).
    const shared = deps.feed.eventsAfter
      ? claimed.filter((s) => !s.includeUnconfirmed && s.pendingEventId === null)
      : [];
    const window = await readWindow(deps.feed, shared, confirmed, deps.windowLimit ?? 5_000).catch((err) => {
      // The claimed rows' leases end when the round fails (they expire otherwise).
      void releaseIdle(deps.store, { ids: claimed.map((s) => s.id), leaseToken, cursorEventId: 0n, nowMs: nowMs() });
      throw err;
    });
    const idle: string[] = [];
    const started: Promise<number>[] = [];
    for (const sub of claimed) {
      const share = shared.includes(sub) ? (window ? shareOf(window, sub, maxEventsPerClaim) : null) : undefined;
      if (share === null || share?.events.length === 0) idle.push(sub.id);
      else started.push(deliver(sub, { confirmed, indexed }, share));
    }
    // Nothing to send to these: cursors up to the window's top, leases ended, in one statement.
    await releaseIdle(deps.store, { ids: idle, leaseToken, cursorEventId: window?.topId ?? 0n, nowMs: nowMs() });
    for (const p of started) {
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    }
    if (observer.queue && nowMs() - statsAtMs >= 1_000) {
      statsAtMs = nowMs();
      observer.queue(await deliveryQueueStats(deps.store, confirmed));
    }
    return started;
  }

  async function tick(): Promise<number> {
    const counts = await Promise.all(await round());
    return counts.reduce((a, b) => a + b, 0);
  }

  const loop = backgroundLoop({
    step: round,
    delayAfterMs: (started) => {
      for (const p of started) p.catch((err: Error) => observer.error?.(err));
      const busy = started.length > 0 || inFlight.size > 0;
      return busy ? (deps.roundMs ?? 100) : (deps.idleMs ?? 250);
    },
    onError: (err) => observer.error?.(err),
    delayAfterErrorMs: () => 1_000,
  });
  return {
    tick,
    start: loop.start,
    stop: async () => {
      await loop.stop();
      await Promise.allSettled([...inFlight]);
      for (const agent of Object.values(agents)) agent.destroy();
    },
  };
}
