/**
 * The error catalogue: every `error` identifier the API returns, its HTTP status and meaning.
 * Every failure leaves through {@link ApiError} and the app's single `onError`, which renders the
 * spec's error body `{ ok: false, error, message }` (spec: Errors).
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Identifier -> HTTP status and meaning. Documented in README "Errors". */
export const ERROR_CATALOGUE = {
  invalid_request: { status: 400, meaning: "A parameter or body field is missing or malformed; `message` names it." },
  invalid_address: { status: 400, meaning: "An address is not a 20-byte hex address." },
  invalid_resolution: { status: 400, meaning: "Unknown candle resolution." },
  invalid_range: { status: 400, meaning: "`from`/`to` are not a valid unix-seconds range within the bucket limit." },
  token_not_found: { status: 404, meaning: "No launched token has this address or slug." },
  not_found: { status: 404, meaning: "No such endpoint." },
  internal_error: { status: 500, meaning: "Unexpected server fault; safe to retry." },
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
