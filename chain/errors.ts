/**
 * Failures of the launch write path, each with a stable `code` the API maps to its error catalogue.
 */

/** Why building a launch transaction failed. */
export type LaunchBuildErrorCode = "rpc_unavailable" | "launch_simulation_failed";

/** Thrown by {@link import("./build").buildLaunchTransaction}. */
export class LaunchBuildError extends Error {
  override readonly name = "LaunchBuildError";
  constructor(
    readonly code: LaunchBuildErrorCode,
    readonly shortMessage: string,
    options?: { cause?: unknown },
  ) {
    super(shortMessage, options);
  }
}

/**
 * Why a receipt failed verification. `receipt_pending` is not a failure: the transaction is not
 * mined yet and the caller may ask again.
 */
export type LaunchVerifyErrorCode =
  | "receipt_pending"
  | "transaction_reverted"
  | "factory_not_accepted"
  | "launch_event_missing"
  | "launch_event_ambiguous"
  | "creator_mismatch"
  | "metadata_mismatch"
  | "value_mismatch"
  | "lp_not_locked"
  | "first_buy_missing"
  | "first_buy_below_minimum"
  | "rpc_unavailable";

/** Why building a swap transaction failed (`chain/swap.ts`). */
export type SwapBuildErrorCode = "no_liquidity" | "insufficient_balance" | "swap_simulation_failed" | "rpc_unavailable";

/** Thrown by {@link import("./swap").buildSwapTransaction}. */
export class SwapBuildError extends Error {
  override readonly name = "SwapBuildError";
  constructor(
    readonly code: SwapBuildErrorCode,
    readonly shortMessage: string,
    options?: { cause?: unknown },
  ) {
    super(shortMessage, options);
  }
}
