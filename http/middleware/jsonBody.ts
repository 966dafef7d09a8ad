/**
 * The one request-body parser (docs/trust.md "Request bodies"). `createApp` registers it for every
 * path before any router, so every POST, PUT and PATCH of every surface passes through it and a
 * new route cannot skip it:
 *
 * 1. size: `multipart/form-data` (the media upload, which checks its own bytes) is capped at
 *    {@link BODY_LIMITS}`.multipartMaxBytes` and passed on unread; any other body is JSON and
 *    capped at `jsonMaxBytes`, by `Content-Length` and by the bytes actually read (Hono's
 *    `bodyLimit`) -> 413 `body_too_large`;
 * 2. depth: a scan of the text that never recurses refuses nesting deeper than `maxDepth`
 *    before anything parses or walks it -> 400 `invalid_request`;
 * 3. shape: the body must be one JSON object (not empty, not an array, not a string) -> 400
 *    `invalid_request`;
 * 4. the safety rule (`http/middleware/forbidden.ts`): contract or calldata field names, private keys,
 *    extended private keys and seed phrases anywhere -> 400 `forbidden_field` (`tx_hash`,
 *    `signature` and `intent_signature` are exempt from the private-key shape only when they are
 *    exactly a hash / a signature);
 * 5. the text rules (`http/middleware/textRules.ts`): control characters, and invisible formatting
 *    characters in `name` and `symbol` -> 400 `invalid_request`.
 *
 * Nothing is read before the route's authentication and rate limits: the middleware only checks the
 * declared size (a `Content-Length` over the bound is refused unread) and leaves a one-time reader
 * on the context; {@link jsonBodyOf} runs steps 2-5 when the route (or its CSRF or idempotency
 * guard) first needs the body. So an anonymous request is refused from its headers and never holds
 * a connection for a body (ops/httpServerLimits.ts closes such a connection instead of draining
 * it). The text is read once: Hono's request keeps it (`c.req.text()` later reads the same cached
 * text) and the raw request gets the text back as its body.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../errors";
import { assertNoForbiddenFields, PUBLIC_HEX_FIELDS } from "./forbidden";
import { findBodyTextProblem } from "./textRules";
import { IMAGE_LIMITS } from "../../media/image";

/**
 * Bounds of request bodies. `jsonMaxBytes`: 64 KiB (the largest launch body is a few KiB; an
 * ERC-6492 signature can be a few KiB more). `maxDepth`: 16 levels of objects and arrays (the
 * deepest body today has 2). `multipartMaxBytes`: twice the image limit (the upload route cuts its
 * own body at the image limit + 64 KiB with `image_too_large`).
 */
export const BODY_LIMITS = {
  jsonMaxBytes: 64 * 1024,
  maxDepth: 16,
  multipartMaxBytes: 2 * IMAGE_LIMITS.maxBytes,
} as const;

/** Methods whose requests carry a body the parser checks. */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** Context variables set by {@link jsonBody}. */
export type JsonBodyVariables = {
  /** The one read of this request's JSON body (read and checked on first use; see {@link jsonBodyOf}). */
  jsonBodyRead?: () => Promise<Record<string, unknown>>;
};

/**
 * Whether JSON text nests objects/arrays deeper than `maxDepth`. One pass over the characters with
 * a counter (never recursion), skipping brackets inside strings; it does not validate the JSON.
 * @param text - the body text
 * @param maxDepth - deepest nesting accepted (1 = a flat object)
 * @example exceedsJsonDepth('{"a":{"b":1}}', 1) // true
 * @example exceedsJsonDepth('{"a":"{{{{"}', 1) // false
 */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (ch === 0x7d || ch === 0x5d) {
      depth--;
    }
  }
  return false;
}

function mediaType(c: Context): string {
  return (c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
}

function tooLarge(limit: number): never {
  throw new ApiError("body_too_large", `the request body is larger than ${limit} bytes`);
}

/**
 * Checks a JSON body's text and returns the parsed object (steps 2–5 of the module doc).
 * @param text - the body as read (UTF-8 decoded)
 * @param limits - `jsonMaxBytes` (bytes of UTF-8) and `maxDepth` (levels), default {@link BODY_LIMITS}
 * @returns the parsed object
 * @throws ApiError 413 `body_too_large`, 400 `invalid_request` / `forbidden_field`
 * @example checkJsonBodyText('{"name":"A"}') // { name: "A" }
 */
export function checkJsonBodyText(
  text: string,
  limits: Pick<typeof BODY_LIMITS, "jsonMaxBytes" | "maxDepth"> = BODY_LIMITS,
): Record<string, unknown> {
  if (Buffer.byteLength(text, "utf8") > limits.jsonMaxBytes) tooLarge(limits.jsonMaxBytes);
  if (exceedsJsonDepth(text, limits.maxDepth))
    throw new ApiError("invalid_request", `body: nested deeper than ${limits.maxDepth} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_request", "body: must be a JSON object (the body is not JSON)");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new ApiError("invalid_request", "body: must be a JSON object");
  assertNoForbiddenFields(value, PUBLIC_HEX_FIELDS);
  const problem = findBodyTextProblem(value);
  if (problem) throw new ApiError("invalid_request", problem);
  return value as Record<string, unknown>;
}

/**
 * The app-level body parser middleware (module doc). Register with `app.use("*", jsonBody())`
 * before the routers. It reads nothing: it refuses a declared `Content-Length` over the bound at
 * once (413, the body unread), bounds a body of unknown length as it streams, and leaves the one
 * read to {@link jsonBodyOf}, which the first consumer calls after the route's authentication and
 * rate limits have run (docs/trust.md "Request bodies").
 * @param limits - overrides of {@link BODY_LIMITS} (tests)
 */
export function jsonBody(
  limits: Partial<typeof BODY_LIMITS> = {},
): MiddlewareHandler<{ Variables: JsonBodyVariables }> {
  const bounds = { ...BODY_LIMITS, ...limits };
  const jsonLimit = bodyLimit({ maxSize: bounds.jsonMaxBytes, onError: () => tooLarge(bounds.jsonMaxBytes) });
  const multipartLimit = bodyLimit({
    maxSize: bounds.multipartMaxBytes,
    onError: () => tooLarge(bounds.multipartMaxBytes),
  });
  return async (c, next) => {
    if (!BODY_METHODS.has(c.req.method)) return next();
    if (mediaType(c) === "multipart/form-data") return multipartLimit(c, next);
    let read: Promise<Record<string, unknown>> | undefined;
    c.set("jsonBodyRead", () => {
      read ??= (async () => {
        let text: string;
        try {
          text = await c.req.text();
        } catch (err) {
          if (err instanceof ApiError) throw err; // the streaming size bound
          throw new ApiError("invalid_request", "body: could not be read");
        }
        const body = checkJsonBodyText(text, bounds);
        // The stream is read; a route that reads the raw request again (Hono's `bodyLimit` on the
        // upload route) gets a fresh copy of the same text instead of a locked stream (a 500).
        c.req.raw = new Request(c.req.raw, { body: text });
        return body;
      })();
      return read;
    });
    return jsonLimit(c, next);
  };
}

/**
 * Reads, checks and parses this request's JSON body once (steps 1-5 of the module doc); later
 * calls return the same object. Call it only after the route's authentication and rate limits:
 * nothing reads a body before that (test/chain/body.test.ts).
 * @returns the JSON object
 * @throws ApiError 413 `body_too_large`, 400 `invalid_request` / `forbidden_field`; 400
 *   `invalid_request` when the request carries no JSON body (a bodiless method, multipart)
 * @example const body = await jsonBodyOf(c); // { name: "Alpha", … }
 */
export async function jsonBodyOf(c: Context): Promise<Record<string, unknown>> {
  const read = c.get("jsonBodyRead") as JsonBodyVariables["jsonBodyRead"];
  if (!read) throw new ApiError("invalid_request", "body: must be a JSON object (Content-Type: application/json)");
  return read();
}
