/**
 * The service's plain wording for a failed schema check (docs/errors.md): zod's own English
 * messages ("Invalid input: expected string, received array", "Too big: expected string to have
 * <=400 characters") name library types, not what a client should send. A message a schema gives
 * itself always wins; this map words everything else. Installed once, process-wide, by
 * {@link useServiceWording} (http/validation.ts calls it).
 */
import { z } from "zod";

type Issue = z.core.$ZodRawIssue;

/** Says what kind of value a zod type name asks for. */
function kindOf(expected: string): string {
  switch (expected) {
    case "string":
      return "a string";
    case "number":
    case "int":
    case "bigint":
      return "a number";
    case "boolean":
      return "true or false";
    case "object":
      return "a JSON object";
    case "array":
      return "a list";
    default:
      return `a ${expected}`;
  }
}

/** Names a value's kind as a client sees it (a repeated query parameter arrives as a list). */
function receivedOf(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "a list";
  return typeof input === "object" ? "an object" : typeof input;
}

/** The unit of a size bound: characters of a string, items of a list, keys of an object. */
function unitOf(origin: string): string {
  if (origin === "string") return " characters";
  if (origin === "array" || origin === "set") return " items";
  return "";
}

/**
 * The plain message of one schema issue, without the field name (the validator prefixes it), or
 * `undefined` for an issue this map does not word (zod's own message is kept).
 * @example plainIssueMessage({ code: "invalid_type", expected: "string", input: ["a", "b"] }) // "must be given once, as a string (got a list)"
 * @example plainIssueMessage({ code: "too_big", origin: "string", maximum: 400, inclusive: true }) // "must be at most 400 characters"
 * @example plainIssueMessage({ code: "unrecognized_keys", keys: ["extra"] }) // 'unknown field "extra" (not accepted here)'
 */
export function plainIssueMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "missing (required)";
      if (Array.isArray(issue.input) && issue.expected !== "array")
        return `must be given once, as ${kindOf(issue.expected)} (got a list)`;
      return `must be ${kindOf(issue.expected)} (got ${receivedOf(issue.input)})`;
    }
    case "too_big": {
      const bound = String(issue.maximum);
      return issue.inclusive === false
        ? `must be less than ${bound}${unitOf(issue.origin)}`
        : `must be at most ${bound}${unitOf(issue.origin)}`;
    }
    case "too_small": {
      const bound = String(issue.minimum);
      if (issue.origin === "string" && bound === "1") return "must not be empty";
      return issue.inclusive === false
        ? `must be more than ${bound}${unitOf(issue.origin)}`
        : `must be at least ${bound}${unitOf(issue.origin)}`;
    }
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")} (not accepted here)`;
    case "invalid_format":
      return issue.format === "regex" ? "is malformed" : `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "invalid_union":
    case "invalid_key":
    case "invalid_element":
      return "is malformed";
    default:
      return undefined;
  }
}

let installed = false;

/**
 * Installs {@link plainIssueMessage} as zod's process-wide error map (zod 4 `z.config`). Idempotent.
 * Messages set on a schema keep precedence over it (zod's order: schema, parse call, global).
 */
export function useServiceWording(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: (issue) => plainIssueMessage(issue) });
}
