/**
 * Launch-step failures as use-case errors (launches/errors.ts): state conflicts, expired intents,
 * reused transactions and builder failures, each with the launch's id and state where known.
 */
import { LaunchBuildError } from "../chain/errors";
import type { LaunchRecord } from "../store/launches";
import {
  ChainUnavailableError,
  IntentExpiredError,
  InvalidLaunchRequestError,
  LaunchSimulationFailedError,
  LaunchStateConflictError,
  TxAlreadyUsedError,
} from "./errors";

/** 409 `launch_state_conflict`: the launch is not in a state this step accepts. */
export function conflict(launch: LaunchRecord, message: string): LaunchStateConflictError {
  return new LaunchStateConflictError(`${message} (launch ${launch.id} is ${launch.state})`, {
    details: { launch_id: launch.id, state: launch.state },
  });
}

/** Maps a builder failure to a use-case error: LaunchSimulationFailedError, ChainUnavailableError. */
export function throwBuildError(err: unknown): never {
  if (err instanceof LaunchBuildError) {
    if (err.code === "launch_simulation_failed") throw new LaunchSimulationFailedError(err.shortMessage);
    throw new ChainUnavailableError(err.shortMessage);
  }
  if (err instanceof RangeError) throw new InvalidLaunchRequestError(err.message);
  throw err;
}

/** 410 `intent_expired`: the intent's lifetime ended before it was built. */
export function expiredError(launch: LaunchRecord): IntentExpiredError {
  return new IntentExpiredError(
    `the intent expired at ${new Date((launch.expiresAtSec ?? 0) * 1000).toISOString()}; create a new intent`,
    { details: { launch_id: launch.id, state: "expired" } },
  );
}

/** 409 `tx_already_used`: the transaction confirmed a launch of another creator or another token. */
export function txAlreadyUsed(hash: string, launch: LaunchRecord): TxAlreadyUsedError {
  return new TxAlreadyUsedError(`transaction ${hash} already confirmed a launch of another creator or another token`, {
    details: { launch_id: launch.id, state: launch.state },
  });
}
