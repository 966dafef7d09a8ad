/**
 * HTTP conditional GET for feeds (RFC 9110 §13): a strong `ETag` (SHA-256 of the body),
 * `Last-Modified`, `Cache-Control`, and 304 Not Modified when `If-None-Match` matches (or, when
 * absent, `If-Modified-Since` is not older than `Last-Modified`).
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";

/** Seconds a client or cache may reuse a feed response. */
const FEED_MAX_AGE_SEC = 15;

/**
 * Sends `body` with validators and caching headers, or an empty 304.
 * @param lastModifiedSec - unix seconds of the newest entry (omit when unknown)
 */
export function sendConditional(c: Context, body: string, contentType: string, lastModifiedSec?: number): Response {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  const headers: Record<string, string> = {
    ETag: etag,
    "Cache-Control": `public, max-age=${FEED_MAX_AGE_SEC}`,
    ...(lastModifiedSec !== undefined && lastModifiedSec > 0
      ? { "Last-Modified": new Date(lastModifiedSec * 1000).toUTCString() }
      : {}),
  };
  const inm = c.req.header("if-none-match");
  const ims = c.req.header("if-modified-since");
  let notModified = false;
  if (inm !== undefined) {
    notModified = inm.split(",").some((t) => t.trim() === "*" || t.trim().replace(/^W\//, "") === etag);
  } else if (ims !== undefined && headers["Last-Modified"]) {
    const since = Date.parse(ims);
    notModified = Number.isFinite(since) && (lastModifiedSec ?? 0) * 1000 <= since;
  }
  if (notModified) return c.body(null, 304, headers);
  return c.body(body, 200, { ...headers, "Content-Type": contentType });
}
