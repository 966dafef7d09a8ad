/**
 * The service's Prometheus metrics (prom-client), beside Ponder's own `ponder_*` families.
 *
 * Naming follows Prometheus conventions: base units (`_seconds`, blocks), counters end in
 * `_total`, label values are bounded (route templates, never raw paths; outcome and error codes
 * from closed catalogues). The metrics live in {@link serviceRegistry}; `attachToPonder`
 * (`ops/ponderInternals.ts`) registers the same metric objects in the registry Ponder serves at
 * `/metrics`, so one scrape returns both. See docs/operations.md for the full list.
 *
 * The objects are created once per process and kept on `globalThis`: Ponder may evaluate the API
 * module again (`ponder dev` reloads), and prom-client refuses a second metric with one name.
 */
import client from "prom-client";

/** HTTP surface a route belongs to (label `surface`). */
export type Surface = "v1" | "session" | "public" | "feeds" | "media" | "other";

/** Latency buckets in seconds: 5 ms to 10 s. */
const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/**
 * Freshness buckets in seconds (wall clock minus a block's timestamp, which is whole seconds, so
 * values carry up to 1 s of the block's own second): 250 ms to 5 min.
 */
const FRESHNESS_BUCKETS = [0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 30, 60, 300];
/** RPC latency buckets in seconds: 5 ms to 30 s. */
const RPC_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function createMetrics() {
  const registry = new client.Registry();
  const registers = [registry];
  return {
    registry,
    httpRequests: new client.Counter({
      name: "launchpad_http_requests_total",
      help: "HTTP requests answered by the API, by route template, method, status code and surface.",
      labelNames: ["route", "method", "status", "surface"] as const,
      registers,
    }),
    httpDuration: new client.Histogram({
      name: "launchpad_http_request_duration_seconds",
      help: "Time from receiving an API request to its response, in seconds, by route template, method, status and surface.",
      labelNames: ["route", "method", "status", "surface"] as const,
      buckets: HTTP_DURATION_BUCKETS,
      registers,
    }),
    httpInFlight: new client.Gauge({
      name: "launchpad_http_requests_in_flight",
      help: "API requests being handled right now (drained on shutdown).",
      registers,
    }),
    launchBuilds: new client.Counter({
      name: "launchpad_launch_builds_total",
      help: "Launch transactions built (outcome ok) or refused (outcome = error code).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    launchVerifications: new client.Counter({
      name: "launchpad_launch_verifications_total",
      help: "Launch receipts verified (outcome ok) or rejected (outcome = verification error code).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    launchConfirmations: new client.Counter({
      name: "launchpad_launch_confirmations_total",
      help: "Launch confirm/finalize requests by outcome (ok or error code).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    rateLimitRejections: new client.Counter({
      name: "launchpad_rate_limit_rejections_total",
      help: "Requests refused with 429 by a rate limit or daily quota, by limit (v1, public, session, quota_coins_created, quota_coins_finalized).",
      labelNames: ["limit"] as const,
      registers,
    }),
    uploadRejections: new client.Counter({
      name: "launchpad_upload_rejections_total",
      help: "Media uploads refused, by error code (image_too_large, image_polyglot, ...).",
      labelNames: ["code"] as const,
      registers,
    }),
    rpcRequests: new client.Counter({
      name: "launchpad_rpc_requests_total",
      help: "JSON-RPC requests the API made to the chain node, by method (retries included in one request).",
      labelNames: ["method"] as const,
      registers,
    }),
    rpcErrors: new client.Counter({
      name: "launchpad_rpc_errors_total",
      help: "JSON-RPC requests of the API that failed, by method and kind (http, timeout: the node did not answer; rpc: it answered with a JSON-RPC error such as a revert; other).",
      labelNames: ["method", "kind"] as const,
      registers,
    }),
    rpcDuration: new client.Histogram({
      name: "launchpad_rpc_request_duration_seconds",
      help: "Duration of the API's JSON-RPC requests in seconds, by method.",
      labelNames: ["method"] as const,
      buckets: RPC_DURATION_BUCKETS,
      registers,
    }),
    // Webhook delivery (webhooks/worker.ts, docs/webhooks.md "Operations").
    webhookDeliveries: new client.Counter({
      name: "launchpad_webhook_deliveries_total",
      help: "Webhook delivery attempts by outcome (delivered: 2xx; failed: retry scheduled; paused: retry window over, subscription failing; disabled: 410).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    webhookLag: new client.Histogram({
      name: "launchpad_webhook_delivery_lag_seconds",
      help: "Time from an event's block to the receiver's 2xx, in seconds (includes the confirmation depth and any retries).",
      buckets: [0.5, 1, 2, 3, 5, 10, 30, 60, 300, 3600, 86400],
      registers,
    }),
    webhookQueue: new client.Gauge({
      name: "launchpad_webhook_queue_subscriptions",
      help: "Active webhook subscriptions with confirmed events not yet acknowledged (as of this process's last delivery round).",
      registers,
    }),
    freshnessRowVisible: new client.Histogram({
      name: "launchpad_freshness_row_visible_seconds",
      help: 'Time from a block\'s timestamp to the API first seeing it indexed (its rows readable), in seconds; one observation per new indexed head the API reads (docs/operations.md "Freshness").',
      buckets: FRESHNESS_BUCKETS,
      registers,
    }),
    freshnessSseEmit: new client.Histogram({
      name: "launchpad_freshness_sse_emit_seconds",
      help: "Time from a row's block timestamp to its Server-Sent Events frame being queued to the streams, in seconds, by stream (trades, events) and frame (pending preview, confirmed).",
      labelNames: ["stream", "frame"] as const,
      buckets: FRESHNESS_BUCKETS,
      registers,
    }),
    webhookFailing: new client.Gauge({
      name: "launchpad_webhook_failing_subscriptions",
      help: "Webhook subscriptions marked failing (retry window exhausted; delivery paused, probed hourly).",
      registers,
    }),
  };
}

type Metrics = ReturnType<typeof createMetrics>;
const shared = globalThis as { __launchServiceMetrics?: Metrics };
/** The service's metric objects (one set per process). */
export const metrics: Metrics = (shared.__launchServiceMetrics ??= createMetrics());

/**
 * The registry holding only the service's metrics (tests and non-Ponder hosts scrape it; inside
 * Ponder the same objects are also registered in Ponder's registry).
 */
export const serviceRegistry: client.Registry = metrics.registry;

const CODE = /^[a-z][a-z0-9_]{0,47}$/;

/** A bounded label value: `ok`, a snake_case code, else `other`. */
function outcomeLabel(outcome: string): string {
  return CODE.test(outcome) ? outcome : "other";
}

/**
 * Counts one launch build (`POST /api/v1/evmchain/launches/build`, `create-transaction`).
 * Hook for the launch write path: call once per build request after it is decided.
 * @param outcome - `"ok"`, or the error code returned (e.g. `launch_simulation_failed`,
 *   `rpc_unavailable`, `intent_expired`); anything not snake_case is counted as `other`
 * @example recordLaunchBuild("ok") // launchpad_launch_builds_total{outcome="ok"} += 1
 */
export function recordLaunchBuild(outcome: string): void {
  metrics.launchBuilds.inc({ outcome: outcomeLabel(outcome) });
}

/**
 * Counts one receipt verification (`chain/verify.ts` result).
 * @param outcome - `"ok"`, or a `LaunchVerifyErrorCode` (`transaction_reverted`,
 *   `factory_not_accepted`, `receipt_pending`, ...)
 * @example recordLaunchVerification("creator_mismatch")
 */
export function recordLaunchVerification(outcome: string): void {
  metrics.launchVerifications.inc({ outcome: outcomeLabel(outcome) });
}

/**
 * Counts one confirm / finalize request.
 * @param outcome - `"ok"` (the launch is confirmed), or the error code returned
 * @example recordLaunchConfirmation("ok")
 */
export function recordLaunchConfirmation(outcome: string): void {
  metrics.launchConfirmations.inc({ outcome: outcomeLabel(outcome) });
}

/**
 * Counts one request refused by a limit (429).
 * @param limit - `v1`, `public`, `session` (per-minute limiters) or `quota_coins_created` /
 *   `quota_coins_finalized` (daily quotas); a trailing `:` (limiter prefix) is dropped
 * @example recordRateLimitRejection("v1:")
 */
export function recordRateLimitRejection(limit: string): void {
  metrics.rateLimitRejections.inc({ limit: outcomeLabel(limit.replace(/:$/, "")) });
}

/**
 * Counts one refused media upload.
 * @param code - the error code answered (`image_too_large`, `image_type_unsupported`, ...)
 * @example recordUploadRejection("image_polyglot")
 */
export function recordUploadRejection(code: string): void {
  metrics.uploadRejections.inc({ code: outcomeLabel(code) });
}

/**
 * The delivery worker's observer (webhooks/worker.ts) writing the webhook metrics.
 * @example deliveryWorker({ …, observer: webhookMetricsObserver() })
 */
export function webhookMetricsObserver() {
  return {
    attempt: (outcome: string, lagSec?: number) => {
      metrics.webhookDeliveries.inc({ outcome: outcomeLabel(outcome) });
      if (lagSec !== undefined) metrics.webhookLag.observe(lagSec);
    },
    queue: (stats: { behind: number; failing: number }) => {
      metrics.webhookQueue.set(stats.behind);
      metrics.webhookFailing.set(stats.failing);
    },
    error: (err: Error) => console.error(`webhook delivery round failed: ${err.message}`),
  };
}
