/**
 * The error catalogue: every `error` identifier the API returns, its HTTP status and meaning.
 * Every failure leaves through {@link ApiError} and the app's single `onError`, which renders the
 * spec's error body `{ ok: false, error, message }` (spec: Errors).
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { IMAGE_ERROR_CODES } from "../media/image";

/** Identifier -> HTTP status and meaning. Documented in README "Errors". */
export const ERROR_CATALOGUE = {
  invalid_request: {
    status: 400,
    meaning:
      "A parameter or body field is missing or malformed (including a body that is not one JSON object, nests deeper than 16 levels, or holds control characters or, in `name`/`symbol`, invisible formatting characters); `message` names it.",
  },
  body_too_large: {
    status: 413,
    meaning: "The request body is larger than the limit (64 KiB for JSON, 4 MiB for multipart); nothing changed.",
  },
  invalid_address: { status: 400, meaning: "An address is not a 20-byte hex address." },
  invalid_resolution: { status: 400, meaning: "Unknown candle resolution." },
  invalid_range: { status: 400, meaning: "`from`/`to` are not a valid unix-seconds range within the bucket limit." },
  out_of_retention: {
    status: 400,
    meaning:
      "Second bars (`1s`, `15s`) are kept for 24 h before the indexed head's block time and the whole requested range is older; `message` names the oldest bar served. A range straddling the edge is clamped, not refused.",
  },
  token_not_found: { status: 404, meaning: "No launched token has this address or slug." },
  invalid_cursor: {
    status: 400,
    meaning: "`cursor` is not a cursor this endpoint issued (or a stream's `Last-Event-ID` is not an id it sent).",
  },
  token_list_empty: { status: 404, meaning: "No confirmed launch yet: a token list needs at least one token." },
  nothing_to_claim: {
    status: 409,
    meaning: "The wallet's launch positions have no uncollected fees at the stated block.",
  },
  not_indexed_yet: { status: 503, meaning: "The indexer has not recorded a block yet; retry shortly." },
  chain_unavailable: { status: 503, meaning: "The chain RPC did not answer; safe to retry." },
  not_found: { status: 404, meaning: "No such endpoint." },
  internal_error: { status: 500, meaning: "Unexpected server fault; safe to retry." },
  // Trust layer (docs/trust.md)
  missing_api_key: {
    status: 401,
    meaning: "No `Authorization: Bearer <API_KEY>` header on a key-authenticated endpoint.",
  },
  invalid_api_key: { status: 401, meaning: "The bearer key is malformed, unknown or revoked." },
  insufficient_scope: { status: 403, meaning: "The key lacks the scope this endpoint requires; `message` names it." },
  csrf_failed: {
    status: 403,
    meaning:
      "A session POST without a valid, matching CSRF token (header and body), a valid session cookie, a JSON body, or from another origin; nothing changed.",
  },
  rate_limited: { status: 429, meaning: "Too many requests in the current window; retry after `Retry-After` seconds." },
  too_many_streams: {
    status: 429,
    meaning:
      "This client IP already holds the maximum number of open event streams (`STREAM_MAX_PER_IP`, default 5), or the service its maximum (`STREAM_MAX_CONNECTIONS`); close one, or retry after `Retry-After` seconds.",
  },
  quota_exceeded: {
    status: 429,
    meaning:
      "The daily coin quota of the key's wallet (all its keys together, UTC day), or of this client IP (all its wallets and keys together), is used up; retry after `Retry-After` seconds. Nothing was created.",
  },
  key_limit_reached: {
    status: 409,
    meaning: "The wallet already holds the maximum number of active API keys; revoke one first. Nothing was created.",
  },
  session_limit_reached: {
    status: 429,
    meaning:
      "This browser session holds the maximum number of open key challenges or session builds, or this client created too many sessions; finish or wait for them to expire (`Retry-After`). Nothing was created.",
  },
  idempotency_key_missing: { status: 400, meaning: "This endpoint requires an `Idempotency-Key` header." },
  idempotency_key_invalid: {
    status: 400,
    meaning: "`Idempotency-Key` must be 1-255 visible ASCII characters (optionally as a quoted string).",
  },
  idempotency_key_mismatch: {
    status: 422,
    meaning: "This `Idempotency-Key` was already used with a different request body or endpoint.",
  },
  idempotency_in_progress: {
    status: 409,
    meaning: "A request with this `Idempotency-Key` is still being processed; retry shortly.",
  },
  forbidden_field: {
    status: 400,
    meaning:
      "The body names a contract address or calldata (factory, router, pool, fee locker, to, data) or carries what looks like key material (a private key, a BIP-32 extended private key, or a run of 12+ BIP-39 words) in any field; the secret is not echoed and nothing was stored.",
  },
  invalid_image_url: {
    status: 400,
    meaning: "`image_url` is not an image this service issued from its upload endpoint.",
  },
  challenge_not_found: {
    status: 400,
    meaning: "No open sign-in challenge for this wallet in this session (expired, already used, or never requested).",
  },
  sign_in_required: {
    status: 403,
    meaning:
      "This browser session has not signed in with a wallet (Sign-In with Ethereum, EIP-4361): POST /api/evm/evmchain/sign-in/challenge, sign the message, POST /api/evm/evmchain/sign-in; nothing changed.",
  },
  wallet_mismatch: {
    status: 403,
    meaning:
      "The session signed in with (or the API key belongs to) another wallet than the request's `creator` / `wallet`: it acts only for the wallet it proved; nothing changed.",
  },
  invalid_signature: { status: 401, meaning: "The signature does not verify for the wallet and message." },
  media_not_found: { status: 404, meaning: "No uploaded image has this URL." },
  metrics_unauthorized: {
    status: 401,
    meaning:
      "`GET /metrics` needs `Authorization: Bearer <METRICS_TOKEN>` (answered in front of the app by ops/metrics/access.ts).",
  },
  service_unavailable: {
    status: 503,
    meaning:
      "A dependency (store, RPC, the indexed data) is unavailable; nothing was served from it. Safe to retry after `Retry-After`.",
  },
  media_quota_exceeded: {
    status: 429,
    meaning:
      "The wallet's keys stored `MEDIA_BYTES_PER_WALLET_PER_DAY` bytes of images in the last 24 hours; nothing was stored. Retry after `Retry-After` seconds.",
  },
  request_timeout: {
    status: 408,
    meaning:
      "The request body arrived slower than the server's minimum rate (`HTTP_BODY_MIN_BYTES_PER_SEC` after `HTTP_BODY_GRACE_MS`); the connection is closed (answered in front of the app by ops/httpServerLimits.ts).",
  },
  too_many_connections: {
    status: 429,
    meaning:
      "This client already holds `HTTP_MAX_CONNECTIONS_PER_CLIENT` open connections; the new one is answered and closed before its request is read (ops/httpServerLimits.ts). Retry after `Retry-After`.",
  },
  // Launch write path (docs/launch.md)
  launch_not_found: {
    status: 404,
    meaning:
      "No launch (or coin draft, or session build) with this id, transaction hash or creator is visible to the caller.",
  },
  intent_expired: {
    status: 410,
    meaning:
      "The launch intent expired before it was built (15 minutes after issue); create a new intent. The launch is now `expired`.",
  },
  launch_state_conflict: {
    status: 409,
    meaning: "The operation is not allowed in the launch's current state (`state` in the body); see the state table.",
  },
  tx_already_used: {
    status: 409,
    meaning:
      "This transaction hash already confirmed a launch of another creator, or another token name or symbol; nothing was persisted.",
  },
  launch_simulation_failed: {
    status: 422,
    meaning: "Simulating the launch failed (it would revert), so no transaction was built.",
  },
  transaction_reverted: { status: 422, meaning: "Verification failed: the transaction reverted on chain." },
  factory_not_accepted: {
    status: 422,
    meaning: "Verification failed: the transaction did not call an accepted launch factory.",
  },
  launch_event_missing: {
    status: 422,
    meaning: "Verification failed: the receipt has no launch event from the factory.",
  },
  launch_event_ambiguous: { status: 422, meaning: "Verification failed: the receipt has more than one launch event." },
  creator_mismatch: {
    status: 422,
    meaning: "Verification failed: the launch was not made (and sent) by the expected creator.",
  },
  metadata_mismatch: {
    status: 422,
    meaning: "Verification failed: the launched name or symbol differs from what was built.",
  },
  value_mismatch: {
    status: 422,
    meaning: "Verification failed: the transaction value or first buy differs from what was built.",
  },
  lp_not_locked: { status: 422, meaning: "Verification failed: a liquidity position is not held by the fee locker." },
  first_buy_missing: {
    status: 422,
    meaning: "Verification failed: the receipt has no first-buy swap paying the creator.",
  },
  first_buy_below_minimum: {
    status: 422,
    meaning: "Verification failed: the first buy delivered fewer tokens than the built minimum.",
  },
  // Swaps on the token page and the API (docs/trade.md)
  amount_out_of_range: {
    status: 400,
    meaning:
      "The amount to swap is zero or above the bound: a buy pays at most 1,000 ETH, a sell at most the token's total supply; nothing was built.",
  },
  insufficient_balance: {
    status: 422,
    meaning: "The wallet holds less ETH (buy) or fewer tokens (sell) than the amount it would pay; nothing was built.",
  },
  no_liquidity: {
    status: 422,
    meaning:
      "The token's pool gives nothing for this amount (no liquidity at this price, or an amount too small to return anything); nothing was built.",
  },
  swap_simulation_failed: {
    status: 422,
    meaning: "Simulating the swap failed (it would revert), so no transaction was built.",
  },
  // DexScreener adapter (docs/public.md "DexScreener adapter")
  invalid_block_range: {
    status: 400,
    meaning:
      "`fromBlock`/`toBlock` are not block numbers with fromBlock <= toBlock <= the latest block, spanning at most the documented number of blocks.",
  },
  asset_not_found: { status: 404, meaning: "No launched token or quote token (WETH) has this address." },
  pair_not_found: { status: 404, meaning: "No launch pool has this address." },
  // Media upload (media/image.ts)
  image_missing: { status: 400, meaning: IMAGE_ERROR_CODES.image_missing },
  image_too_large: { status: 400, meaning: IMAGE_ERROR_CODES.image_too_large },
  image_type_unsupported: { status: 400, meaning: IMAGE_ERROR_CODES.image_type_unsupported },
  image_corrupt: { status: 400, meaning: IMAGE_ERROR_CODES.image_corrupt },
  image_dimensions_exceeded: { status: 400, meaning: IMAGE_ERROR_CODES.image_dimensions_exceeded },
  image_polyglot: { status: 400, meaning: IMAGE_ERROR_CODES.image_polyglot },
  image_processing_busy: {
    status: 503,
    meaning:
      "Image processing is at capacity (too many uploads waiting, or the wait or the decode ran out of time); nothing was stored, the image is not at fault: retry after `Retry-After` seconds.",
  },
  // Webhooks (docs/webhooks.md)
  webhook_not_found: {
    status: 404,
    meaning: "No webhook subscription with this id belongs to the API key's wallet.",
  },
  webhook_limit_reached: {
    status: 409,
    meaning:
      "The wallet already holds the maximum number of webhook subscriptions (`WEBHOOKS_PER_WALLET`); delete one first. Nothing was created.",
  },
  invalid_webhook_url: {
    status: 400,
    meaning:
      "The receiver URL is refused: not https, longer than 2,048 characters, with credentials, or not a public address (loopback, private, link-local and metadata ranges are refused); `message` says which. Nothing was created.",
  },
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
    /** Extra body fields (e.g. a launch's `launch_id` and `state`); never `ok`/`error`/`message`. */
    readonly extra?: Record<string, unknown>,
    /** `retryAfterSec`: seconds the client should wait, sent as `Retry-After` by the app's error handler. */
    readonly hints: { retryAfterSec?: number } = {},
  ) {
    super(ERROR_CATALOGUE[code].status, { message });
  }
}

/** The spec's error body (plus {@link ApiError.extra} fields where an endpoint documents them). */
export type ErrorBody = { ok: false; error: ErrorCode; message: string; request_id?: string } & Record<string, unknown>;
