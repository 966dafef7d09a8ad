/**
 * Who may read `GET /metrics` (issue 15, "Abuse limits": a scrape is ~300 KB and ~1.6 s of work,
 * including a database read and an RPC request, so it must not be open to anyone).
 *
 * Ponder 0.17 serves `/metrics` itself (`ponder/dist/esm/server/index.js`): its Hono app
 * registers `GET /metrics` before it mounts ours, and that handler answers without calling
 * `next()`, so no middleware of our app ever sees the request; Ponder also refuses an API route
 * named `/metrics` at build time. The only place to decide is in front of Ponder's request
 * handler. {@link guardPonderMetrics} is that seam: it wraps `node:http`'s `createServer` once,
 * before Ponder creates its server (the API file is evaluated first), so the server Ponder
 * creates checks every request for `/metrics` before Ponder's Hono app sees it:
 *
 * - `METRICS_TOKEN` set: `Authorization: Bearer <METRICS_TOKEN>` is required; otherwise 401
 *   `metrics_unauthorized` with `WWW-Authenticate: Bearer realm="metrics"` (RFC 6750);
 * - `METRICS_TOKEN` unset: `/metrics` answers 404 `not_found` (disabled).
 *
 * Every other path passes through untouched. Bodies are the API's error shape
 * `{ok: false, error, message}`. docs/operations.md "Metrics".
 */
import { createHash, timingSafeEqual } from "node:crypto";
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";

/** What the guard decided for one request. */
export type MetricsDecision = "pass" | "allow" | "unauthorized" | "disabled";

/**
 * Whether a request path is Ponder's `/metrics` as its router would match it: percent-decoded,
 * case-insensitive, repeated and trailing slashes ignored (stricter than the router, never looser).
 * @param url - the request target as received (`/metrics?x=1`, or absolute-form `http://h/metrics`)
 * @example isMetricsPath("/%6Detrics/") // true
 */
export function isMetricsPath(url: string | undefined): boolean {
  if (!url) return false;
  let path: string;
  try {
    // Origin-form targets are appended to a base (so "//metrics" stays a path, as Node's HTTP
    // adapter reads it); absolute-form targets are parsed as they are.
    path = new URL(url.startsWith("/") ? `http://service.invalid${url}` : url).pathname;
  } catch {
    return false;
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // malformed escapes: compare the raw path
  }
  return (
    path
      .toLowerCase()
      .replace(/\/{2,}/g, "/")
      .replace(/\/$/, "") === "/metrics"
  );
}

/**
 * Decides one request.
 * @param url - request target
 * @param authorization - the `Authorization` header, if any
 * @param token - `METRICS_TOKEN` (undefined or empty: metrics disabled on this port)
 * @returns `pass` for any other path; for `/metrics`: `allow`, `unauthorized` or `disabled`
 * @example metricsDecision("/metrics", "Bearer s3cr3t…", "s3cr3t…") // "allow"
 */
export function metricsDecision(
  url: string | undefined,
  authorization: string | undefined,
  token: string | undefined,
): MetricsDecision {
  if (!isMetricsPath(url)) return "pass";
  if (!token) return "disabled";
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? "");
  if (!match) return "unauthorized";
  // Constant-time comparison of fixed-length digests (no length or prefix leak).
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token)) ? "allow" : "unauthorized";
}

/**
 * Wraps a Node request listener so `/metrics` requests are decided first.
 * @param listener - the server's listener (Ponder's Hono app through `@hono/node-server`)
 * @param token - returns the current `METRICS_TOKEN` (read per request, so a reload applies)
 * @returns a listener answering 401/404 itself and passing everything else on
 */
export function guardMetricsListener(listener: RequestListener, token: () => string | undefined): RequestListener {
  return function guardedListener(req: IncomingMessage, res: ServerResponse) {
    const decision = metricsDecision(req.url, req.headers.authorization, token());
    if (decision === "pass" || decision === "allow") return listener(req, res);
    const body =
      decision === "disabled"
        ? {
            ok: false,
            error: "not_found",
            message: 'metrics are not served without METRICS_TOKEN (docs/operations.md "Metrics")',
          }
        : { ok: false, error: "metrics_unauthorized", message: "send Authorization: Bearer <METRICS_TOKEN>" };
    const text = JSON.stringify(body);
    res.writeHead(decision === "disabled" ? 404 : 401, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(text),
      "cache-control": "no-store",
      ...(decision === "unauthorized" ? { "www-authenticate": 'Bearer realm="metrics"' } : {}),
    });
    res.end(req.method === "HEAD" ? undefined : text);
  };
}

const INSTALLED = Symbol.for("launch-service.metricsGuard");
type GuardState = { token: string | undefined };

/**
 * Installs the `/metrics` guard on every HTTP server created from now on in this process (Ponder
 * creates its server after it has evaluated the API file). Idempotent: evaluating the API file
 * again (Ponder's dev reload) only updates the token.
 *
 * @param token - `METRICS_TOKEN`; undefined disables `/metrics` (404)
 * @returns true when installed now, false when it already was (the token is updated either way)
 * @example guardPonderMetrics(env.METRICS_TOKEN)
 */
export function guardPonderMetrics(token: string | undefined): boolean {
  const holder = http as unknown as Record<symbol, GuardState | undefined>;
  const existing = holder[INSTALLED];
  if (existing) {
    existing.token = token;
    return false;
  }
  const state: GuardState = { token };
  holder[INSTALLED] = state;
  const original = http.createServer;
  const guarded = function createServer(this: unknown, ...args: unknown[]) {
    const at = args.findIndex((arg) => typeof arg === "function");
    if (at >= 0) args[at] = guardMetricsListener(args[at] as RequestListener, () => state.token);
    return (original as (...a: unknown[]) => http.Server).apply(this, args);
  };
  (http as { createServer: unknown }).createServer = guarded;
  return true;
}
