/**
 * The retry schedule of webhook deliveries (docs/webhooks.md "Retries"): exponential backoff with
 * jitter, capped at an hour between attempts, for a window of at least 24 hours from the first
 * failed attempt of an event. Pure: the clock and the random source are the caller's.
 */

/** First retry delay before jitter, milliseconds. */
export const BASE_DELAY_MS = 5_000;
/** Longest delay between two attempts before jitter, milliseconds. */
export const MAX_DELAY_MS = 3_600_000;
/** How long an event is retried before its subscription is marked `failing`, milliseconds (24 h). */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
/** How often a `failing` subscription is probed with its first unacknowledged event, milliseconds. */
export const FAILING_PROBE_INTERVAL_MS = 3_600_000;

/**
 * Delay before the next attempt after `failedAttempts` failed ones: `min(MAX, BASE * 2^(n-1))`,
 * then "equal jitter" (half fixed, half random), so retries of many subscriptions spread out but
 * never come sooner than half the nominal delay.
 * @param failedAttempts - attempts of this event that failed so far (>= 1)
 * @param random - a number in [0, 1) (Math.random in the service)
 * @returns milliseconds
 * @example retryDelayMs(1, 0) // 2500 (5 s nominal, jittered into [2.5 s, 5 s))
 * @example retryDelayMs(20, 0.999) // 3596400 (capped at 1 h)
 */
export function retryDelayMs(failedAttempts: number, random: number): number {
  const n = Math.max(1, Math.floor(failedAttempts));
  const nominal = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(n - 1, 30));
  return Math.round(nominal / 2 + (nominal / 2) * Math.min(Math.max(random, 0), 1));
}

/** What happens after a failed attempt. */
export type RetryDecision = { kind: "retry"; atMs: number } | { kind: "pause"; probeAtMs: number };

/**
 * Decides the next step after a failed attempt: retry after {@link retryDelayMs} while the event's
 * first failed attempt is less than {@link RETRY_WINDOW_MS} old, else pause the subscription
 * (`failing`) and probe it again after {@link FAILING_PROBE_INTERVAL_MS}. Nothing is skipped
 * either way: the same event is attempted next.
 * @param input.failedAttempts - failed attempts of this event, this one included
 * @param input.firstAttemptAtMs - when the first attempt of this event was made (unix ms)
 * @param input.nowMs - now (unix ms)
 * @param input.random - a number in [0, 1)
 * @example nextAfterFailure({ failedAttempts: 1, firstAttemptAtMs: 0, nowMs: 0, random: 0 }) // { kind: "retry", atMs: 2500 }
 */
export function nextAfterFailure(input: {
  failedAttempts: number;
  firstAttemptAtMs: number;
  nowMs: number;
  random: number;
}): RetryDecision {
  if (input.nowMs - input.firstAttemptAtMs >= RETRY_WINDOW_MS)
    return { kind: "pause", probeAtMs: input.nowMs + FAILING_PROBE_INTERVAL_MS };
  return { kind: "retry", atMs: input.nowMs + retryDelayMs(input.failedAttempts, input.random) };
}
