/**
 * The status step (docs/launch.md "Status"): the launch record as stored, after recording an
 * expired intent's transition.
 */
import type { LaunchStatusBody } from "./wire";
import { intentExpired } from "../src/domain/launchStates";
import { findLaunch, transitionLaunch, type LaunchRecord } from "../store/launches";
import type { LaunchDeps } from "./launchDeps";
import { statusBody } from "./responses";

/**
 * The idempotent status record of a launch (`GET …/launches/status`, `GET /api/v1/coins/status`).
 * Reading an intent after its expiry records the `expired` transition first.
 * @returns `{launch_id, draft_id, surface, state, terminal, next_actions, creator, name, symbol,
 *   first_buy_wei, slippage_bps, metadata, metadata_sha256, issued_at_sec, expires_at_sec,
 *   built_at_sec, transaction, policy, predicted_token_address, amount_out_minimum, gas_limit,
 *   tx_hash, token_address, token_url, pool_address, block_number, confirmed_at_sec, failure,
 *   created_at_sec, updated_at_sec}`
 */
export async function launchStatus(
  deps: Pick<LaunchDeps, "store" | "nowSec" | "publicBaseUrl">,
  launch: LaunchRecord,
): Promise<LaunchStatusBody> {
  let current = launch;
  if (current.state === "intent_created" && intentExpired(current.expiresAtSec, deps.nowSec())) {
    current =
      (await transitionLaunch(deps.store, current.id, "expire", {})) ??
      (await findLaunch(deps.store, current.id)) ??
      current;
  }
  return statusBody(current, deps.publicBaseUrl);
}
