/**
 * The response headers the document states for each operation and status (docs/openapi.md
 * "Response headers"). They are the headers a client acts on; transport headers (`Content-Type`,
 * `Content-Length`, `Date`, `Connection`, …), the pages' security headers and CORS headers are
 * described once in docs/openapi.md instead. The e2e harness fails on a response carrying one of
 * {@link API_RESPONSE_HEADERS} that its operation and status do not list
 * (test/helpers/contractProxy.ts).
 */
import type { OpenAPIV3_1 } from "openapi-types";

/** The headers with API meaning, lower-case: each must be documented where it is sent. */
export const API_RESPONSE_HEADERS = [
  "x-request-id",
  "ratelimit",
  "ratelimit-policy",
  "retry-after",
  "www-authenticate",
  "location",
  "idempotent-replayed",
  "x-cache",
  "etag",
  "last-modified",
  "cache-control",
  "set-cookie",
  "x-bars-retention-start-sec",
  "x-bars-from-clamped",
] as const;

type HeaderName = (typeof API_RESPONSE_HEADERS)[number];

const string = { type: "string" } as const;

/** The Header Object of each header (OpenAPI 3.1 §4.8.21). */
const HEADERS: Record<HeaderName, OpenAPIV3_1.HeaderObject> = {
  "x-request-id": {
    description: "This request's id (also in error bodies as `request_id`; quote it in reports).",
    schema: string,
  },
  ratelimit: {
    description:
      "The budget this request counted against (IETF RateLimit header fields, draft 7): `limit=60, remaining=59, reset=42` (reset in seconds).",
    schema: string,
  },
  "ratelimit-policy": {
    description: "The budget's policy: `60;w=60` (requests per window of seconds).",
    schema: string,
  },
  "retry-after": {
    description: "Seconds to wait before retrying (RFC 9110 §10.2.3).",
    schema: { type: "string", pattern: "^\\d+$" },
  },
  "www-authenticate": { description: "The authentication scheme to use (RFC 6750: `Bearer realm=…`).", schema: string },
  location: { description: "Where the resource is (RFC 9110 §10.2.2).", schema: string },
  "idempotent-replayed": {
    description: "`true` when this answer is the stored answer of an earlier request with the same `Idempotency-Key`.",
    schema: { type: "string", enum: ["true"] },
  },
  "x-cache": {
    description: "`hit` when served from the read cache (at the same indexed block), `miss` when computed.",
    schema: { type: "string", enum: ["hit", "miss"] },
  },
  etag: {
    description: "Entity tag of the body (RFC 9110 §8.8.3); send it back in `If-None-Match` for a 304.",
    schema: string,
  },
  "last-modified": { description: "When the content last changed (RFC 9110 §8.8.2).", schema: string },
  "cache-control": {
    description: "How long and by whom the answer may be cached (RFC 9111); chosen per endpoint (docs/public.md).",
    schema: string,
  },
  "set-cookie": { description: "The session cookie (HttpOnly, SameSite=Strict; Secure over HTTPS).", schema: string },
  "x-bars-retention-start-sec": {
    description:
      "Second bars (1s, 15s) only: the oldest bucket start served, unix seconds (the first bucket at or after the indexed head's block time − 86,400).",
    schema: { type: "string", pattern: "^\\d+$" },
  },
  "x-bars-from-clamped": {
    description:
      "Second bars only, when the requested window began before the retention: the `from` asked for (unix seconds); the bars start at `X-Bars-Retention-Start-Sec` instead.",
    schema: { type: "string", pattern: "^\\d+$" },
  },
};

/** The operations that serve candles (second bars carry the retention headers). */
const isCandlesPath = (path: string) => path.endsWith("/candles") || path === "/api/public/udf/history";

/** The routes the read cache serves (http/market/readCache.ts; mounted in http/app.ts). */
const READ_CACHED_PREFIXES = ["/api/public/token/", "/api/public/tokens/", "/api/public/trades/"];
/** Read-cached routes at a prefix's own path (`/tokens/*` matches `/tokens` in Hono): the batch read. */
const READ_CACHED_PATHS = ["/api/public/tokens"];

/** How each header is spelled in the document. */
const DISPLAY_NAMES: Record<HeaderName, string> = {
  "x-request-id": "X-Request-Id",
  ratelimit: "RateLimit",
  "ratelimit-policy": "RateLimit-Policy",
  "retry-after": "Retry-After",
  "www-authenticate": "WWW-Authenticate",
  location: "Location",
  "idempotent-replayed": "Idempotent-Replayed",
  "x-cache": "X-Cache",
  etag: "ETag",
  "last-modified": "Last-Modified",
  "cache-control": "Cache-Control",
  "set-cookie": "Set-Cookie",
  "x-bars-retention-start-sec": "X-Bars-Retention-Start-Sec",
  "x-bars-from-clamped": "X-Bars-From-Clamped",
};

/**
 * Which of {@link API_RESPONSE_HEADERS} a response may carry, by operation and status.
 * @example documentedHeaders("/api/v1/evmchain/launches/intent", "post", "429") // [..., "retry-after", ...]
 */
export function documentedHeaders(path: string, method: string, status: string): HeaderName[] {
  const names: HeaderName[] = ["x-request-id", "ratelimit", "ratelimit-policy", "cache-control"];
  const code = Number(status);
  if (code === 429 || code === 503 || code === 202 || code === 408 || code === 409) names.push("retry-after");
  // 401, and the 403 `insufficient_scope` of the key surface (RFC 6750 3.1: `error="insufficient_scope"`).
  if (code === 401 || (code === 403 && path.startsWith("/api/v1/"))) names.push("www-authenticate");
  if (code >= 300 && code < 400 && code !== 304) names.push("location");
  if (method === "post" && code < 300) names.push("idempotent-replayed");
  // ETag (and Vary) come from the caching table where validators apply (http/middleware/cachePolicy.ts,
  // documented by `applyCaching`); the feeds and the token list add Last-Modified themselves.
  const read = method === "get" && (code === 200 || code === 304);
  if (read && (path.startsWith("/feed/") || path.startsWith("/token-list/"))) names.push("last-modified");
  if (
    read &&
    code === 200 &&
    (READ_CACHED_PATHS.includes(path) || READ_CACHED_PREFIXES.some((prefix) => path.startsWith(prefix)))
  )
    names.push("x-cache");
  if (path.startsWith("/api/evm/evmchain/")) names.push("set-cookie");
  if (read && code === 200 && isCandlesPath(path)) names.push("x-bars-retention-start-sec", "x-bars-from-clamped");
  return names;
}

/**
 * Adds the Header Objects of {@link documentedHeaders} to every response of an operation.
 * @param path - the document's path (`/api/public/token/{address_or_slug}`)
 * @param method - lower-case method
 * @param operation - the operation, changed in place
 */
export function describeResponseHeaders(path: string, method: string, operation: OpenAPIV3_1.OperationObject): void {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const object = response as OpenAPIV3_1.ResponseObject;
    const headers: Record<string, OpenAPIV3_1.HeaderObject> = {
      ...(object.headers as Record<string, OpenAPIV3_1.HeaderObject>),
    };
    for (const name of documentedHeaders(path, method, status)) {
      const display = DISPLAY_NAMES[name];
      if (!Object.keys(headers).some((h) => h.toLowerCase() === name)) headers[display] = HEADERS[name];
    }
    object.headers = headers;
  }
}
