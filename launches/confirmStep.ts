/**
 * The confirm step (docs/launch.md "Confirm"): the one verifier (`chain/verify.ts`) behind every
 * surface, the rule "one launch, one confirmation" across surfaces, and the `confirmed` transition
 * with the caller's quota in one store transaction.
 */
import type { ConfirmedLaunchBody, PendingConfirmationBody } from "./wire";
import type { Address, Hash } from "viem";
import type { LaunchState } from "../src/domain/launchStates";
import { verifyLaunch, type LaunchVerification } from "../chain/verify";
import { inTransaction, type Store } from "../store/index";
import {
  findConfirmedByTx,
  findLaunch,
  transitionLaunch,
  TxAlreadyUsedError,
  type LaunchRecord,
} from "../store/launches";
import type { LaunchDeps } from "./launchDeps";
import { noteStoredMetadataChanged } from "../market/metadata";
import { confirmedBody, verifiedJson } from "./responses";
import { conflict, txAlreadyUsed } from "./stepErrors";
import { ChainUnavailableError, LaunchVerificationFailedError } from "./errors";

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
   * @throws QuotaExceededError when used up (the transaction rolls back, nothing persists)
   */
  consume: (tx: Store) => Promise<void>;
};

/** Outcome of {@link confirmLaunch}: 200 confirmed, or 202 while the receipt is pending. */
export type ConfirmOutcome =
  | { status: 200; launch: LaunchRecord; body: ConfirmedLaunchBody }
  | { status: 202; launch: LaunchRecord; body: PendingConfirmationBody };

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
  deps: LaunchDeps,
  launch: LaunchRecord,
  txHash: Hash,
  options: { quota?: FinalizeQuota; descriptionOverride?: string } = {},
): Promise<ConfirmOutcome> {
  try {
    const outcome = await confirmLaunchOnce(deps, launch, txHash, options);
    deps.observe.confirmation(outcome.status === 200 ? "ok" : "receipt_pending");
    return outcome;
  } catch (err) {
    deps.observe.confirmation({ error: err });
    throw err;
  }
}

/**
 * Runs `verifyLaunch` and counts its outcome (`launchpad_launch_verifications_total`). The one place both
 * surfaces verify a receipt.
 */
export async function verifyAndCount(
  deps: Pick<LaunchDeps, "publicClient" | "deployment" | "observe">,
  expected: Parameters<typeof verifyLaunch>[2],
): Promise<LaunchVerification> {
  const result = await verifyLaunch(deps.publicClient, deps.deployment, expected);
  deps.observe.verification(result.status === "verified" ? "ok" : result.code);
  return result;
}

/**
 * Whether two launch records describe the same on-chain launch: the same creator, name and
 * symbol (the verifier then checks the receipt against each record's own first buy and minimum).
 */
function sameLaunch(a: LaunchRecord, b: LaunchRecord): boolean {
  return a.creator.toLowerCase() === b.creator.toLowerCase() && a.name === b.name && a.symbol === b.symbol;
}

/**
 * The rule "one launch, one confirmation, whichever surface sees it first" (docs/launch.md): the
 * canonical confirmed record of `hash` when it is another record of the same launch as `launch`
 * (this record then confirms as its alias), `null` when the transaction confirmed nothing yet.
 * @throws TxAlreadyUsedError when it confirmed a launch of another creator or token
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
  deps: LaunchDeps,
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
    if (result.code === "rpc_unavailable") throw new ChainUnavailableError(result.message);
    const failed = await transitionLaunch(deps.store, launch.id, "confirm_failed", {
      txHash: hash,
      failureCode: result.code,
      failureMessage: result.message,
    });
    throw new LaunchVerificationFailedError(result.code, result.message, {
      details: { launch_id: launch.id, state: failed?.state ?? launch.state, tx_hash: hash },
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
