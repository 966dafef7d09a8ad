/**
 * Sends JSON answers through the one serialisation path (src/domain/json.ts): bigints become
 * decimal strings, so handlers never call `c.json` with raw rows.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { JSON_CONTENT_TYPE, okJsonText } from "../src/domain/json";

/**
 * Sends `{ ok: true, ...body }` as JSON (bigint-safe).
 * @param c - Hono context
 * @param body - response fields
 * @param status - HTTP status (default 200)
 */
export function sendOk(c: Context, body: Record<string, unknown>, status: ContentfulStatusCode = 200): Response {
  return c.body(okJsonText(body), status, { "content-type": JSON_CONTENT_TYPE });
}
