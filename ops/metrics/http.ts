/**
 * One middleware per request for operations: Prometheus HTTP metrics, the structured request log
 * line, the in-flight count that shutdown drains, and upload rejections by code.
 *
 * Labels use the route *template* Hono matched (`/api/v1/evmchain/tokens/:address`), never the
 * raw path; a request no route matched is `route="unmatched"`. The log line carries the request
 * id, method, route template, path (no query string), status, surface, duration and the public API
 * key id when one authenticated. It never carries headers, cookies, bodies, query strings, API key
 * secrets, CSRF tokens or signatures.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { metrics, recordUploadRejection, type Surface } from "./registry";

/** One request's log fields (what {@link observeRequests} hands to `log`). */
export type RequestLogEntry = {
  msg: "request";
  request_id: string | undefined;
  method: string;
  route: string;
  path: string;
  status: number;
  surface: Surface;
  /** Wall time from the first middleware to the response, milliseconds. */
  duration_ms: number;
  /** Public id (`key_…`) of the authenticating API key, when there was one. */
  key_id?: string;
  /** Error identifier of a failed request (`rate_limited`, `token_not_found`, ...). */
  error_code?: string;
};

/** Receives one entry per request; level follows the status (5xx: error, else info). */
export type RequestLogger = (level: "info" | "error", entry: RequestLogEntry) => void;

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const UPLOAD_ROUTE = /\/media\/upload$/;

let inFlight = 0;
const idleWaiters: Array<() => void> = [];

/**
 * The surface of a route template: `v1` (`/api/v1…`), `session` (`/api/evm/…`), `public`
 * (`/api/public…`, `/token-list/…`), `feeds` (`/feed/…`), `media` (`/media/…`), else `other`.
 * @example surfaceOf("/api/public/tokens/new") // "public"
 */
function surfaceOf(route: string): Surface {
  if (route.startsWith("/api/v1")) return "v1";
  if (route.startsWith("/api/evm/")) return "session";
  if (route.startsWith("/api/public") || route.startsWith("/token-list/")) return "public";
  if (route.startsWith("/feed/")) return "feeds";
  if (route.startsWith("/media/")) return "media";
  return "other";
}

/**
 * The route template that served the request: the first matched route registered for a method
 * (handlers; `app.use` middleware is registered for `ALL`), else `unmatched`.
 * @example routeTemplate(c) // "/api/public/token/:addressOrSlug/trades"
 */
function routeTemplate(c: Context): string {
  const handler = matchedRoutes(c).find((r) => r.method !== "ALL");
  return handler?.path ?? "unmatched";
}

/**
 * Requests being handled right now by this process.
 * @returns a count (0 when idle)
 */
export function requestsInFlight(): number {
  return inFlight;
}

/**
 * Resolves once no request is in flight, or after `timeoutMs`.
 * @param timeoutMs - upper bound of the wait, milliseconds
 * @returns `true` when drained, `false` on timeout (requests still running)
 */
export function drainRequests(timeoutMs: number): Promise<boolean> {
  if (inFlight === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    idleWaiters.push(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * The middleware; mount it first (after the request id) on `*`.
 * @param options.log - where request log entries go (absent: not logged)
 * @returns Hono middleware that never changes the response
 */
export function observeRequests(options: { log?: RequestLogger } = {}): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    inFlight++;
    metrics.httpInFlight.inc();
    try {
      await next();
    } finally {
      inFlight--;
      metrics.httpInFlight.dec();
      if (inFlight === 0) for (const wake of idleWaiters.splice(0)) wake();
      const seconds = (performance.now() - started) / 1000;
      const route = routeTemplate(c);
      const method = METHODS.has(c.req.method) ? c.req.method : "OTHER";
      const status = c.res.status;
      const surface = surfaceOf(route);
      const labels = { route, method, status: String(status), surface };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, seconds);
      const error = status >= 400 ? await errorCode(c.res) : undefined;
      if (error && method === "POST" && UPLOAD_ROUTE.test(route) && status < 500) recordUploadRejection(error);
      const key = (c.get as (name: string) => unknown)("apiKey") as { id?: string } | undefined;
      options.log?.(status >= 500 ? "error" : "info", {
        msg: "request",
        request_id: (c.get as (name: string) => unknown)("requestId") as string | undefined,
        method,
        route,
        path: c.req.path,
        status,
        surface,
        duration_ms: Math.round(seconds * 1e6) / 1000,
        ...(key?.id ? { key_id: key.id } : {}),
        ...(error ? { error_code: error } : {}),
      });
    }
  };
}

/** The `error` identifier of a JSON error body (`{ ok: false, error }`), else undefined. */
async function errorCode(res: Response): Promise<string | undefined> {
  if (!res.headers.get("content-type")?.includes("application/json")) return undefined;
  try {
    const body = (await res.clone().json()) as { error?: unknown };
    return typeof body.error === "string" && /^[a-z][a-z0-9_]{0,47}$/.test(body.error) ? body.error : undefined;
  } catch {
    return undefined;
  }
}
