/**
 * Failures of the launch and swap use cases (viem style: literal `name`, `shortMessage`, and the
 * launch's `launch_id` and `state` in `details` where known). The HTTP layer maps each to its
 * catalogue code and status (http/serviceErrors.ts; docs/errors.md).
 */
import type { LaunchVerifyErrorCode } from "../chain/errors";
import { ServiceError } from "../src/domain/serviceError";

/** No launch with this id for this caller (HTTP 404 `launch_not_found`). */
export class LaunchNotFoundError extends ServiceError {
  override readonly name = "LaunchNotFoundError" as const;
}

/** The launch is not in a state this step accepts (HTTP 409 `launch_state_conflict`). */
export class LaunchStateConflictError extends ServiceError {
  override readonly name = "LaunchStateConflictError" as const;
}

/** The intent's lifetime ended before it was built (HTTP 410 `intent_expired`). */
export class IntentExpiredError extends ServiceError {
  override readonly name = "IntentExpiredError" as const;
}

/** The transaction already confirmed a launch of another creator or token (HTTP 409 `tx_already_used`). */
export class TxAlreadyUsedError extends ServiceError {
  override readonly name = "TxAlreadyUsedError" as const;
}

/** The signature is not the creator's personal_sign of the intent message (HTTP 401 `invalid_signature`). */
export class InvalidSignatureError extends ServiceError {
  override readonly name = "InvalidSignatureError" as const;
}

/** The launch transaction would revert (HTTP 422 `launch_simulation_failed`). */
export class LaunchSimulationFailedError extends ServiceError {
  override readonly name = "LaunchSimulationFailedError" as const;
}

/** The chain RPC failed; the caller may retry (HTTP 503 `chain_unavailable`). */
export class ChainUnavailableError extends ServiceError {
  override readonly name = "ChainUnavailableError" as const;
}

/** A request value the use case cannot accept, found past schema validation (HTTP 400 `invalid_request`). */
export class InvalidLaunchRequestError extends ServiceError {
  override readonly name = "InvalidLaunchRequestError" as const;
}

/** `image_url` is not an image this service stored (HTTP 400 `invalid_image_url`). */
export class InvalidImageUrlError extends ServiceError {
  override readonly name = "InvalidImageUrlError" as const;
}

/** The metadata differ from the built launch (HTTP 422 `metadata_mismatch`). */
export class MetadataMismatchError extends ServiceError {
  override readonly name = "MetadataMismatchError" as const;
}

/** The verifier's failures that end a confirmation (not `receipt_pending`, not an RPC failure). */
export type LaunchVerificationFailure = Exclude<LaunchVerifyErrorCode, "receipt_pending" | "rpc_unavailable">;

/**
 * The receipt failed verification against the accepted factory (HTTP 422 or 409: the catalogue
 * code is the verifier's `reason`, docs/launch.md "Confirm").
 */
export class LaunchVerificationFailedError extends ServiceError {
  override readonly name = "LaunchVerificationFailedError" as const;
  constructor(
    readonly reason: LaunchVerificationFailure,
    shortMessage: string,
    options: { details?: Record<string, unknown> } = {},
  ) {
    super(shortMessage, options);
  }
}

/** The token is not one launched through this service (HTTP 404 `token_not_found`). */
export class SwapTokenNotFoundError extends ServiceError {
  override readonly name = "SwapTokenNotFoundError" as const;
}

/** The swap amount is outside the accepted range (HTTP 400 `amount_out_of_range`). */
export class AmountOutOfRangeError extends ServiceError {
  override readonly name = "AmountOutOfRangeError" as const;
}

/** The wallet holds less than the amount it would pay (HTTP 422 `insufficient_balance`). */
export class InsufficientBalanceError extends ServiceError {
  override readonly name = "InsufficientBalanceError" as const;
}

/** The pool gives nothing for this amount (HTTP 422 `no_liquidity`). */
export class NoLiquidityError extends ServiceError {
  override readonly name = "NoLiquidityError" as const;
}

/** The swap transaction would revert (HTTP 422 `swap_simulation_failed`). */
export class SwapSimulationFailedError extends ServiceError {
  override readonly name = "SwapSimulationFailedError" as const;
}

/** Every error the launch and swap use cases throw. */
export type LaunchError =
  | LaunchNotFoundError
  | LaunchStateConflictError
  | IntentExpiredError
  | TxAlreadyUsedError
  | InvalidSignatureError
  | LaunchSimulationFailedError
  | ChainUnavailableError
  | InvalidLaunchRequestError
  | InvalidImageUrlError
  | MetadataMismatchError
  | LaunchVerificationFailedError
  | SwapTokenNotFoundError
  | AmountOutOfRangeError
  | InsufficientBalanceError
  | NoLiquidityError
  | SwapSimulationFailedError;
