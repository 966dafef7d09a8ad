/**
 * Cache-Control and validators per endpoint (docs/public.md "Caching"): one table, read by the
 * middleware and by the OpenAPI document (http/openapi/document.ts), so what is sent is what is
 * documented.
 * - Public JSON reads get a strong `ETag` (SHA-1 of the uncompressed body, Hono's `hono/etag`)
 *   and answer `If-None-Match` with 304.
 * - Market reads move with every indexed block (~100 ms): `no-cache`, so a browser or CDN may
 *   store them but revalidates every time (the ETag makes that a 304 when nothing changed). A
 *   fresh-for-5-s policy left the pages' live polling and reloads showing trades seconds old.
 * - Anything per key or per session (`/api/v1`, the session surface) and the event streams are
 *   `no-store`, on every answer, errors included.
 * A route that sets its own `Cache-Control` (feeds, token list, DEX Screener adapter, media,
 * assets) keeps it; the table only fills the header in, except `no-store`, which always wins.
 */
import type { MiddlewareHandler } from "hono";
import { etag } from "hono/etag";

/** Market reads: stored, but revalidated on every use (ETag -> 304). */
export const MARKET_READ_CACHE_CONTROL = "public, no-cache";
/** Settings and descriptions that change only with a deploy. */
export const STATIC_READ_CACHE_CONTROL = "public, max-age=300";
/** Fingerprinted assets (`/assets/…?v=<hash>`): the URL changes when the content does. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** One row of the caching table. */
export type CachePolicy = {
  /** Hono-style path patterns: exact, or a prefix ending in `/*` (the prefix itself included). */
  paths: readonly string[];
  /** `Cache-Control` of 2xx answers (`no-store`: of every answer). */
  cacheControl: string;
  /** Whether answers carry an `ETag` and honour `If-None-Match` (304). */
  etag: boolean;
};

/** The table, first match wins; paths not listed get no `Cache-Control` from here. */
export const CACHE_POLICIES: readonly CachePolicy[] = [
  { paths: ["/api/public/stream/*"], cacheControl: "no-store", etag: false },
  { paths: ["/api/public/udf/time"], cacheControl: "no-store", etag: false },
  { paths: ["/api/v1/*"], cacheControl: "no-store", etag: false },
  { paths: ["/api/evm/evmchain/*"], cacheControl: "no-store", etag: false },
  {
    paths: ["/api/public/udf/config", "/api/public/integrations/evmchain/factories"],
    cacheControl: STATIC_READ_CACHE_CONTROL,
    etag: true,
  },
  { paths: ["/api/public"], cacheControl: STATIC_READ_CACHE_CONTROL, etag: true },
  { paths: ["/api/public/*", "/token-list/*", "/feed/*"], cacheControl: MARKET_READ_CACHE_CONTROL, etag: true },
  { paths: ["/api/openapi.json"], cacheControl: STATIC_READ_CACHE_CONTROL, etag: true },
];

const matches = (pattern: string, path: string) =>
  pattern.endsWith("/*") ? path === pattern.slice(0, -2) || path.startsWith(pattern.slice(0, -1)) : path === pattern;

/**
 * The policy of a request path (OpenAPI paths with `{param}` match as well).
 * @param path - e.g. `/api/public/tokens/new`
 * @returns the first matching row, or undefined
 */
export function cachePolicyOf(path: string): CachePolicy | undefined {
  return CACHE_POLICIES.find((policy) => policy.paths.some((pattern) => matches(pattern, path)));
}

/**
 * The caching middleware (mount outside the read cache, inside compression).
 * @returns the middleware
 */
export function cachePolicy(): MiddlewareHandler {
  const validators = etag();
  return async (c, next) => {
    const policy = cachePolicyOf(c.req.path);
    if (!policy) return next();
    const reading = c.req.method === "GET" || c.req.method === "HEAD";
    if (policy.etag && reading) await validators(c, next);
    else await next();
    if (policy.cacheControl === "no-store") c.res.headers.set("Cache-Control", "no-store");
    else if (
      ((c.res.status >= 200 && c.res.status < 300) || c.res.status === 304) &&
      !c.res.headers.has("Cache-Control")
    )
      c.res.headers.set("Cache-Control", policy.cacheControl);
  };
}
