/**
 * Who may read `GET /metrics` (docs/operations.md "Metrics": a scrape is ~300 KB and ~1.6 s of work,
 * including a database read and an RPC request, so it must not be open to anyone).
 *
 * Ponder 0.17 serves `/metrics` itself (`ponder/dist/esm/server/index.js`): its Hono app
 * registers `GET /metrics` before it mounts ours, and that handler answers without calling
 * `next()`, so no middleware of our app ever sees the request; Ponder also refuses an API route
 * named `/metrics` at build time. The only place to decide is in front of Ponder's request
 * handler. {@link guardPonderMetrics} registers a listener wrapper with the server seam
 * (ops/httpServerSeam.ts) before Ponder creates its server (the API file is evaluated first), so
 * the server Ponder creates checks every request for `/metrics` before Ponder's Hono app sees it:
 *
 * - `METRICS_TOKEN` set: `Authorization: Bearer <METRICS_TOKEN>` is required; otherwise 401
 *   `metrics_unauthorized` with `WWW-Authenticate: Bearer realm="metrics"` (RFC 6750);
 * - `METRICS_TOKEN` unset: `/metrics` answers 404 `not_found` (disabled).
 *
 * Every other path passes through untouched. Bodies are the API's error shape
 * `{ok: false, error, message}`. docs/operations.md "Metrics".
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { registerHttpServerHook } from "../httpServerSeam";

/** What the guard decided for one request. */
export type MetricsDecision = "pass" | "allow" | "unauthorized" | "disabled";

/**
 * Whether a request path is Ponder's `/metrics` as its router would match it: percent-decoded,
 * case-insensitive, repeated and trailing slashes ignored (stricter than the router, never looser).
 * @param url - the request target as received (`/metrics?x=1`, or absolute-form `http://h/metrics`)
 * @example isMetricsPath("/%6Detrics/") // true
 */
export function isMetricsPath(url: string | undefined): boolean {
  return normalisedPath(url) === "/metrics";
}

/**
 * A request target's path as a router could map it: percent-decoded, lower-case, repeated and
 * trailing slashes collapsed; null when the target does not parse.
 * @example normalisedPath("//Ready/?x=1") // "/ready"
 */
function normalisedPath(url: string | undefined): string | null {
  if (!url) return null;
  let path: string;
  try {
    // Origin-form targets are appended to a base (so "//metrics" stays a path, as Node's HTTP
    // adapter reads it); absolute-form targets are parsed as they are.
    path = new URL(url.startsWith("/") ? `http://service.invalid${url}` : url).pathname;
  } catch {
    return null;
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // malformed escapes: compare the raw path
  }
  return path
    .toLowerCase()
    .replace(/\/{2,}/g, "/")
    .replace(/\/$/, "");
}

/** The service's own readiness route, which `/ready` answers through on the indexer. */
const SERVICE_READY_PATH = "/api/v1/ready";

/**
 * Whether this process is the indexer (`ponder start` or `ponder dev`), as opposed to an API
 * replica (`ponder serve`): the first Ponder command word on the command line.
 * @param argv - `process.argv`
 * @example isIndexerProcess(["node", "ponder.js", "start", "--schema", "x"]) // true
 */
export function isIndexerProcess(argv: readonly string[]): boolean {
  const command = argv.slice(2).find((arg) => ["start", "dev", "serve", "codegen", "db"].includes(arg));
  return command === "start" || command === "dev";
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
export function guardMetricsListener(
  listener: RequestListener,
  token: () => string | undefined,
  readyFromService: () => boolean = () => false,
): RequestListener {
  return function guardedListener(req: IncomingMessage, res: ServerResponse) {
    // On the indexer, `/ready` is the service's readiness (Ponder's says 200 at the finalized
    // block, block 0 on a young chain): the same route, answer and per-IP limit as /api/v1/ready.
    if (readyFromService() && normalisedPath(req.url) === "/ready") {
      const query = req.url?.indexOf("?") ?? -1;
      req.url = SERVICE_READY_PATH + (query >= 0 ? req.url!.slice(query) : "");
    }
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

/**
 * Installs the `/metrics` guard on every HTTP server created from now on in this process (Ponder
 * creates its server after it has evaluated the API file), through the one server seam
 * (ops/httpServerSeam.ts). Evaluating the API file again (Ponder's dev reload) replaces the
 * settings.
 *
 * @param token - `METRICS_TOKEN`; undefined disables `/metrics` (404)
 * @param options.readyFromService - answer `/ready` with `GET /api/v1/ready` (the indexer role,
 *   {@link isIndexerProcess}); a `ponder serve` replica keeps Ponder's `/ready`
 * @example guardPonderMetrics(env.METRICS_TOKEN, { readyFromService: isIndexerProcess(process.argv) })
 */
export function guardPonderMetrics(token: string | undefined, options: { readyFromService?: boolean } = {}): void {
  const readyFromService = options.readyFromService ?? false;
  registerHttpServerHook("metrics-guard", {
    wrapListener: (listener) =>
      guardMetricsListener(
        listener,
        () => token,
        () => readyFromService,
      ),
  });
}
