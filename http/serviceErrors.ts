/**
 * The one table from the failures below the HTTP layer (read models, use cases, store
 * operations: {@link ServiceError} subclasses with a literal `name`) to the error catalogue
 * (http/errors.ts; docs/errors.md). The app's `onError` renders them through {@link toApiError};
 * nothing below a route knows a status code. The compiler checks that every class is mapped.
 */
import type { LaunchError, LaunchVerificationFailedError } from "../launches/errors";
import type { MarketError } from "../market/errors";
import { ServiceError } from "../src/domain/serviceError";
import type { StoreError } from "../store/errors";
import { ApiError, type ErrorCode } from "./errors";

/** Every service error the HTTP layer can receive. */
type AnyServiceError = MarketError | LaunchError | StoreError;

/** Catalogue code of each service error, by its `name` (the verifier's failures carry their own code). */
const CODE_OF: {
  [Name in AnyServiceError["name"]]: ErrorCode | ((err: Extract<AnyServiceError, { name: Name }>) => ErrorCode);
} = {
  TokenNotFoundError: "token_not_found",
  InvalidCursorError: "invalid_cursor",
  NotIndexedYetError: "not_indexed_yet",
  ShuttingDownError: "service_unavailable",
  TooManyStreamsError: "too_many_streams",
  QuotaExceededError: "quota_exceeded",
  LaunchNotFoundError: "launch_not_found",
  LaunchStateConflictError: "launch_state_conflict",
  IntentExpiredError: "intent_expired",
  TxAlreadyUsedError: "tx_already_used",
  InvalidSignatureError: "invalid_signature",
  LaunchSimulationFailedError: "launch_simulation_failed",
  ChainUnavailableError: "chain_unavailable",
  InvalidLaunchRequestError: "invalid_request",
  InvalidImageUrlError: "invalid_image_url",
  MetadataMismatchError: "metadata_mismatch",
  LaunchVerificationFailedError: (err: LaunchVerificationFailedError) => err.reason satisfies ErrorCode,
  SwapTokenNotFoundError: "token_not_found",
  AmountOutOfRangeError: "amount_out_of_range",
  InsufficientBalanceError: "insufficient_balance",
  NoLiquidityError: "no_liquidity",
  SwapSimulationFailedError: "swap_simulation_failed",
};

/**
 * The catalogue code of a service error.
 * @returns the code, or `undefined` for a subclass missing from the table (a bug: answered as 500)
 * @example serviceErrorCode(new TokenNotFoundError("no launched token at 0x…")) // "token_not_found"
 */
export function serviceErrorCode(err: ServiceError): ErrorCode | undefined {
  const entry = (CODE_OF as Record<string, ErrorCode | ((e: ServiceError) => ErrorCode) | undefined>)[err.name];
  return typeof entry === "function" ? entry(err) : entry;
}

/**
 * The catalogue error a failure leaves as: an `ApiError` as it is; a service error with its
 * mapped code, its `shortMessage`, its `details` as extra body fields and its `retryAfterSec` as
 * `Retry-After`; anything else `undefined` (the caller answers 500).
 */
export function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (!(err instanceof ServiceError)) return undefined;
  const code = serviceErrorCode(err);
  if (code === undefined) return undefined;
  return new ApiError(code, err.shortMessage, err.details, { retryAfterSec: err.retryAfterSec });
}
