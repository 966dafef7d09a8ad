/**
 * The launch use cases of an API-key caller (spec: Endpoints, key-authenticated surface;
 * docs/launch.md "v1 launch flow" and "Coin flow"): intent, build, confirm and status.
 * `POST /api/v1/evmchain/launches/{intent,build,confirm}`, `GET …/launches/status` and the coin
 * flow (`/api/v1/coins/…`, the same operations under draft naming) are thin routes over these, so
 * both share validation, the safety rule, the state machine, the builder, the verifier and the
 * per-wallet daily quotas (counted over all the keys of the key's wallet).
 *
 * Inputs are plain: the parsed request, the authenticated key, the idempotency claim; results are
 * typed unions the routes map to status codes and headers. Failures are use-case errors
 * (launches/errors.ts, store/errors.ts) the HTTP layer maps to the catalogue (http/serviceErrors.ts).
 */
import type { Hash, Hex } from "viem";
import type { PublicClient } from "viem";
import type { Deployment } from "../config/deployment";
import type { PublicConfig } from "../config/public";
import { inTransaction, type Store } from "../store/index";
import type { ApiKeyRecord } from "../store/keys";
import { findKeyLaunchByTx, findLaunch, insertLaunch, type LaunchRecord } from "../store/launches";
import type { MarketDb } from "../market/db";
import type { ConfirmedLaunchBody, LaunchStatusBody, PendingConfirmationBody } from "./wire";
import type { Limits } from "../config/limits";
import { consumeCoinQuota } from "../store/coinQuotas";
import { buildFromIntent } from "./buildStep";
import { confirmLaunch, finalizeQuota, PENDING_RETRY_AFTER_SEC } from "./confirmStep";
import { prepareIntent, type IntentBody } from "./intent";
import type { IntentRequest } from "./intentRequest";
import { launchDepsFor, type LaunchObserver } from "./launchDeps";
import { assertOwnImage } from "./ownImage";
import type { IdField } from "./requestSchemas";
import type { BuildBody } from "./responses";
import { launchStatus } from "./statusStep";
import { LaunchNotFoundError } from "./errors";

/** What the API-key launch use cases need (built once by `createApp`). */
export type ApiKeyLaunchDeps = {
  getStore: () => Promise<Store>;
  publicClient: PublicClient;
  deployment: Deployment;
  publicBaseUrl: string;
  publicConfig: PublicConfig;
  db: MarketDb;
  /** Daily coin quotas per wallet and per client IP. */
  limits: Pick<
    Limits,
    "coinsCreatedPerDay" | "coinsFinalizedPerDay" | "coinsCreatedPerIpPerDay" | "coinsFinalizedPerIpPerDay"
  >;
  /** Clock, unix seconds (intent times, expiry, build and confirm times). */
  nowSec: () => number;
  /** Clock, unix milliseconds (the daily quota windows). */
  nowMs: () => number;
  /** Intent lifetime, seconds (`LAUNCH_INTENT_TTL_SEC`). */
  intentTtlSec: number;
  /** Where the steps report their outcomes (the service's metrics). */
  observe: LaunchObserver;
};

/** The authenticated caller: the API key's id and wallet. */
export type KeyCaller = Pick<ApiKeyRecord, "id" | "wallet">;

/** A launch step's body, with `draft_id` (the same id) first under the coin flow's names. */
export type WithDraftId<Body> = Body & { draft_id?: string };

/** Result of {@link ApiKeyLaunches.intent}: the launch was created (HTTP 201). */
export type IntentResult = { outcome: "created"; body: WithDraftId<IntentBody> };
/** Result of {@link ApiKeyLaunches.build}: the built transaction (new or replayed). */
export type BuildResult = { outcome: "built"; body: WithDraftId<BuildBody> };
/** Result of {@link ApiKeyLaunches.confirm}: confirmed, or the receipt is not mined yet (ask again after `retryAfterSec`). */
export type ConfirmResult =
  | { outcome: "confirmed"; body: WithDraftId<ConfirmedLaunchBody> }
  | { outcome: "pending"; body: WithDraftId<PendingConfirmationBody>; retryAfterSec: number };
/** Result of {@link ApiKeyLaunches.status}: the launch's status record. */
export type StatusResult = { outcome: "found"; body: WithDraftId<LaunchStatusBody> };

/** Which launch a status read asks for: by id, or (v1 only) by the transaction last submitted. */
export type StatusLookup = { launchId: string } | { txHash: Hash };

/** The use cases, bound to their dependencies. */
export type ApiKeyLaunches = ReturnType<typeof apiKeyLaunches>;

/**
 * Builds the use cases.
 * @param deps - store getter, chain client, deployment, quotas, clocks, intent lifetime
 */
export function apiKeyLaunches(deps: ApiKeyLaunchDeps) {
  const stepDeps = () => launchDepsFor(deps);

  /** The caller's launch; another key's launch is indistinguishable from a missing one (404). */
  async function ownLaunch(store: Store, key: KeyCaller, id: string, field: IdField): Promise<LaunchRecord> {
    const launch = await findLaunch(store, id);
    if (launch?.surface !== "v1" || launch.apiKeyId !== key.id) {
      throw new LaunchNotFoundError(`${field}: no launch ${id} for this API key`);
    }
    return launch;
  }

  const withId = <Body extends { launch_id: string }>(field: IdField, body: Body): WithDraftId<Body> =>
    field === "draft_id" ? { draft_id: body.launch_id, ...body } : body;

  return {
    /**
     * Intent / create-draft: stores the launch in `intent_created`, counts one coin against the
     * daily "created" quotas of the key's wallet and of the client IP. Body `{launch_id |
     * draft_id, state, intent}`.
     * The quota, the launch and whatever `input.withinTransaction` writes (the route's stored
     * `Idempotency-Key` answer) are one transaction: after a crash either all exist (the retry
     * replays the answer) or none (the retry runs afresh).
     * @param input.withinTransaction - runs inside that transaction with the result, before it commits
     * @param input.clientIp - the caller's client IP (`clientIp`), key of the per-IP daily quota
     * @throws InvalidImageUrlError, QuotaExceededError (with `retryAfterSec`); whatever
     *   `withinTransaction` throws (the transaction rolls back)
     */
    async intent(input: {
      key: KeyCaller;
      clientIp: string;
      field: IdField;
      request: IntentRequest;
      withinTransaction?: (tx: Store, result: IntentResult) => Promise<void>;
    }): Promise<IntentResult> {
      const { key, field, request } = input;
      const store = await deps.getStore();
      await assertOwnImage(store, request, deps.publicBaseUrl);
      const { launch, body } = prepareIntent({
        request,
        deployment: deps.deployment,
        publicBaseUrl: deps.publicBaseUrl,
        apiKeyId: key.id,
        nowSec: deps.nowSec(),
        ttlSec: deps.intentTtlSec,
      });
      const result: IntentResult = { outcome: "created", body: withId(field, body) };
      await inTransaction(store, async (tx) => {
        await consumeCoinQuota(tx, key.wallet, "coins_created", {
          limit: deps.limits.coinsCreatedPerDay,
          client: { ip: input.clientIp, limit: deps.limits.coinsCreatedPerIpPerDay },
          nowMs: deps.nowMs(),
        });
        await insertLaunch(tx, launch);
        await input.withinTransaction?.(tx, result);
      });
      return result;
    },

    /**
     * Build / create-transaction from the creator's signature of the intent message (`buildFromIntent`).
     * @throws InvalidSignatureError, LaunchNotFoundError, LaunchStateConflictError, IntentExpiredError,
     *   LaunchSimulationFailedError, ChainUnavailableError
     */
    async build(input: { key: KeyCaller; field: IdField; launchId: string; signature: Hex }): Promise<BuildResult> {
      const step = await stepDeps();
      const launch = await ownLaunch(step.store, input.key, input.launchId, input.field);
      const result = await buildFromIntent(step, launch, input.signature);
      return { outcome: "built", body: withId(input.field, result) };
    },

    /**
     * Confirm / finalize with the broadcast transaction (`confirmLaunch`); counts one coin against
     * the daily "finalized" quotas of the key's wallet and of the client IP (`input.clientIp`)
     * when the launch persists.
     * @throws LaunchNotFoundError, LaunchStateConflictError, TxAlreadyUsedError,
     *   LaunchVerificationFailedError, QuotaExceededError, ChainUnavailableError
     */
    async confirm(input: {
      key: KeyCaller;
      clientIp: string;
      field: IdField;
      launchId: string;
      txHash: Hash;
    }): Promise<ConfirmResult> {
      const step = await stepDeps();
      const launch = await ownLaunch(step.store, input.key, input.launchId, input.field);
      // Counted inside the transaction that persists the launch (see `FinalizeQuota`).
      const quota = finalizeQuota((tx) =>
        consumeCoinQuota(tx, input.key.wallet, "coins_finalized", {
          limit: deps.limits.coinsFinalizedPerDay,
          client: { ip: input.clientIp, limit: deps.limits.coinsFinalizedPerIpPerDay },
          nowMs: deps.nowMs(),
        }),
      );
      const outcome = await confirmLaunch(step, launch, input.txHash, { quota });
      return outcome.status === 202
        ? { outcome: "pending", body: withId(input.field, outcome.body), retryAfterSec: PENDING_RETRY_AFTER_SEC }
        : { outcome: "confirmed", body: withId(input.field, outcome.body) };
    },

    /**
     * Status of one of the key's launches, by id or (v1) by transaction hash (a confirmed launch first).
     * @throws LaunchNotFoundError
     */
    async status(input: { key: KeyCaller; field: IdField; lookup: StatusLookup }): Promise<StatusResult> {
      const store = await deps.getStore();
      let launch: LaunchRecord;
      if ("launchId" in input.lookup) {
        launch = await ownLaunch(store, input.key, input.lookup.launchId, input.field);
      } else {
        const hash = input.lookup.txHash;
        const found = await findKeyLaunchByTx(store, input.key.id, hash);
        if (found?.surface !== "v1")
          throw new LaunchNotFoundError(`tx_hash: no launch of this API key was submitted with ${hash}`);
        launch = found;
      }
      const body = await launchStatus({ store, nowSec: deps.nowSec, publicBaseUrl: deps.publicBaseUrl }, launch);
      return { outcome: "found", body: withId(input.field, body) };
    },
  };
}
