/**
 * CORS only where it belongs (docs/trust.md "CORS"): the public read surface may be read from any
 * origin; the session surface (cookies + CSRF), the key-authenticated `/api/v1` surface, the pages
 * and the operational routes grant no cross-origin access at all.
 *
 * Three parts:
 * - {@link publicCors}: hono's `cors()` on the public paths ({@link PUBLIC_CORS_PATHS}):
 *   `Access-Control-Allow-Origin: *`, GET/HEAD only, no credentials.
 * - {@link corsOnlyOnPublic}: removes every `Access-Control-*` header from the app's responses on
 *   any other path. Ponder's HTTP server wraps the whole app in `cors({ origin: "*" })` (Ponder
 *   0.17, `ponder/dist/esm/server/index.js`), which sets the header on the context's response
 *   before our routes run; this middleware runs after them and takes it off again.
 * - the same rule for what never reaches the app (Ponder's own preflight answers and operational
 *   routes) is a transport seam, ops/corsSeam.ts, given {@link isPublicCorsPath}.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

/**
 * Route patterns (hono `use` syntax) of the public read surface, the only paths that answer
 * cross-origin: the public API and its descriptor, the token list, the RSS feeds, uploaded media
 * and the OpenAPI document.
 */
export const PUBLIC_CORS_PATHS = [
  "/api/public",
  "/api/public/*",
  "/token-list/*",
  "/feed/*",
  "/media/*",
  "/api/openapi.json",
] as const;

/**
 * Whether a request path belongs to the public read surface ({@link PUBLIC_CORS_PATHS}).
 * @param path - URL path without query, e.g. `/api/public/tokens/new`
 * @example isPublicCorsPath("/feed/new-launches.xml") // true
 * @example isPublicCorsPath("/api/evm/evmchain/session") // false
 * @example isPublicCorsPath("/api/publicity") // false
 */
export function isPublicCorsPath(path: string): boolean {
  return PUBLIC_CORS_PATHS.some((p) => (p.endsWith("/*") ? path.startsWith(p.slice(0, -1)) : path === p));
}

/**
 * Response headers a cross-origin public client may read (rate limits, request id, caching, and
 * the second-bar retention of the candles answers).
 */
const EXPOSED_HEADERS = [
  "X-Request-Id",
  "RateLimit",
  "RateLimit-Policy",
  "Retry-After",
  "ETag",
  "Last-Modified",
  "X-Bars-Retention-Start-Sec",
  "X-Bars-From-Clamped",
];

/**
 * hono's `cors()` for the public read surface: any origin, `GET`/`HEAD`, no credentials, the
 * headers above exposed, preflight cached for a day. Mount it on each of {@link PUBLIC_CORS_PATHS}.
 * @example for (const p of PUBLIC_CORS_PATHS) app.use(p, publicCors())
 */
export function publicCors(): MiddlewareHandler {
  return cors({ origin: "*", allowMethods: ["GET", "HEAD"], exposeHeaders: EXPOSED_HEADERS, maxAge: 86_400 });
}

const isCorsHeader = (name: string) => /^access-control-/i.test(name);

/**
 * Removes `Access-Control-*` headers from the response of every non-public path (mount on `*`,
 * first). A wrapper that added `Access-Control-Allow-Origin: *` around the app (Ponder's server)
 * thereby grants nothing on the session and v1 surfaces.
 */
export function corsOnlyOnPublic(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (isPublicCorsPath(c.req.path)) return;
    for (const name of [...c.res.headers.keys()]) if (isCorsHeader(name)) c.res.headers.delete(name);
  };
}
