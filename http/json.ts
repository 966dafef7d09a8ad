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

/** `Content-Type` of every JSON answer. */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * The exact text {@link sendOk} sends for `body`: `{ ok: true, ...body }`, bigint-safe.
 * @example okJsonText({ id: 1n }) // '{"ok":true,"id":"1"}'
 */
export function okJsonText(body: Record<string, unknown>): string {
  return toJsonText({ ok: true, ...body });
}

/**
 * Sends `{ ok: true, ...body }` as JSON (bigint-safe).
 * @param c - Hono context
 * @param body - response fields
 * @param status - HTTP status (default 200)
 */
export function sendOk(c: Context, body: Record<string, unknown>, status: ContentfulStatusCode = 200): Response {
  return c.body(okJsonText(body), status, { "content-type": JSON_CONTENT_TYPE });
}
