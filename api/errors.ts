/**
 * The error catalogue: every `error` identifier the API returns, its HTTP status and meaning.
 * Every failure leaves through {@link ApiError} and the app's single `onError`, which renders the
 * spec's error body `{ ok: false, error, message }` (spec: Errors).
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { IMAGE_ERROR_CODES } from "./media/image";

/** Identifier -> HTTP status and meaning. Documented in README "Errors". */
export const ERROR_CATALOGUE = {
  invalid_request: { status: 400, meaning: "A parameter or body field is missing or malformed; `message` names it." },
  invalid_address: { status: 400, meaning: "An address is not a 20-byte hex address." },
  invalid_resolution: { status: 400, meaning: "Unknown candle resolution." },
  invalid_range: { status: 400, meaning: "`from`/`to` are not a valid unix-seconds range within the bucket limit." },
  token_not_found: { status: 404, meaning: "No launched token has this address or slug." },
  invalid_cursor: { status: 400, meaning: "`cursor` is not a cursor this endpoint issued." },
  token_list_empty: { status: 404, meaning: "No confirmed launch yet: a token list needs at least one token." },
  nothing_to_claim: { status: 409, meaning: "The wallet's launch positions have no uncollected fees at the stated block." },
  not_indexed_yet: { status: 503, meaning: "The indexer has not recorded a block yet; retry shortly." },
  chain_unavailable: { status: 503, meaning: "The chain RPC did not answer; safe to retry." },
  not_found: { status: 404, meaning: "No such endpoint." },
  internal_error: { status: 500, meaning: "Unexpected server fault; safe to retry." },
  // Trust layer (docs/trust.md)
  missing_api_key: { status: 401, meaning: "No `Authorization: Bearer <API_KEY>` header on a key-authenticated endpoint." },
  invalid_api_key: { status: 401, meaning: "The bearer key is malformed, unknown or revoked." },
  insufficient_scope: { status: 403, meaning: "The key lacks the scope this endpoint requires; `message` names it." },
  csrf_failed: { status: 403, meaning: "A session POST without a valid, matching CSRF token (header and body), a valid session cookie, a JSON body, or from another origin; nothing changed." },
  rate_limited: { status: 429, meaning: "Too many requests in the current window; retry after `Retry-After` seconds." },
  quota_exceeded: { status: 429, meaning: "The key's daily quota (UTC day) is used up; retry after `Retry-After` seconds." },
  idempotency_key_missing: { status: 400, meaning: "This endpoint requires an `Idempotency-Key` header." },
  idempotency_key_invalid: { status: 400, meaning: "`Idempotency-Key` must be 1-255 visible ASCII characters (optionally as a quoted string)." },
  idempotency_key_mismatch: { status: 422, meaning: "This `Idempotency-Key` was already used with a different request body or endpoint." },
  idempotency_in_progress: { status: 409, meaning: "A request with this `Idempotency-Key` is still being processed; retry shortly." },
  forbidden_field: { status: 400, meaning: "The body names a contract address or calldata (factory, router, pool, fee locker, to, data) or carries what looks like a private key or seed phrase; nothing was stored." },
  invalid_image_url: { status: 400, meaning: "`image_url` is not an image this service issued from its upload endpoint." },
  challenge_not_found: { status: 400, meaning: "No open key challenge for this wallet in this session (expired, already used, or never requested)." },
  invalid_signature: { status: 401, meaning: "The signature does not verify for the wallet and message." },
  media_not_found: { status: 404, meaning: "No uploaded image has this URL." },
  service_unavailable: { status: 503, meaning: "A dependency (store, RPC) is unavailable; safe to retry." },
  // Media upload (api/media/image.ts)
  image_missing: { status: 400, meaning: IMAGE_ERROR_CODES.image_missing },
  image_too_large: { status: 400, meaning: IMAGE_ERROR_CODES.image_too_large },
  image_type_unsupported: { status: 400, meaning: IMAGE_ERROR_CODES.image_type_unsupported },
  image_corrupt: { status: 400, meaning: IMAGE_ERROR_CODES.image_corrupt },
  image_dimensions_exceeded: { status: 400, meaning: IMAGE_ERROR_CODES.image_dimensions_exceeded },
  image_polyglot: { status: 400, meaning: IMAGE_ERROR_CODES.image_polyglot },
} as const satisfies Record<string, { status: ContentfulStatusCode; meaning: string }>;

/** An error identifier from the catalogue. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * An API failure with a catalogue identifier; its status comes from the catalogue.
 * @example throw new ApiError("token_not_found", "no token 0xabc…")
 */
export class ApiError extends HTTPException {
  override readonly name = "ApiError";
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(ERROR_CATALOGUE[code].status, { message });
  }
}

/** The spec's error body. */
export type ErrorBody = { ok: false; error: ErrorCode; message: string; request_id?: string };
