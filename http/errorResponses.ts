/**
 * The app's one error path: every failure, and every request no route answers, leaves as the
 * spec's error body `{ ok: false, error, message, request_id }` with the catalogue's status
 * (http/errors.ts), with private URLs redacted from the message and the log line.
 */
import { inspect } from "node:util";
import type { Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError, type ErrorBody } from "./errors";
import { toJsonText } from "../src/domain/json";
import { toApiError } from "./serviceErrors";
import { QuotaExceededError } from "../store/errors";
import { recordRateLimitRejection } from "../ops/metrics/registry";

/**
 * The TradingView UDF datafeed's path prefix: its clients read `s: "error"` and `errmsg` (UDF
 * adapter, "error" answers), so its error bodies carry both beside the spec's fields.
 */
const UDF_PREFIX = "/api/public/udf/";

/** Headers set before the failure that an error response keeps (rate limits, auth challenge, cookies). */
const CARRIED_HEADERS = [
  "ratelimit",
  "ratelimit-policy",
  "retry-after",
  "www-authenticate",
  "set-cookie",
  "cache-control",
];

/**
 * Installs the app's last catch-all route, its `notFound` and its `onError`; call after every
 * other route is registered.
 * - an unknown path: 404 `not_found`;
 * - an `ApiError`, or a service error below the routes (http/serviceErrors.ts): its code and status;
 * - an `HTTPException` below 500 (a malformed request Hono itself refused): 400 `invalid_request`;
 * - anything else: 500 `internal_error`, and the error logged (redacted) with its request id.
 * Under the UDF datafeed (`/api/public/udf/…`) the body also carries UDF's `s: "error"` and `errmsg`.
 * @param redact - removes private URLs (RPC URLs) from a message or log line (config/redact.ts)
 */
export function answerErrorsWithErrorBody(app: Hono, redact: (text: string) => string): void {
  const notFound = (c: Context) =>
    errorResponse(c, new ApiError("not_found", `no route for ${c.req.method} ${c.req.path}`), redact);
  // Ponder mounts this app with `route("/", app)`, which drops a sub-app's `notFound`: an unknown
  // path then got Ponder's plain-text "404 Not Found". The last catch-all keeps the error shape.
  app.all("*", notFound);
  app.notFound(notFound);
  app.onError((err, c) => {
    // A daily coin quota refused the request: counted like the per-minute limiters' refusals.
    if (err instanceof QuotaExceededError) recordRateLimitRejection(err.quota);
    const known = toApiError(err);
    if (known) return errorResponse(c, known, redact);
    if (err instanceof HTTPException && err.status < 500)
      return errorResponse(c, new ApiError("invalid_request", err.message || "invalid request"), redact);
    console.error(redact(`request ${c.get("requestId")} failed: ${inspect(err)}`));
    return errorResponse(c, new ApiError("internal_error", "internal error; safe to retry"), redact);
  });
}

/**
 * The error answer of one request: the catalogue body with the request id, the headers a refusal
 * must keep from the response under way (CARRIED_HEADERS, e.g. rate-limit and CORS headers) and
 * `Retry-After` when the error has one; under the UDF datafeed also UDF's `s: "error"` / `errmsg`.
 */
function errorResponse(c: Context, err: ApiError, redact: (text: string) => string): Response {
  const requestIdValue: string | undefined = c.get("requestId");
  const carried = c.res.headers;
  const message = redact(err.message);
  const body: ErrorBody = {
    ...(c.req.path.startsWith(UDF_PREFIX) ? { s: "error", errmsg: message } : {}),
    ...err.extra,
    ok: false,
    error: err.code,
    message,
    request_id: requestIdValue,
  };
  const headers = new Headers({
    "content-type": "application/json; charset=utf-8",
    ...(requestIdValue ? { "x-request-id": requestIdValue } : {}),
  });
  for (const name of CARRIED_HEADERS) {
    if (name === "set-cookie") for (const cookie of carried.getSetCookie()) headers.append(name, cookie);
    else if (carried.has(name)) headers.set(name, carried.get(name)!);
  }
  if (err.hints.retryAfterSec !== undefined) headers.set("retry-after", String(err.hints.retryAfterSec));
  return new Response(toJsonText(body), { status: err.status, headers });
}
