/**
 * Text hygiene for third-party outputs (RSS, token lists): token names and symbols are chosen by
 * whoever launches a token, so they may carry anything a string can.
 */

/** Characters XML 1.0 forbids (C0 controls except TAB/LF/CR, U+FFFE, U+FFFF) and C1 controls. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/g;

/** Bidirectional formatting characters (RLM/LRM, embeddings, overrides, isolates, ALM). */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Lone UTF-16 surrogates (not representable in UTF-8 XML). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Removes control characters, bidi overrides/marks and lone surrogates, and collapses every run
 * of whitespace to one space (trimmed). Markup characters (`<`, `&`, `]]>`) are kept: escaping
 * them is the serialiser's job.
 * @param value - untrusted text
 * @returns display-safe text (possibly empty)
 * @example cleanText("a\u202E<b>\u0000 c") // "a<b> c"
 */
export function cleanText(value: string): string {
  return value.replace(LONE_SURROGATE, "").replace(CONTROL, "").replace(BIDI, "").replace(/\s+/gu, " ").trim();
}

/**
 * Cuts `value` to at most `max` code points (never splitting a surrogate pair).
 * @example truncateCodePoints("🚀🚀🚀", 2) // "🚀🚀"
 */
export function truncateCodePoints(value: string, max: number): string {
  const points = Array.from(value);
  return points.length <= max ? value : points.slice(0, max).join("");
}
