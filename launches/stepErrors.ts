/**
 * Launch-step failures as catalogue errors (http/errors.ts): state conflicts, expired intents,
 * reused transactions and builder failures, each with the launch's id and state where known.
 */
import { LaunchBuildError } from "../chain/errors";
import type { LaunchRecord } from "../store/launches";
import { ApiError } from "../http/errors";

/** 409 `launch_state_conflict`: the launch is not in a state this step accepts. */
export function conflict(launch: LaunchRecord, message: string): ApiError {
  return new ApiError("launch_state_conflict", `${message} (launch ${launch.id} is ${launch.state})`, {
    launch_id: launch.id,
    state: launch.state,
  });
}

/** Maps a builder failure to the catalogue: 422 `launch_simulation_failed`, 503 `chain_unavailable`. */
export function buildErrorToApi(err: unknown): never {
  if (err instanceof LaunchBuildError) {
    if (err.code === "launch_simulation_failed") throw new ApiError("launch_simulation_failed", err.shortMessage);
    throw new ApiError("chain_unavailable", err.shortMessage);
  }
  if (err instanceof RangeError) throw new ApiError("invalid_request", err.message);
  throw err;
}

/** 410 `intent_expired`: the intent's lifetime ended before it was built. */
export function expiredError(launch: LaunchRecord): ApiError {
  return new ApiError(
    "intent_expired",
    `the intent expired at ${new Date((launch.expiresAtSec ?? 0) * 1000).toISOString()}; create a new intent`,
    {
      launch_id: launch.id,
      state: "expired",
    },
  );
}

/** 409 `tx_already_used`: the transaction confirmed a launch of another creator or another token. */
export function txAlreadyUsed(hash: string, launch: LaunchRecord): ApiError {
  return new ApiError(
    "tx_already_used",
    `transaction ${hash} already confirmed a launch of another creator or another token`,
    { launch_id: launch.id, state: launch.state },
  );
}
