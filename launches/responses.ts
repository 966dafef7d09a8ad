/**
 * Response bodies of the launch steps (docs/launch.md): what a build, a confirmation and a status
 * read return, rendered from the builder's result and the stored launch record (JSON-safe:
 * amounts as decimal strings, times in unix seconds).
 */
import type { RecordSettings } from "../config/public";
import type { BuiltLaunch } from "../chain/build";
import { isTerminal, nextActions, type LaunchState } from "../src/domain/launchStates";
import type { VerifiedLaunch } from "../chain/verify";
import { tokenUrl } from "../src/domain/urls";
import type { LaunchRecord } from "../store/launches";
import type { BuiltLaunchBody, ConfirmedLaunchBody, LaunchStatusBody, VerifiedLaunchBody } from "./wire";
import { resolveTokenMetadata } from "../market/metadata";

const sec = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/**
 * The build response of a builder result (JSON-safe: amounts as decimal strings), which is also
 * what the store keeps and a repeated build replays.
 * @returns `{transaction, policy, predicted_token_address, predicted_pool_address, gas_limit,
 *   amount_out_minimum, expected_tokens_out, slippage_bps, simulated_at_block}`
 */
export function builtResponse(built: BuiltLaunch): BuiltLaunchBody {
  return {
    transaction: built.transaction,
    policy: {
      minimum_pool_liquidity_wei: built.policy.minimum_pool_liquidity_wei.toString(),
      first_buy_amount_wei: built.policy.first_buy_amount_wei.toString(),
      total_transaction_value_wei: built.policy.total_transaction_value_wei.toString(),
    },
    predicted_token_address: built.predictedTokenAddress,
    predicted_pool_address: built.predictedPoolAddress,
    gas_limit: built.gasLimit.toString(),
    amount_out_minimum: built.firstBuyAmountOutMinimum.toString(),
    expected_tokens_out: built.firstBuyExpectedTokensOut.toString(),
    slippage_bps: built.slippageBps,
    simulated_at_block: Number(built.simulatedAtBlock),
  };
}

/** A build's answer: the stored build response, with the launch's id and state. */
export type BuildBody = BuiltLaunchBody & { launch_id: string; state: LaunchState; built_at_sec: number | null };

/** The stored build response of a built launch, with the launch's id and state. */
export function buildBody(launch: LaunchRecord): BuildBody {
  return { launch_id: launch.id, state: launch.state, ...storedBuild(launch)!, built_at_sec: sec(launch.builtAtMs) };
}

/** The build response the store keeps (what {@link builtResponse} returned), or null before a build. */
function storedBuild(launch: LaunchRecord): BuiltLaunchBody | null {
  return launch.build as BuiltLaunchBody | null;
}

/** JSON-safe facts of a verified launch (stored in `launches.verified`). */
export function verifiedJson(v: VerifiedLaunch): VerifiedLaunchBody {
  return {
    tx_hash: v.txHash,
    block_number: Number(v.blockNumber),
    block_hash: v.blockHash,
    factory: v.factory,
    token_address: v.token,
    pool_address: v.pool,
    creator: v.creator,
    name: v.name,
    symbol: v.symbol,
    position_ids: v.positionIds.map(String),
    liquidity_wei: v.liquidityWei.toString(),
    first_buy_wei: v.firstBuyWei.toString(),
    first_buy_tokens_out: v.firstBuyTokensOut.toString(),
  };
}

/**
 * The confirmation result of a confirmed launch (identical on every repetition).
 * @returns `{launch_id, state: "confirmed", tx_hash, block_number, block_hash, factory,
 *   token_address, token_url, pool_address, creator, name, symbol, position_ids, liquidity_wei,
 *   first_buy_wei, first_buy_tokens_out, metadata, canonical_launch_id, confirmed_at_sec}`;
 *   `canonical_launch_id` is null, or the record of the same launch confirmed first (whose
 *   metadata the token's public record shows)
 */
export function confirmedBody(launch: LaunchRecord, settings: RecordSettings): ConfirmedLaunchBody {
  return {
    launch_id: launch.id,
    state: "confirmed",
    ...(launch.verified as VerifiedLaunchBody), // the store keeps what verifiedJson returned
    canonical_launch_id: launch.canonicalLaunchId,
    token_url: tokenUrl(settings.publicBaseUrl, launch.tokenAddress!),
    metadata: resolveTokenMetadata(launch, launch, settings),
    confirmed_at_sec: sec(launch.confirmedAtMs),
  };
}

/**
 * The status record of a launch as stored (see `launchStatus`, which records an expiry first).
 * @param publicBaseUrl - base URL of the token page (`token_url` of a confirmed launch)
 */
export function statusBody(current: LaunchRecord, publicBaseUrl: string): LaunchStatusBody {
  const state = current.state;
  const build = storedBuild(current);
  return {
    launch_id: current.id,
    draft_id: current.id,
    surface: current.surface,
    state,
    terminal: isTerminal(state),
    next_actions: nextActions(state),
    creator: current.creator,
    name: current.name,
    symbol: current.symbol,
    first_buy_wei: current.firstBuyWei,
    slippage_bps: current.slippageBps,
    metadata: {
      description: current.description,
      image_url: current.imageUrl,
      telegram_url: current.telegramUrl,
      twitter_url: current.twitterUrl,
      website_url: current.websiteUrl,
    },
    metadata_sha256: current.metadataSha256,
    issued_at_sec: current.issuedAtSec,
    expires_at_sec: current.expiresAtSec,
    built_at_sec: sec(current.builtAtMs),
    transaction: build?.transaction ?? null,
    policy: build?.policy ?? null,
    predicted_token_address: current.predictedTokenAddress,
    amount_out_minimum: current.amountOutMinimum,
    gas_limit: build?.gas_limit ?? null,
    tx_hash: current.txHash,
    token_address: state === "confirmed" ? current.tokenAddress : null,
    token_url: state === "confirmed" && current.tokenAddress ? tokenUrl(publicBaseUrl, current.tokenAddress) : null,
    pool_address: state === "confirmed" ? current.poolAddress : null,
    block_number: state === "confirmed" ? current.blockNumber : null,
    confirmed_at_sec: sec(current.confirmedAtMs),
    failure: state === "failed" ? { code: current.failureCode, message: current.failureMessage } : null,
    created_at_sec: sec(current.createdAtMs),
    updated_at_sec: sec(current.updatedAtMs),
  };
}
