/**
 * Character rules on every string of every request body (docs/trust.md "Text rules"), applied by
 * the app's JSON body parser (`http/middleware/jsonBody.ts`) so they hold for every route that
 * carries a field, today's and tomorrow's:
 *
 * - no control characters anywhere (keys and values): C0 (U+0000–U+001F), DEL (U+007F), C1
 *   (U+0080–U+009F), the line and paragraph separators (U+2028, U+2029), and no unpaired UTF-16
 *   surrogate (PostgreSQL refuses the NUL byte; a lone surrogate is not text). Only a field named
 *   `description` may hold `\n` and `\t`;
 * - no format characters (Unicode general category Cf) in the fields a wallet signs or a page shows
 *   as identity or link ({@link IDENTITY_FIELDS}: `name`, `symbol`, the metadata URLs, a key's
 *   `label`): bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), marks (U+200E,
 *   U+200F, U+061C), zero-width characters (U+200B–U+200D, U+2060, U+FEFF) and the rest of the
 *   category. They make a name or a link read differently from what the signer's wallet shows
 *   (`https://x.com/\u202eyekcoj_laer` reads `…/real_jockey`);
 * - no bidirectional embeddings, overrides or isolates in the `description` ({@link PROSE_FIELDS};
 *   direction marks and zero-width joiners stay for right-to-left prose, emoji and scripts).
 */

/** Controls refused everywhere (before the description exception). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|\p{Cs}/u;
/** Controls refused in a `description` (`\n` and `\t` allowed). */
const CONTROL_IN_DESCRIPTION = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]|\p{Cs}/u;
/** Format characters (bidi controls, zero-width characters, BOM, …). */
const FORMAT = /\p{Cf}/u;

/** Field names whose text may hold `\n` and `\t`. */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set(["description"]);
/**
 * Fields a wallet signs (the intent message states them) or a page renders, where every format
 * character is refused: a token's identity, its links and a key's label.
 */
export const IDENTITY_FIELDS: ReadonlySet<string> = new Set([
  "name",
  "symbol",
  "image_url",
  "website_url",
  "twitter_url",
  "telegram_url",
  "label",
]);
/**
 * Prose a wallet signs and a page renders (the description): the bidirectional controls that
 * reorder text are refused; the direction marks (U+200E, U+200F, U+061C) and zero-width joiners
 * stay (right-to-left prose, emoji sequences and several scripts need them).
 */
export const PROSE_FIELDS: ReadonlySet<string> = new Set(["description"]);
/** Bidirectional embeddings, overrides and isolates: they reorder the text that follows them. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/u;

/**
 * Whether `text` holds a character no request text may hold: C0, DEL, C1, the line and paragraph
 * separators, or a lone surrogate (the rule of every body string, also applied to query parameters
 * and paths by http/middleware/queryText.ts).
 * @example hasControlCharacter("a\u0000b") // true
 */
export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/** A problem found in one string. */
export type TextProblem = "control_character" | "format_character";

/**
 * The first rule `text` breaks as the value of field `field` (the last path segment), or `null`.
 * @param field - the field name (`description`, `name`, …; `""` for an array item or a key)
 * @example findTextProblem("name", "Safe\u202eCoin") // "format_character"
 * @example findTextProblem("description", "line 1\nline 2") // null
 */
export function findTextProblem(field: string, text: string): TextProblem | null {
  if ((MULTILINE_FIELDS.has(field) ? CONTROL_IN_DESCRIPTION : CONTROL).test(text)) return "control_character";
  if (IDENTITY_FIELDS.has(field) && FORMAT.test(text)) return "format_character";
  if (PROSE_FIELDS.has(field) && BIDI.test(text)) return "format_character";
  return null;
}

/**
 * Finds the first string (value or key) of a parsed JSON body that breaks a text rule. Walks with
 * an explicit stack, never recursion.
 * @returns a message naming the field and the rule (the text itself is not echoed), or `null`
 * @example findBodyTextProblem({ description: "\u0000" }) // "description: must not contain control characters …"
 */
export function findBodyTextProblem(body: unknown): string | null {
  const stack: Array<[unknown, string, string]> = [[body, "", ""]];
  while (stack.length > 0) {
    const [value, path, field] = stack.pop()!;
    if (typeof value === "string") {
      const problem = findTextProblem(field, value);
      if (problem === "control_character") {
        const allowed = MULTILINE_FIELDS.has(field) ? " other than \\n and \\t" : "";
        return `${path || "body"}: must not contain control characters${allowed}`;
      }
      if (problem === "format_character")
        return `${path}: must not contain bidirectional, zero-width or other invisible formatting characters`;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[${i}]`, ""]);
    } else if (value && typeof value === "object") {
      const entries = Object.entries(value);
      for (const [key] of entries) {
        if (findTextProblem("", key)) return `${path || "body"}: a field name contains control characters`;
      }
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        stack.push([item, path ? `${path}.${key}` : key, key]);
      }
    }
  }
  return null;
}
