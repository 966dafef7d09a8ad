/**
 * What one attempt's answer does to a subscription's delivery state (docs/webhooks.md "Retries"):
 * a 2xx acknowledges the item in flight, a 410 disables the subscription, anything else keeps
 * the item in flight with a retry (`backoff.ts`) until the 24-hour window runs out, then the
 * subscription is `failing` (paused, probed hourly, from the same item: nothing is skipped).
 */
import type { DeliveryStatePatch } from "../store/webhookDelivery";
import type { WebhookSubscription } from "../store/webhooks";
import { nextAfterFailure } from "./backoff";
import type { AttemptResult } from "./send";

/** Outcomes counted per attempt (`launchpad_webhook_deliveries_total{outcome}`). */
export type AttemptOutcome = "delivered" | "failed" | "paused" | "disabled";

const is2xx = (r: AttemptResult) => r.statusCode !== undefined && r.statusCode >= 200 && r.statusCode < 300;

/**
 * The state patch after one attempt of the item `(eventId, retraction)`.
 * @param sub - the subscription as the worker holds it (its in-flight item and attempt count)
 * @param item.eventId - the event sent, or the event whose `event.retracted` was sent
 * @param item.retraction - whether the item is an `event.retracted`
 * @param atMs - scheduling clock at the answer, unix ms
 * @param leaseMs - how long the worker keeps its lease after a 2xx (it goes on with the next item)
 * @param random - jitter in [0, 1)
 * @returns the outcome, the patch (lease kept on a 2xx, released otherwise), the attempt's number
 *   and the next attempt's time (null on a 2xx or a 410). On a 2xx the patch leaves the cursor
 *   alone: the caller moves it (confirmed and unconfirmed modes move it differently).
 */
export function attemptOutcome(input: {
  sub: WebhookSubscription;
  item: { eventId: bigint; retraction: boolean };
  result: AttemptResult;
  atMs: number;
  leaseMs: number;
  random: number;
}): { outcome: AttemptOutcome; patch: DeliveryStatePatch; attempt: number; nextAttemptAtMs: number | null } {
  const { sub, item, result, atMs: at } = input;
  const same = sub.pendingEventId === item.eventId && sub.pendingRetraction === item.retraction;
  const attempt = (same ? sub.attempts : 0) + 1;
  const inFlight = { pendingEventId: item.eventId, pendingRetraction: item.retraction, attempts: attempt };
  if (is2xx(result))
    return {
      outcome: "delivered",
      attempt,
      nextAttemptAtMs: null,
      patch: {
        status: "active",
        statusReason: null,
        pendingEventId: null,
        pendingRetraction: false,
        attempts: 0,
        firstAttemptAtMs: null,
        nextAttemptAtMs: at,
        leaseUntilMs: at + input.leaseMs,
      },
    };
  const release = { leaseToken: null, leaseUntilMs: null };
  if (result.statusCode === 410)
    return {
      outcome: "disabled",
      attempt,
      nextAttemptAtMs: null,
      patch: {
        status: "disabled",
        statusReason: "the receiver answered 410 Gone",
        ...inFlight,
        firstAttemptAtMs: sub.firstAttemptAtMs ?? at,
        ...release,
      },
    };
  const firstAttemptAtMs = same && sub.firstAttemptAtMs !== null ? sub.firstAttemptAtMs : at;
  const decision = nextAfterFailure({ failedAttempts: attempt, firstAttemptAtMs, nowMs: at, random: input.random });
  if (decision.kind === "retry")
    return {
      outcome: "failed",
      attempt,
      nextAttemptAtMs: decision.atMs,
      patch: {
        // A failing subscription stays failing until a 2xx (its hourly probe failed again).
        ...(sub.status === "failing" ? {} : { status: "active" as const }),
        ...inFlight,
        firstAttemptAtMs,
        nextAttemptAtMs: decision.atMs,
        ...release,
      },
    };
  const reason = result.statusCode !== undefined ? `HTTP ${result.statusCode}` : (result.error ?? "failed");
  return {
    outcome: "paused",
    attempt,
    nextAttemptAtMs: decision.probeAtMs,
    patch: {
      status: "failing",
      statusReason: `event ${item.eventId} not acknowledged for 24 hours (last: ${reason}); delivery paused, probed hourly`,
      ...inFlight,
      firstAttemptAtMs,
      nextAttemptAtMs: decision.probeAtMs,
      ...release,
    },
  };
}
