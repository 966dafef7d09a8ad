/**
 * The launch write path shared by every surface (docs/launch.md; spec: "What the service does"
 * 1–2, "States and transitions", Endpoints), and what its steps need ({@link LaunchDeps}).
 *
 * The use cases: `apiKeyLaunches.ts` (an API key's intent, build, confirm and status: the v1
 * launch flow and the coin flow) and `sessionLaunches.ts` (a signed-in browser session's build and
 * verify). They take plain inputs (the parsed body, the caller's key or session, the store, the
 * clock) and return typed results; the routes (`http/routes/v1/`, `http/session/`) parse the
 * request and map results to status codes and headers. The steps live in `buildStep.ts`,
 * `confirmStep.ts` and `statusStep.ts`, their bodies in `responses.ts`, their errors in
 * `errors.ts` and `stepErrors.ts`, the creator's signature check in `signature.ts`; none of them sees an HTTP
 * request. Every build goes through the one builder (`chain/build.ts`), every confirmation
 * through the one verifier (`chain/verify.ts`), every state change through `src/domain/launchStates.ts` +
 * `store/launches.ts` (conditional updates), so the rules hold on every surface:
 *
 * - build only from `intent_created` (signature of the creator, EIP-191 personal_sign verified with
 *   viem `verifyMessage`: EOA, ERC-1271, ERC-6492) or `built` (the stored transaction, replayed);
 * - persistence (state `confirmed`, the creator's metadata) only after the verifier passed;
 * - a transaction hash confirms at most one launch.
 */
import type { PublicClient } from "viem";
import type { Deployment } from "../config/deployment";
import type { PublicConfig } from "../config/public";
import type { Store } from "../store/index";
import type { MarketDb } from "../market/db";

/**
 * Where the launch steps report what they decided (the service's metrics, docs/operations.md
 * "Metrics"); the composition root (http/app.ts) passes the counters, so no use case imports
 * `ops/`.
 */
export type LaunchObserver = {
  /** One build decided: `"ok"` or the builder's failure code (chain/errors.ts). */
  build(outcome: string): void;
  /** One receipt verification: `"ok"` or the verifier's code (chain/errors.ts). */
  verification(outcome: string): void;
  /** One confirm request ended: `"ok"`, `"receipt_pending"`, or the error it failed with. */
  confirmation(outcome: "ok" | "receipt_pending" | { error: unknown }): void;
};

/** What the launch steps need; the use cases build it per call from the app's store getter. */
export type LaunchDeps = {
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
  /** Where the steps report their outcomes. */
  observe: LaunchObserver;
};

/**
 * The steps' dependencies for one call: the app-wide ones as given, the store opened through the
 * app's getter (which may reconnect).
 * @param deps - the app-wide dependencies and the store getter
 * @returns a {@link LaunchDeps} for one use-case call
 */
export async function launchDepsFor(
  deps: Omit<LaunchDeps, "store"> & { getStore: () => Promise<Store> },
): Promise<LaunchDeps> {
  return {
    store: await deps.getStore(),
    publicClient: deps.publicClient,
    deployment: deps.deployment,
    publicBaseUrl: deps.publicBaseUrl,
    publicConfig: deps.publicConfig,
    db: deps.db,
    nowSec: deps.nowSec,
    observe: deps.observe,
  };
}
