/**
 * The build step (docs/launch.md "Build"): the one builder (`chain/build.ts`) behind every
 * surface, and the key-authenticated build from a signed intent.
 */
import type { BuiltLaunchBody } from "./wire";
import { isAddressEqual, type Address, type Hex } from "viem";
import { buildLaunchTransaction, type BuiltLaunch } from "../chain/build";
import { intentExpired, type LaunchState } from "../src/domain/launchStates";
import { findLaunch, transitionLaunch, type LaunchRecord } from "../store/launches";
import type { LaunchDeps } from "./launchDeps";
import { buildBody, builtResponse, type BuildBody } from "./responses";
import { creatorSigned } from "./signature";
import { throwBuildError, conflict, expiredError } from "./stepErrors";
import { InvalidSignatureError } from "./errors";

/**
 * Runs the builder and renders its result as the build response (JSON-safe: amounts as decimal
 * strings), which is also what the store keeps and a repeated build replays.
 * @returns `{transaction, policy, predicted_token_address, predicted_pool_address, gas_limit,
 *   amount_out_minimum, expected_tokens_out, slippage_bps, simulated_at_block}`
 * @throws LaunchSimulationFailedError, ChainUnavailableError
 */
export async function runBuilder(
  deps: Pick<LaunchDeps, "publicClient" | "deployment" | "observe">,
  request: { creator: Address; name: string; symbol: string; firstBuyWei: bigint; slippageBps: number },
): Promise<{ built: BuiltLaunch; body: BuiltLaunchBody }> {
  let built: BuiltLaunch;
  try {
    built = await buildLaunchTransaction(deps.publicClient, deps.deployment, request);
    deps.observe.build("ok");
  } catch (err) {
    deps.observe.build((err as { code?: string }).code ?? "other");
    throwBuildError(err);
  }
  return { built, body: builtResponse(built) };
}

/**
 * The build step of the key-authenticated flow (`POST /api/v1/evmchain/launches/build`,
 * `POST /api/v1/coins/create-transaction`).
 *
 * - `intent_created`, expired -> state `expired`, 410 `intent_expired`;
 * - `intent_created`, signature not by the creator over exactly `intent.message` -> 401
 *   `invalid_signature`, state unchanged;
 * - `intent_created`, valid -> the builder runs, state `built`, the response is stored;
 * - `built` (signature checked again) -> the stored response, unchanged (idempotent);
 * - `expired` -> 410 `intent_expired`; other states -> 409 `launch_state_conflict`.
 * @returns 200 body `{launch_id, state: "built", transaction, policy, predicted_token_address,
 *   predicted_pool_address, gas_limit, amount_out_minimum, expected_tokens_out, slippage_bps,
 *   simulated_at_block, built_at_sec}`
 */
export async function buildFromIntent(deps: LaunchDeps, launch: LaunchRecord, signature: Hex): Promise<BuildBody> {
  const state = launch.state as LaunchState;
  if (state === "intent_created" && intentExpired(launch.expiresAtSec, deps.nowSec())) {
    const expired =
      (await transitionLaunch(deps.store, launch.id, "expire", {})) ?? (await findLaunch(deps.store, launch.id));
    if (expired?.state !== "expired") return buildFromIntent(deps, expired ?? launch, signature);
    throw expiredError(launch);
  }
  if (state === "expired") throw expiredError(launch);
  if (state !== "intent_created" && state !== "built")
    throw conflict(launch, "only an intent that is not built yet, or a built one (replayed), can be built");
  if (
    !launch.intentMessage ||
    !(await creatorSigned(deps.publicClient, launch.creator as Address, launch.intentMessage, signature))
  ) {
    throw new InvalidSignatureError("intent_signature is not the creator's personal_sign signature of intent.message", {
      details: { launch_id: launch.id, state: launch.state },
    });
  }
  if (state === "built") return buildBody(launch);

  if (!isAddressEqual(launch.factory as Address, deps.deployment.contracts.launchFactory)) {
    throw conflict(launch, "the service's launch factory changed since this intent was signed; create a new intent");
  }
  const { built, body } = await runBuilder(deps, {
    creator: launch.creator as Address,
    name: launch.name,
    symbol: launch.symbol,
    firstBuyWei: BigInt(launch.firstBuyWei),
    slippageBps: launch.slippageBps,
  });
  const updated = await transitionLaunch(deps.store, launch.id, "build", {
    build: body,
    predictedTokenAddress: built.predictedTokenAddress,
    amountOutMinimum: built.firstBuyAmountOutMinimum.toString(),
    builtAtMs: deps.nowSec() * 1000,
  });
  if (updated) return buildBody(updated);
  // A concurrent build won the transition: replay its stored result.
  const current = await findLaunch(deps.store, launch.id);
  if (current?.state === "built") return buildBody(current);
  throw conflict(current ?? launch, "the launch changed while building");
}
