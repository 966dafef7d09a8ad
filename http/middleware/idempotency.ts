/**
 * `Idempotency-Key` middleware (IETF draft-ietf-httpapi-idempotency-key-header), reusable by any
 * POST that creates something (the launch intent, the coin flow's draft):
 *
 * - missing header -> 400 `idempotency_key_missing`; not 1–255 visible ASCII characters (an
 *   RFC 8941 sf-string `"…"` is unquoted first) -> 400 `idempotency_key_invalid`;
 * - the key is scoped per API key; the fingerprint is SHA-256 over method, path and the
 *   canonical JSON of the body (object keys sorted, so formatting and key order do not matter);
 * - the key is reserved atomically in the store (insert-if-absent) before the handler runs, so
 *   concurrent duplicates never do the work twice;
 * - same key + same fingerprint after completion -> the stored response replayed byte for byte
 *   (status, `Content-Type`, body) with `Idempotent-Replayed: true`;
 * - same key + different fingerprint -> 422 `idempotency_key_mismatch`;
 * - same key while the first request is still running -> 409 `idempotency_in_progress`;
 * - only 2xx responses are stored; any other outcome releases the key (a retry runs again and
 *   nothing is kept for a rejected request);
 * - records are kept 24 hours from the first request (`IDEMPOTENCY_TTL_MS`), then the key may be
 *   reused; a reservation whose request died is taken over after 60 s. The reservation's lock time
 *   is a fencing token: a request whose key was taken over can neither complete nor release it;
 * - a handler whose writes must happen exactly once stores its response in the same transaction
 *   as those writes (`commitIdempotentResponse`), so a crash leaves both or neither.
 */
import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { Store } from "../../store/index";
import {
  completeIdempotencyKey,
  releaseIdempotencyKey,
  reserveIdempotencyKey,
  type IdempotencyClaim,
} from "../../store/idempotency";
import { ApiError } from "../errors";
import { canonicalJson, JSON_CONTENT_TYPE } from "../../src/domain/json";
import type { TrustEnv } from "./context";
import { jsonBodyOf } from "./jsonBody";

/**
 * A request's reservation of its `Idempotency-Key` (on the context as `idempotency`); `committed`
 * once the handler stored its response in its own transaction ({@link commitIdempotentResponse}).
 */
export type IdempotencyHold = IdempotencyClaim & { committed: boolean };

/** Request header name. */
const IDEMPOTENCY_HEADER = "Idempotency-Key";

/**
 * Parses an `Idempotency-Key` value.
 * @returns the key, `null` when absent, or `"invalid"`
 * @example parseIdempotencyKey('"abc-123"') // "abc-123"
 */
export function parseIdempotencyKey(raw: string | undefined): string | null | "invalid" {
  if (raw === undefined) return null;
  let value = raw.trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  if (value.length < 1 || value.length > 255 || !/^[\x21-\x7e]+$/.test(value)) return "invalid";
  return value;
}

/**
 * SHA-256 (hex) fingerprint of a request: method, path and the canonical body (raw bytes when
 * the body is not JSON).
 */
export function requestFingerprint(method: string, path: string, rawBody: string): string {
  let canonical: string;
  try {
    canonical = canonicalJson(JSON.parse(rawBody));
  } catch {
    canonical = rawBody;
  }
  return createHash("sha256").update(`${method} ${path}\n${canonical}`, "utf8").digest("hex");
}

/**
 * The middleware. Mount after authentication.
 * @param options.scope - the idempotency scope of the request (default: the API key's id)
 */
export function idempotency(options: {
  getStore: () => Promise<Store>;
  scope?: (c: Context<TrustEnv>) => string;
}): MiddlewareHandler<TrustEnv> {
  return async (c, next) => {
    const parsed = parseIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
    if (parsed === null)
      throw new ApiError(
        "idempotency_key_missing",
        `send an ${IDEMPOTENCY_HEADER} header (1-255 visible ASCII characters)`,
      );
    if (parsed === "invalid")
      throw new ApiError("idempotency_key_invalid", `${IDEMPOTENCY_HEADER} must be 1-255 visible ASCII characters`);
    const scope = options.scope ? options.scope(c) : c.get("apiKey")?.id;
    if (!scope) throw new ApiError("missing_api_key", "idempotency keys are scoped per API key");
    const store = await options.getStore();
    // The body is read (and checked) here, after the key's authentication and limits.
    await jsonBodyOf(c);
    const fingerprint = requestFingerprint(c.req.method, c.req.path, await c.req.text());
    const reservation = await reserveIdempotencyKey(store, { scope, key: parsed, fingerprint });
    if (reservation.kind === "mismatch") {
      throw new ApiError("idempotency_key_mismatch", `this ${IDEMPOTENCY_HEADER} was used with a different request`);
    }
    if (reservation.kind === "in_flight") {
      c.header("Retry-After", "1");
      throw new ApiError("idempotency_in_progress", `a request with this ${IDEMPOTENCY_HEADER} is still in progress`);
    }
    if (reservation.kind === "completed") {
      const { record } = reservation;
      c.header("Idempotent-Replayed", "true");
      if (record.responseContentType) c.header("Content-Type", record.responseContentType);
      return c.body(
        (record.responseBody ?? new Uint8Array()) as Uint8Array<ArrayBuffer>,
        (record.responseStatus ?? 200) as 200,
      );
    }
    const claim = { scope, key: parsed, lockedUntilMs: reservation.lockedUntilMs, committed: false };
    c.set("idempotency", claim);
    let stored = false;
    try {
      await next();
      const res = c.res;
      if (claim.committed) {
        stored = true;
      } else if (res.status >= 200 && res.status < 300) {
        const body = new Uint8Array(await res.clone().arrayBuffer());
        // False only when the key was taken over meanwhile: the other request owns the record now.
        await completeIdempotencyKey(store, {
          ...claim,
          status: res.status,
          contentType: res.headers.get("content-type"),
          body,
        });
        stored = true;
      }
    } finally {
      if (!stored) await releaseIdempotencyKey(store, claim).catch(() => undefined);
    }
  };
}

/**
 * Stores this request's 2xx response in its `Idempotency-Key` record inside the handler's own
 * transaction `tx`, so the response commits or rolls back with the request's writes: a crash
 * before the commit leaves nothing (the retry, once the key is taken over, runs afresh), a crash
 * after it leaves the response (the retry replays it). No-op without a claim (a route without
 * {@link idempotency}).
 * @param claim - the request's claim (`c.get("idempotency")`, set by {@link idempotency}); marked committed
 * @param tx - the handler's transaction (`inTransaction`)
 * @param response - the status and the exact JSON text the route then sends (`okJsonText`)
 * @throws ApiError `idempotency_in_progress` (409) when the key was taken over meanwhile (this
 *   request's lock ran out); the caller's transaction then rolls back
 */
export async function commitIdempotentResponse(
  claim: IdempotencyHold | undefined,
  tx: Store,
  response: { status: number; jsonText: string },
): Promise<void> {
  if (!claim) return;
  const held = await completeIdempotencyKey(tx, {
    ...claim,
    status: response.status,
    contentType: JSON_CONTENT_TYPE,
    body: new TextEncoder().encode(response.jsonText),
  });
  if (!held)
    throw new ApiError(
      "idempotency_in_progress",
      `another request took this ${IDEMPOTENCY_HEADER} over; retry to get its answer`,
    );
  claim.committed = true;
}
