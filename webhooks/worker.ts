/**
 * The webhook delivery worker (docs/webhooks.md "Delivery"): at least once, in event-id order per
 * subscription, one item in flight per subscription.
 *
 * Each {@link DeliveryWorker.tick}: read the feed's boundaries once; claim due subscriptions with
 * a lease (store/webhookDelivery.ts, `FOR UPDATE SKIP LOCKED`: with N processes on one
 * PostgreSQL, each subscription is delivered by one of them at a time); for each, in parallel,
 * deliver its next item, and on a 2xx go on with the one after. Confirmed mode: the next matching
 * confirmed event (`id > cursor`); the cursor moves past an event once it was acknowledged, or
 * past events that do not match, so nothing is skipped. `include_unconfirmed`: see
 * `unconfirmed.ts` (events as indexed, then retractions). A failure keeps the item in flight
 * (`outcome.ts`); a crash repeats at most the item in flight.
 *
 * No HTTP framework and no reach into the indexer here: events come from an {@link EventFeed}
 * (`feedSource.ts` in the service), time from injected clocks (tests advance `nowMs` by hours).
 */
import { randomBytes } from "node:crypto";
import type { Store } from "../store/index";
import {
  claimDueSubscriptions,
  type DeliveryStatePatch,
  deliveryQueueStats,
  listUnconfirmedSent,
  recordAttempt,
} from "../store/webhookDelivery";
import type { UnconfirmedSent, WebhookSubscription } from "../store/webhooks";
import type { EventFeed, FeedEvent } from "./feed";
import { type AttemptOutcome, attemptOutcome } from "./outcome";
import { ATTEMPT_TIMEOUT_MS, sendWebhook } from "./send";
import { signMessage, webhookPayload } from "./signing";
import { nextUnconfirmedStep, retractionData, retractionMessageId, sentRow } from "./unconfirmed";
import type { UrlPolicy } from "./urlSafety";

export type { AttemptOutcome } from "./outcome";

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
  /** Subscriptions claimed per tick (delivered concurrently; default 16). */
  concurrency?: number;
  /** Items delivered per claimed subscription before its lease is handed back (default 100). */
  maxEventsPerClaim?: number;
  /** Pause between ticks that found nothing to do, ms (default 250). */
  idleMs?: number;
  observer?: DeliveryObserver;
};

/** A running (or manually ticked) worker. */
export type DeliveryWorker = {
  /** One round: claim and deliver. @returns attempts made */
  tick: () => Promise<number>;
  /** Ticks in the background until {@link DeliveryWorker.stop}. */
  start: () => void;
  /** Stops ticking and waits for the round in progress (its leases are written back). */
  stop: () => Promise<void>;
};

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
type Item = { event: FeedEvent; retract?: undefined } | { retract: UnconfirmedSent; event?: undefined };
/** The cursor move and remembered rows a step settles once its item is acknowledged. */
type Settle = { cursor?: bigint; settled?: bigint[] };
/** The feed's boundaries for one tick. */
type Bounds = { confirmed: bigint; indexed: bigint | null };

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
  const concurrency = deps.concurrency ?? 16;
  const maxEventsPerClaim = deps.maxEventsPerClaim ?? 100;
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

  /** The next item of `sub`, or null when it is idle (its lease then written back). */
  async function nextItem(sub: WebhookSubscription, bounds: Bounds): Promise<(Item & Settle) | null | false> {
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
      return nextItem(sub, bounds);
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

  /** Delivers one claimed subscription's items in order; returns attempts made. */
  async function deliver(claimed: WebhookSubscription, bounds: Bounds): Promise<number> {
    const sub = { ...claimed };
    let attempts = 0;
    for (let n = 0; n < maxEventsPerClaim; n++) {
      const item = await nextItem(sub, bounds);
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
      const result = await sendWebhook({ url: sub.url, message, policy: deps.policy, timeoutMs: attemptTimeoutMs });
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
      const settled = delivered ? [...(item.settled ?? []), ...(item.retract ? [eventId] : [])] : undefined;
      const ok = await recordAttempt(deps.store, {
        id: sub.id,
        leaseToken: sub.leaseToken!,
        nowMs: at,
        patch,
        settledEventIds: settled,
        sent: delivered && item.event && sub.includeUnconfirmed ? sentRow(item.event) : undefined,
        attempt: {
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
        },
      });
      const lagSec =
        delivered && item.event ? Math.max(0, (wallClockMs() - item.event.timestampSec * 1000) / 1000) : undefined;
      observer.attempt?.(decided.outcome, lagSec);
      if (!ok || !delivered) return attempts;
      Object.assign(sub, patch);
    }
    // The claim's share is used up: hand the lease back so the next tick (or process) continues.
    await write(sub, { leaseToken: null, leaseUntilMs: null });
    return attempts;
  }

  async function tick(): Promise<number> {
    const confirmed = await deps.feed.confirmedCursor();
    if (confirmed === null) return 0;
    const indexed = deps.feed.indexedCursor ? await deps.feed.indexedCursor() : null;
    const claimed = await claimDueSubscriptions(deps.store, {
      nowMs: nowMs(),
      leaseMs,
      leaseToken: `lease_${randomBytes(12).toString("hex")}`,
      limit: concurrency,
      confirmedCursor: confirmed,
      indexedCursor: indexed ?? confirmed,
    });
    const counts = await Promise.all(claimed.map((sub) => deliver(sub, { confirmed, indexed })));
    observer.queue?.(await deliveryQueueStats(deps.store, confirmed));
    return counts.reduce((a, b) => a + b, 0);
  }

  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const loop = () => {
    if (!running) return;
    current = tick().then(
      (attempts) => {
        if (running) timer = setTimeout(loop, attempts > 0 ? 0 : (deps.idleMs ?? 250));
      },
      (err: Error) => {
        observer.error?.(err);
        if (running) timer = setTimeout(loop, 1_000);
      },
    );
  };
  return {
    tick,
    start: () => {
      if (running) return;
      running = true;
      loop();
    },
    stop: async () => {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
}
