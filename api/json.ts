/**
 * The one JSON serialisation path: bigints become decimal strings (amounts in wei or token base
 * units), so handlers never call `c.json` with raw rows.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * Serialises `value` with bigints as decimal strings.
 * @example toJsonText({ a: 1n }) // '{"a":"1"}'
 */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v));
}

/**
 * Sends `{ ok: true, ...body }` as JSON (bigint-safe).
 * @param c - Hono context
 * @param body - response fields
 * @param status - HTTP status (default 200)
 */
export function sendOk(c: Context, body: Record<string, unknown>, status: ContentfulStatusCode = 200): Response {
  return c.body(toJsonText({ ok: true, ...body }), status, { "content-type": "application/json; charset=utf-8" });
}
