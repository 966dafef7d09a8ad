/**
 * The webhook delivery worker (docs/webhooks.md "Delivery"): at least once, in event-id order per
 * subscription, one event in flight per subscription.
 *
 * Each {@link DeliveryWorker.tick}: read the confirmed boundary of the events feed once; claim due
 * subscriptions with a lease (store/webhooks.ts, `FOR UPDATE SKIP LOCKED`: with N processes on
 * one PostgreSQL, each subscription is delivered by one of them at a time); for each, in parallel,
 * deliver its next matching confirmed event (`id > cursor`), and on a 2xx advance the cursor and
 * go on with the next one. A failure keeps the event in flight and schedules a retry
 * (`backoff.ts`); after the retry window the subscription is `failing` (paused, probed hourly with
 * the same event); a 410 disables it. The cursor only moves past an event once it was
 * acknowledged, or past events that do not match the subscription's filter, so nothing is
 * skipped; a crash repeats at most the event in flight.
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
  recordAttempt,
  type WebhookSubscription,
} from "../store/webhooks";
import { nextAfterFailure } from "./backoff";
import { type AttemptResult, ATTEMPT_TIMEOUT_MS, sendWebhook } from "./send";
import { signMessage, webhookPayload } from "./signing";
import type { UrlPolicy } from "./urlSafety";

/** One event as the feed serves it. */
export type FeedEvent = {
  id: bigint;
  kind: string;
  /** Checksummed token address. */
  token: string;
  /** Block time, unix seconds. */
  timestampSec: number;
  /** The record exactly as `GET /api/public/events` serves it. */
  record: Record<string, unknown>;
};

/** Where confirmed events come from. */
export type EventFeed = {
  /**
   * The highest event id that is final: every event with a smaller or equal id is confirmed and
   * will never change. `null` before the indexer recorded a block.
   */
  confirmedCursor: () => Promise<bigint | null>;
  /** The first event with `afterId < id <= uptoId` of one of `kinds` (and of `token` when given). */
  nextEvent: (q: {
    afterId: bigint;
    uptoId: bigint;
    kinds: readonly string[];
    token: string | null;
  }) => Promise<FeedEvent | null>;
  /** One event by id (the one in flight; confirmed events never change). */
  eventById: (id: bigint) => Promise<FeedEvent | null>;
};

/** Outcomes counted per attempt (`launchpad_webhook_deliveries_total{outcome}`). */
export type AttemptOutcome = "delivered" | "failed" | "paused" | "disabled";

/** Where the worker reports (metrics in the service; absent: nothing). */
export type DeliveryObserver = {
  /** One attempt; `lagSec` (block time to 2xx) when delivered. */
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
  /** Events delivered per claimed subscription before its lease is handed back (default 100). */
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

const is2xx = (r: AttemptResult) => r.statusCode !== undefined && r.statusCode >= 200 && r.statusCode < 300;

/**
 * Builds a delivery worker.
 * @example const worker = deliveryWorker({ store, feed, policy }); worker.start(); … await worker.stop();
 */
export function deliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const nowMs = deps.nowMs ?? (() => Date.now());
  const wallClockMs = deps.wallClockMs ?? (() => Date.now());
  const random = deps.random ?? Math.random;
  const attemptTimeoutMs = deps.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  // A lease outlives one attempt with room to write its outcome; it is renewed after each event.
  const leaseMs = attemptTimeoutMs + 20_000;
  const concurrency = deps.concurrency ?? 16;
  const maxEventsPerClaim = deps.maxEventsPerClaim ?? 100;
  const observer = deps.observer ?? {};

  /** Delivers one claimed subscription's events in order; returns attempts made. */
  async function deliver(claimed: WebhookSubscription, confirmedCursor: bigint): Promise<number> {
    const sub = { ...claimed };
    const token = sub.leaseToken!;
    let attempts = 0;
    for (let n = 0; n < maxEventsPerClaim; n++) {
      let event: FeedEvent | null;
      if (sub.pendingEventId !== null) {
        event = await deps.feed.eventById(sub.pendingEventId);
        if (!event) {
          // A confirmed event cannot vanish; if the index was rebuilt without it, move on from it.
          const ok = await recordAttempt(deps.store, {
            id: sub.id,
            leaseToken: token,
            nowMs: nowMs(),
            patch: { pendingEventId: null, cursorEventId: sub.pendingEventId, attempts: 0, firstAttemptAtMs: null },
          });
          if (!ok) return attempts;
          sub.cursorEventId = sub.pendingEventId;
          sub.pendingEventId = null;
          continue;
        }
      } else {
        event =
          sub.cursorEventId < confirmedCursor
            ? await deps.feed.nextEvent({
                afterId: sub.cursorEventId,
                uptoId: confirmedCursor,
                kinds: sub.events,
                token: sub.tokenAddress,
              })
            : null;
        if (!event) {
          // Nothing (more) matches up to the confirmed boundary: the cursor moves there, the lease ends.
          await recordAttempt(deps.store, {
            id: sub.id,
            leaseToken: token,
            nowMs: nowMs(),
            patch: {
              cursorEventId: confirmedCursor > sub.cursorEventId ? confirmedCursor : sub.cursorEventId,
              leaseToken: null,
              leaseUntilMs: null,
            },
          });
          return attempts;
        }
      }

      const sentAtMs = wallClockMs();
      const message = signMessage(
        event.id.toString(),
        sentAtMs,
        webhookPayload(event.kind, event.timestampSec, event.record),
        activeSecrets(sub, nowMs()),
      );
      const result = await sendWebhook({ url: sub.url, message, policy: deps.policy, timeoutMs: attemptTimeoutMs });
      attempts++;
      const at = nowMs();
      const attemptNumber = (sub.pendingEventId === event.id ? sub.attempts : 0) + 1;
      const base = {
        messageId: event.id.toString(),
        eventId: event.id,
        eventType: event.kind,
        attempt: attemptNumber,
        statusCode: result.statusCode ?? null,
        error: result.error ?? null,
        durationMs: result.durationMs,
        responsePrefix: result.responsePrefix,
        attemptedAtMs: at,
      };
      let patch: DeliveryStatePatch;
      let outcome: AttemptOutcome;
      let nextAttemptAtMs: number | null = null;
      if (is2xx(result)) {
        outcome = "delivered";
        patch = {
          status: "active",
          statusReason: null,
          cursorEventId: event.id,
          pendingEventId: null,
          attempts: 0,
          firstAttemptAtMs: null,
          nextAttemptAtMs: at,
          leaseUntilMs: at + leaseMs,
        };
      } else if (result.statusCode === 410) {
        outcome = "disabled";
        patch = {
          status: "disabled",
          statusReason: "the receiver answered 410 Gone",
          pendingEventId: event.id,
          attempts: attemptNumber,
          firstAttemptAtMs: sub.firstAttemptAtMs ?? at,
          leaseToken: null,
          leaseUntilMs: null,
        };
      } else {
        const firstAttemptAtMs =
          sub.pendingEventId === event.id && sub.firstAttemptAtMs !== null ? sub.firstAttemptAtMs : at;
        const decision = nextAfterFailure({
          failedAttempts: attemptNumber,
          firstAttemptAtMs,
          nowMs: at,
          random: random(),
        });
        const reason = result.statusCode !== undefined ? `HTTP ${result.statusCode}` : (result.error ?? "failed");
        if (decision.kind === "retry") {
          outcome = "failed";
          nextAttemptAtMs = decision.atMs;
          patch = {
            // A failing subscription stays failing until a 2xx (its hourly probe failed again).
            ...(sub.status === "failing" ? {} : { status: "active" as const }),
            pendingEventId: event.id,
            attempts: attemptNumber,
            firstAttemptAtMs,
            nextAttemptAtMs,
            leaseToken: null,
            leaseUntilMs: null,
          };
        } else {
          outcome = "paused";
          nextAttemptAtMs = decision.probeAtMs;
          patch = {
            status: "failing",
            statusReason: `event ${event.id} not acknowledged for 24 hours (last: ${reason}); delivery paused, probed hourly`,
            pendingEventId: event.id,
            attempts: attemptNumber,
            firstAttemptAtMs,
            nextAttemptAtMs,
            leaseToken: null,
            leaseUntilMs: null,
          };
        }
      }
      const ok = await recordAttempt(deps.store, {
        id: sub.id,
        leaseToken: token,
        nowMs: at,
        patch,
        attempt: { ...base, outcome, nextAttemptAtMs },
      });
      observer.attempt?.(
        outcome,
        outcome === "delivered" ? Math.max(0, (wallClockMs() - event.timestampSec * 1000) / 1000) : undefined,
      );
      if (!ok || outcome !== "delivered") return attempts;
      Object.assign(sub, patch);
    }
    // The claim's share is used up: hand the lease back so the next tick (or process) continues.
    await recordAttempt(deps.store, {
      id: sub.id,
      leaseToken: token,
      nowMs: nowMs(),
      patch: { leaseToken: null, leaseUntilMs: null },
    });
    return attempts;
  }

  async function tick(): Promise<number> {
    const confirmedCursor = await deps.feed.confirmedCursor();
    if (confirmedCursor === null) return 0;
    const claimed = await claimDueSubscriptions(deps.store, {
      nowMs: nowMs(),
      leaseMs,
      leaseToken: `lease_${randomBytes(12).toString("hex")}`,
      limit: concurrency,
      confirmedCursor,
    });
    const counts = await Promise.all(claimed.map((sub) => deliver(sub, confirmedCursor)));
    observer.queue?.(await deliveryQueueStats(deps.store, confirmedCursor));
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
