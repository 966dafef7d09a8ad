/**
 * The one JSON serialisation path: bigints become decimal strings (amounts in wei or token base
 * units). Every layer that renders JSON text (the HTTP answers, the stream frames, the stored
 * idempotent responses) uses it; http/json.ts sends it.
 */

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
 * Canonical JSON: objects with keys sorted, no whitespace (RFC 8785 style for these values), so
 * equal values have equal text (request fingerprints, intent metadata hashes).
 * @example canonicalJson({ b: 1, a: [{ d: 2, c: null }] }) // '{"a":[{"c":null,"d":2}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/**
 * The value {@link toJsonText} would serialise, as a value: bigints become decimal strings,
 * `undefined` fields are dropped (and `undefined` array items become null), the rest is kept. For
 * readers in the same process (the pages) that want the wire shape without writing JSON text and
 * parsing it back.
 * @example jsonValue({ a: 1n, b: undefined, c: [2n] }) // { a: "1", c: ["2"] }
 */
export function jsonValue(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : jsonValue(item)));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) if (field !== undefined) out[key] = jsonValue(field);
    return out;
  }
  return value;
}
