/**
 * The launch write path shared by every surface (docs/launch.md; spec: "What the service does"
 * 1–2, "States and transitions", Endpoints). The v1 launch flow, the coin flow and the session
 * surface call these functions; they differ only in how the caller is authenticated and in field
 * names. Every build goes through the one builder (`launch/build.ts`), every confirmation through
 * the one verifier (`launch/verify.ts`), every state change through `launch/states.ts` +
 * `store/launches.ts` (conditional updates), so the rules hold on every surface:
 *
 * - build only from `intent_created` (signature of the creator, EIP-191 personal_sign verified with
 *   viem `verifyMessage`: EOA, ERC-1271, ERC-6492) or `built` (the stored transaction, replayed);
 * - persistence (state `confirmed`, the creator's metadata) only after the verifier passed;
 * - a transaction hash confirms at most one launch.
 */
import { isAddressEqual, recoverMessageAddress, type Address, type Hash, type Hex, type PublicClient } from "viem";
import { eq } from "ponder";
import * as ponderSchema from "../../ponder.schema";
import type { Deployment } from "../../config/deployment";
import type { PublicConfig, RecordSettings } from "../../config/public";
import { buildLaunchTransaction, type BuiltLaunch } from "../../launch/build";
import { LaunchBuildError } from "../../launch/errors";
import { intentExpired, isTerminal, nextActions, type LaunchState } from "../../launch/states";
import { verifyLaunch, type LaunchVerification, type VerifiedLaunch } from "../../launch/verify";
import { recordLaunchBuild, recordLaunchConfirmation, recordLaunchVerification } from "../metrics/registry";
import { inTransaction, type Store } from "../../store/index";
import {
  findConfirmedByTx,
  findLaunch,
  transitionLaunch,
  TxAlreadyUsedError,
  type LaunchRecord,
} from "../../store/launches";
import { ApiError, type ErrorCode } from "../errors";
import type { MarketDb } from "../market/queries";
import { noteStoredMetadataChanged, resolveTokenMetadata } from "./metadata";

/** What the flow needs; built per request by the routers. */
export type LaunchFlowDeps = {
  store: Store;
  publicClient: PublicClient;
  deployment: Deployment;
  publicBaseUrl: string;
  /** Public settings (metadata defaults of the confirmation result). */
  publicConfig: PublicConfig;
  /** Ponder's read-only db (whether the token page resolves yet). */
  db: MarketDb;
  /** Clock, unix seconds. */
  nowSec: () => number;
};

/**
 * How to count a confirmation against the caller's daily "finalized" quota (v1 and coins). The
 * count is written in the same store transaction as the `confirmed` transition, so it commits
 * exactly when the launch is persisted: a lost race, a failed write or a process killed before the
 * commit leaves nothing counted (docs/launch.md "Concurrency" and "Crash during confirm").
 */
export type FinalizeQuota = {
  /**
   * Counts one inside the persisting transaction.
   * @param tx - the transaction's store (see `inTransaction` in store/index.ts): write only through it
   * @throws ApiError 429 `quota_exceeded` when used up (the transaction rolls back, nothing persists)
   */
  consume: (tx: Store) => Promise<void>;
};

import { tokenUrl } from "../../src/domain/urls";

export { tokenUrl };

const sec = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

function conflict(launch: LaunchRecord, message: string): ApiError {
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

/**
 * Runs the builder and renders its result as the build response (JSON-safe: amounts as decimal
 * strings), which is also what the store keeps and a repeated build replays.
 * @returns `{transaction, policy, predicted_token_address, predicted_pool_address, gas_limit,
 *   amount_out_minimum, expected_tokens_out, slippage_bps, simulated_at_block}`
 * @throws ApiError 422 `launch_simulation_failed`, 503 `chain_unavailable`
 */
export async function runBuilder(
  deps: Pick<LaunchFlowDeps, "publicClient" | "deployment">,
  request: { creator: Address; name: string; symbol: string; firstBuyWei: bigint; slippageBps: number },
): Promise<{ built: BuiltLaunch; body: Record<string, unknown> }> {
  let built: BuiltLaunch;
  try {
    built = await buildLaunchTransaction(deps.publicClient, deps.deployment, request);
    recordLaunchBuild("ok");
  } catch (err) {
    recordLaunchBuild((err as { code?: string }).code ?? "other");
    buildErrorToApi(err);
  }
  return {
    built,
    body: {
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
    },
  };
}

/** The stored build response of a built launch, with the launch's id and state. */
function buildBody(launch: LaunchRecord): Record<string, unknown> {
  return { launch_id: launch.id, state: launch.state, ...launch.build, built_at_sec: sec(launch.builtAtMs) };
}

/**
 * Whether `signature` is the creator's personal_sign (EIP-191) of `message`: EOA signatures,
 * ERC-1271 contract wallets and ERC-6492 counterfactual wallets (viem `verifyMessage`). A plain
 * ECDSA signature recovering to `creator` is accepted without an RPC call.
 * @throws ApiError 503 `chain_unavailable` when the RPC cannot be reached for a contract wallet
 */
export async function creatorSigned(
  publicClient: PublicClient,
  creator: Address,
  message: string,
  signature: Hex,
): Promise<boolean> {
  // An ECDSA signature by the creator's own key needs no RPC (viem's verifyMessage tries the
  // ERC-6492 validator call first and recovers only after it fails: with the RPC stalled that
  // doubled a build's time to failure). Anything else goes to the chain.
  try {
    if (isAddressEqual(await recoverMessageAddress({ message, signature }), creator)) return true;
  } catch {
    // not a plain 65-byte ECDSA signature (ERC-1271 / ERC-6492): verified on chain below
  }
  try {
    return await publicClient.verifyMessage({ address: creator, message, signature });
  } catch (err) {
    const name = (err as Error)?.name ?? "";
    if (/HttpRequestError|TimeoutError|RpcRequestError|WebSocketRequestError/.test(name)) {
      throw new ApiError("chain_unavailable", "the chain RPC failed while checking the signature; retry");
    }
    return false;
  }
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
export async function buildFromIntent(
  deps: LaunchFlowDeps,
  launch: LaunchRecord,
  signature: Hex,
): Promise<Record<string, unknown>> {
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
    throw new ApiError(
      "invalid_signature",
      "intent_signature is not the creator's personal_sign signature of intent.message",
      { launch_id: launch.id, state: launch.state },
    );
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

function expiredError(launch: LaunchRecord): ApiError {
  return new ApiError(
    "intent_expired",
    `the intent expired at ${new Date((launch.expiresAtSec ?? 0) * 1000).toISOString()}; create a new intent`,
    {
      launch_id: launch.id,
      state: "expired",
    },
  );
}

/** JSON-safe facts of a verified launch (stored in `launches.verified`). */
function verifiedJson(v: VerifiedLaunch): Record<string, unknown> {
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
export function confirmedBody(launch: LaunchRecord, settings: RecordSettings): Record<string, unknown> {
  return {
    launch_id: launch.id,
    state: "confirmed",
    ...launch.verified,
    canonical_launch_id: launch.canonicalLaunchId,
    token_url: tokenUrl(settings.publicBaseUrl, launch.tokenAddress!),
    metadata: resolveTokenMetadata(launch, launch, settings),
    confirmed_at_sec: sec(launch.confirmedAtMs),
  };
}

/** Outcome of {@link confirmLaunch}: 200 confirmed, or 202 while the receipt is pending. */
export type ConfirmOutcome =
  | { status: 200; launch: LaunchRecord; body: Record<string, unknown> }
  | { status: 202; launch: LaunchRecord; body: Record<string, unknown> };

/** Seconds a client should wait before asking again about a pending transaction. */
export const PENDING_RETRY_AFTER_SEC = 2;

/**
 * The confirm step (`POST /api/v1/evmchain/launches/confirm`, `POST /api/v1/coins/finalize`, and
 * the session `verify-direct-v3-launch` with `write: true`): runs the verifier with what was
 * built (creator, name, symbol, first buy, `amountOutMinimum`) and moves the launch.
 *
 * - `confirmed` with the same hash -> the same result (idempotent); another hash -> 409;
 * - `intent_created` / `expired` -> 409 `launch_state_conflict` (build first / expired);
 * - the hash confirmed a launch of another creator or another name/symbol -> 409
 *   `tx_already_used`, nothing changes; the same launch confirmed through another record (the
 *   other surface, another key of the creator) -> this record is confirmed too, as an alias
 *   (`canonical_launch_id`), after its own verification: one launch, one confirmation;
 * - receipt not mined yet -> 202 state `submitted` (retry the same call);
 * - a check fails -> 422 with the verifier's code, state `failed` (a confirm with another hash
 *   may still succeed);
 * - RPC down -> 503 `chain_unavailable`, nothing changes;
 * - verified -> in one store transaction the quota is counted and the launch is persisted (state
 *   `confirmed`, token, pool, block, the verifier's facts; the creator's metadata becomes the
 *   token's) -> 200; a crash before the commit leaves neither, so a retry confirms and counts once.
 * @param options.descriptionOverride - session verify's `metadata.description`, stored on success
 */
export async function confirmLaunch(
  deps: LaunchFlowDeps,
  launch: LaunchRecord,
  txHash: Hash,
  options: { quota?: FinalizeQuota; descriptionOverride?: string } = {},
): Promise<ConfirmOutcome> {
  try {
    const outcome = await confirmLaunchOnce(deps, launch, txHash, options);
    recordLaunchConfirmation(outcome.status === 200 ? "ok" : "receipt_pending");
    return outcome;
  } catch (err) {
    recordLaunchConfirmation(err instanceof ApiError ? err.code : "other");
    throw err;
  }
}

/**
 * Runs `verifyLaunch` and counts its outcome (`launchpad_launch_verifications_total`). The one place both
 * surfaces verify a receipt.
 */
export async function verifyAndCount(
  deps: Pick<LaunchFlowDeps, "publicClient" | "deployment">,
  expected: Parameters<typeof verifyLaunch>[2],
): Promise<LaunchVerification> {
  const result = await verifyLaunch(deps.publicClient, deps.deployment, expected);
  recordLaunchVerification(result.status === "verified" ? "ok" : result.code);
  return result;
}

/**
 * Whether two launch records describe the same on-chain launch: the same creator, name and
 * symbol (the verifier then checks the receipt against each record's own first buy and minimum).
 */
function sameLaunch(a: LaunchRecord, b: LaunchRecord): boolean {
  return a.creator.toLowerCase() === b.creator.toLowerCase() && a.name === b.name && a.symbol === b.symbol;
}

function txAlreadyUsed(hash: string, launch: LaunchRecord): ApiError {
  return new ApiError(
    "tx_already_used",
    `transaction ${hash} already confirmed a launch of another creator or another token`,
    { launch_id: launch.id, state: launch.state },
  );
}

/**
 * The rule "one launch, one confirmation, whichever surface sees it first" (docs/launch.md): the
 * canonical confirmed record of `hash` when it is another record of the same launch as `launch`
 * (this record then confirms as its alias), `null` when the transaction confirmed nothing yet.
 * @throws ApiError 409 `tx_already_used` when it confirmed a launch of another creator or token
 */
export async function canonicalRecordOf(
  store: Store,
  hash: string,
  launch: LaunchRecord,
): Promise<LaunchRecord | null> {
  const canonical = await findConfirmedByTx(store, hash);
  if (!canonical || canonical.id === launch.id) return null;
  if (!sameLaunch(canonical, launch)) throw txAlreadyUsed(hash, launch);
  return canonical;
}

async function confirmLaunchOnce(
  deps: LaunchFlowDeps,
  launch: LaunchRecord,
  txHash: Hash,
  options: { quota?: FinalizeQuota; descriptionOverride?: string; retriedAfterRace?: boolean },
): Promise<ConfirmOutcome> {
  const hash = txHash.toLowerCase() as Hash;
  const state = launch.state as LaunchState;
  if (state === "confirmed") {
    if (launch.txHash === hash) return { status: 200, launch, body: confirmedBody(launch, deps) };
    throw conflict(launch, `already confirmed by transaction ${launch.txHash}`);
  }
  if (state === "intent_created") throw conflict(launch, "build the launch before confirming it");
  if (state === "expired") throw conflict(launch, "the intent expired before it was built");

  const canonical = await canonicalRecordOf(deps.store, hash, launch);

  const result = await verifyAndCount(deps, {
    txHash: hash,
    creator: launch.creator as Address,
    name: launch.name,
    symbol: launch.symbol,
    firstBuyWei: BigInt(launch.firstBuyWei),
    firstBuyAmountOutMinimum: launch.amountOutMinimum === null ? undefined : BigInt(launch.amountOutMinimum),
  });

  if (result.status === "pending") {
    const moved =
      (await transitionLaunch(deps.store, launch.id, "confirm_pending", {
        txHash: hash,
        failureCode: null,
        failureMessage: null,
      })) ?? (await findLaunch(deps.store, launch.id));
    if (!moved || moved.state === "confirmed") return confirmLaunchOnce(deps, moved ?? launch, hash, options);
    return {
      status: 202,
      launch: moved,
      body: {
        launch_id: moved.id,
        state: moved.state,
        tx_hash: hash,
        pending: { code: "receipt_pending", message: result.message },
        retry_after_sec: PENDING_RETRY_AFTER_SEC,
      },
    };
  }
  if (result.status === "failed") {
    if (result.code === "rpc_unavailable") throw new ApiError("chain_unavailable", result.message);
    const failed = await transitionLaunch(deps.store, launch.id, "confirm_failed", {
      txHash: hash,
      failureCode: result.code,
      failureMessage: result.message,
    });
    throw new ApiError(result.code as ErrorCode, result.message, {
      launch_id: launch.id,
      state: failed?.state ?? launch.state,
      tx_hash: hash,
    });
  }

  const v = result.launch;
  let confirmed: LaunchRecord | null;
  try {
    // The quota count and the transition commit together or not at all: a crash between them
    // (kill -9, lost connection) must not leave a coin counted for a launch that is not persisted,
    // or the retry would count it a second time.
    confirmed = await inTransaction(deps.store, async (tx) => {
      await options.quota?.consume(tx);
      const moved = await transitionLaunch(tx, launch.id, "confirm_verified", {
        txHash: hash,
        tokenAddress: v.token,
        poolAddress: v.pool,
        blockNumber: Number(v.blockNumber),
        verified: verifiedJson(v),
        confirmedAtMs: deps.nowSec() * 1000,
        failureCode: null,
        failureMessage: null,
        canonicalLaunchId: canonical?.id ?? null,
        ...(options.descriptionOverride !== undefined ? { description: options.descriptionOverride } : {}),
      });
      // Lost a race (another request moved the launch first): roll the count back.
      if (!moved) throw new LostTransition();
      return moved;
    });
  } catch (err) {
    if (err instanceof TxAlreadyUsedError) {
      // A concurrent confirmation of the same transaction became canonical first: confirm this
      // record against it (once), or refuse when it is another creator's or another token's.
      if (canonical || options.retriedAfterRace) throw txAlreadyUsed(hash, launch);
      return confirmLaunchOnce(deps, launch, hash, { ...options, retriedAfterRace: true });
    }
    if (!(err instanceof LostTransition)) throw err;
    confirmed = null;
  }
  if (confirmed) {
    noteStoredMetadataChanged();
    return { status: 200, launch: confirmed, body: confirmedBody(confirmed, deps) };
  }
  const current = await findLaunch(deps.store, launch.id);
  if (current?.state === "confirmed" && current.txHash === hash)
    return { status: 200, launch: current, body: confirmedBody(current, deps) };
  throw conflict(current ?? launch, "the launch changed while confirming");
}

/**
 * A quota handle for {@link confirmLaunch} over the store's daily counters.
 * @param consume - counts one on the store it is given (the persisting transaction), e.g.
 *   `(tx) => consumeCoinQuota(tx, keyId, "coins_finalized")`; throws 429 `quota_exceeded`
 * @returns the handle to pass as `confirmLaunch(…, { quota })`
 * @example finalizeQuota((tx) => consumeCoinQuota(tx, key.id, "coins_finalized")) // { consume }
 */
export function finalizeQuota(consume: (tx: Store) => Promise<unknown>): FinalizeQuota {
  return {
    consume: async (tx) => {
      await consume(tx);
    },
  };
}

/** Internal: the confirm transition found the launch moved by another request (rolls back). */
class LostTransition extends Error {
  override readonly name = "LostTransition";
}

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
  deps: Pick<LaunchFlowDeps, "store" | "nowSec" | "publicBaseUrl">,
  launch: LaunchRecord,
): Promise<Record<string, unknown>> {
  let current = launch;
  if (current.state === "intent_created" && intentExpired(current.expiresAtSec, deps.nowSec())) {
    current =
      (await transitionLaunch(deps.store, current.id, "expire", {})) ??
      (await findLaunch(deps.store, current.id)) ??
      current;
  }
  const state = current.state as LaunchState;
  const build = current.build as Record<string, unknown> | null;
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
    token_url:
      state === "confirmed" && current.tokenAddress ? tokenUrl(deps.publicBaseUrl, current.tokenAddress) : null,
    pool_address: state === "confirmed" ? current.poolAddress : null,
    block_number: state === "confirmed" ? current.blockNumber : null,
    confirmed_at_sec: sec(current.confirmedAtMs),
    failure: state === "failed" ? { code: current.failureCode, message: current.failureMessage } : null,
    created_at_sec: sec(current.createdAtMs),
    updated_at_sec: sec(current.updatedAtMs),
  };
}

/**
 * Whether the indexer already has the token's row (its page and read API resolve), waiting up to
 * `waitMs` (polling every 200 ms).
 */
export async function tokenIndexed(db: MarketDb, token: Address, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rows = await db
      .select({ address: ponderSchema.token.address })
      .from(ponderSchema.token)
      .where(eq(ponderSchema.token.address, token.toLowerCase() as `0x${string}`))
      .limit(1);
    if (rows.length > 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
}
