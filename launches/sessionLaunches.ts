/**
 * The launch use cases of a signed-in browser session (spec: Endpoints, session surface;
 * docs/launch.md "Session surface"): `build-direct-v3-launch` and `verify-direct-v3-launch`, over
 * the same builder, verifier and state machine as the API-key launches (`apiKeyLaunches.ts`). The
 * routes check the CSRF token and that the session signed in as the creator, then call these with
 * the session's id and the parsed body; results are typed unions.
 *
 * How verify knows what was built: every session build is stored (a `launches` row with `surface =
 * session`, the session's id, state `built`, the build response incl. `amountOutMinimum`). Verify
 * looks among the builds of **this session** and this creator for the one whose calldata equals the
 * transaction's input (else the newest with the same name and symbol, else the newest), and runs the
 * verifier with that build's creator, name, symbol, first buy and minimum — so a receipt without the
 * built first-buy swap is rejected, and a build of another session can never be confirmed (or have
 * its metadata chosen) from this one.
 */
import { TransactionNotFoundError, type Address, type Hash } from "viem";
import type { z } from "zod";
import type { Store } from "../store/index";
import {
  countOpenSessionBuilds,
  findSessionBuilds,
  insertSessionBuildBounded,
  type LaunchRecord,
} from "../store/launches";
import { BoundReachedError } from "../store/locks";
import type { LaunchState } from "../src/domain/launchStates";
import { tokenUrl } from "../src/domain/urls";
import { tokenIndexed } from "../market/tokenLookups";
import { runBuilder } from "./buildStep";
import { canonicalRecordOf, confirmLaunch, PENDING_RETRY_AFTER_SEC, verifyAndCount } from "./confirmStep";
import type { LaunchDeps } from "./launchDeps";
import { intentMetadata, metadataSha256, newLaunchId } from "./intent";
import { assertOwnImage } from "./ownImage";
import type { sessionBuildSchema, sessionVerifySchema } from "./requestSchemas";
import type { SessionBuiltLaunchBody, SessionPendingLaunchBody, SessionVerifiedLaunchBody } from "./wire";
import {
  ChainUnavailableError,
  LaunchNotFoundError,
  LaunchVerificationFailedError,
  MetadataMismatchError,
} from "./errors";
import { ServiceError } from "../src/domain/serviceError";

/** Result of {@link sessionBuild}: the built transaction, stored for this session. */
export type SessionBuildResult = { outcome: "built"; body: SessionBuiltLaunchBody };

/**
 * Result of {@link sessionVerify}: `verified` (dry run passed, or persisted; `body.persisted` and
 * `body.redirect_ready` tell which), or `pending` while the receipt is not mined (ask again after
 * `retryAfterSec`).
 */
export type SessionVerifyResult =
  | { outcome: "verified"; body: SessionVerifiedLaunchBody }
  | { outcome: "pending"; body: SessionPendingLaunchBody; retryAfterSec: number };

/**
 * Default milliseconds verify waits for the indexer's token row before answering
 * `redirect_ready: false` (the service passes `LAUNCH_REDIRECT_WAIT_MS`, parsed in config/env.ts).
 */
export const REDIRECT_WAIT_MS = 5_000;

/**
 * `build-direct-v3-launch`: runs the one builder and stores the build for this session.
 * @returns `built` with the body `sessionBuiltLaunchWire` describes (launches/wire.ts)
 * @param options.maxOpenBuilds - bound on this session's open builds (state `built`, younger than
 *   24 h; `LIMITS.openBuildsPerSession`, default 20), checked before the builder runs (no RPC work
 *   for a session at its bound) and again, race-free, when the build is stored
 * @throws InvalidImageUrlError, LaunchSimulationFailedError, ChainUnavailableError
 * @throws BoundReachedError when the session holds `maxOpenBuilds` open builds (nothing stored)
 */
export async function sessionBuild(
  deps: LaunchDeps,
  sessionId: string,
  body: z.infer<typeof sessionBuildSchema>,
  options: { maxOpenBuilds: number },
): Promise<SessionBuildResult> {
  const { csrf_token: _csrf, ...request } = body;
  const maxOpen = options.maxOpenBuilds;
  const before = await countOpenSessionBuilds(deps.store, sessionId, deps.nowSec() * 1000);
  if (before.open >= maxOpen)
    throw new BoundReachedError("open session builds per session", maxOpen, before.freesAtMs ?? deps.nowSec() * 1000);
  await assertOwnImage(deps.store, request, deps.publicBaseUrl);
  const { built, body: buildBody } = await runBuilder(deps, {
    creator: request.creator,
    name: request.name,
    symbol: request.symbol,
    firstBuyWei: BigInt(request.first_buy_wei),
    slippageBps: request.slippage_bps,
  });
  const nowMs = deps.nowSec() * 1000;
  const launch = {
    id: newLaunchId(),
    surface: "session",
    apiKeyId: null,
    sessionId,
    state: "built" as const,
    chainId: deps.deployment.chainId,
    factory: deps.deployment.contracts.launchFactory,
    creator: request.creator,
    name: request.name,
    symbol: request.symbol,
    description: request.description ?? null,
    imageUrl: request.image_url ?? null,
    websiteUrl: request.website_url ?? null,
    twitterUrl: request.twitter_url ?? null,
    telegramUrl: request.telegram_url ?? null,
    firstBuyWei: request.first_buy_wei,
    slippageBps: request.slippage_bps,
    metadataSha256: metadataSha256(request),
    build: buildBody,
    predictedTokenAddress: built.predictedTokenAddress,
    amountOutMinimum: built.firstBuyAmountOutMinimum.toString(),
    builtAtMs: nowMs,
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
  };
  await insertSessionBuildBounded(deps.store, launch, maxOpen, nowMs);
  return {
    outcome: "built",
    body: {
      launch_id: launch.id,
      state: "built",
      ...buildBody,
      metadata: intentMetadata(request),
      built_at_sec: deps.nowSec(),
    },
  };
}

async function pickBuild(
  deps: LaunchDeps,
  store: Store,
  sessionId: string,
  req: z.infer<typeof sessionVerifySchema>,
): Promise<LaunchRecord> {
  const all = await findSessionBuilds(store, sessionId, req.creator);
  const notFound = (what: string) =>
    new LaunchNotFoundError(
      `no launch built in this session for this creator${what}: call build-direct-v3-launch first (from this browser session)`,
    );
  if (req.launch_id !== undefined) {
    const byId = all.find((b) => b.id === req.launch_id);
    if (!byId) throw notFound(` with launch_id ${req.launch_id}`);
    return byId;
  }
  // `metadata.name`/`symbol` narrow the candidates to the builds of that token.
  const builds = req.metadata
    ? all.filter((b) => b.name === req.metadata!.name && b.symbol === req.metadata!.symbol)
    : all;
  if (builds.length === 0) throw notFound(req.metadata && all.length > 0 ? " with this name and symbol" : "");
  // A repeated verify of a persisted launch answers from that launch (idempotent).
  const persisted = builds.find((b) => b.state === "confirmed" && b.txHash === req.tx_hash);
  if (persisted) return persisted;
  let input: string | undefined;
  try {
    input = (await deps.publicClient.getTransaction({ hash: req.tx_hash })).input;
  } catch (err) {
    if (!(err instanceof TransactionNotFoundError))
      throw new ChainUnavailableError("the chain RPC failed while reading the transaction; retry");
  }
  const byData = input
    ? builds.find((b) => (b.build as { transaction?: { data?: string } } | null)?.transaction?.data === input)
    : undefined;
  return byData ?? builds[0]!;
}

/** Adds the session fields every verify answer carries (also on errors). */
function sessionError(err: unknown): never {
  if (err instanceof ServiceError) {
    throw err.withDetails({
      verified: false,
      persisted: false,
      redirect_ready: false,
      token_url: null,
    });
  }
  throw err;
}

/**
 * `verify-direct-v3-launch`. With `write: false` a dry run of the verifier (nothing changes);
 * with `write: true` the confirm step of the state machine (persist on success). `redirect_ready`
 * is true only when the launch is persisted **and** the indexer has the token's row (its page and
 * read API resolve), waiting up to `LAUNCH_REDIRECT_WAIT_MS` (default 5 s); otherwise false and
 * the client repeats the same call (idempotent) until it is true.
 * @returns `verified` with a dry run's or a persisted launch's body (`sessionVerifiedLaunchWire`);
 *   `pending` (not mined) with `sessionPendingLaunchWire`'s (launches/wire.ts)
 * @throws LaunchNotFoundError, TxAlreadyUsedError, MetadataMismatchError,
 *   LaunchVerificationFailedError (each body carries `verified: false`, `redirect_ready: false`),
 *   ChainUnavailableError
 */
export async function sessionVerify(
  deps: LaunchDeps & { redirectWaitMs: number },
  sessionId: string,
  req: z.infer<typeof sessionVerifySchema>,
): Promise<SessionVerifyResult> {
  try {
    const build = await pickBuild(deps, deps.store, sessionId, req);
    // One launch, one confirmation: another creator's or another token's transaction is 409.
    await canonicalRecordOf(deps.store, req.tx_hash, build);
    if (req.metadata && (req.metadata.name !== build.name || req.metadata.symbol !== build.symbol)) {
      throw new MetadataMismatchError("metadata.name / metadata.symbol differ from the built launch", {
        details: { launch_id: build.id, state: build.state },
      });
    }
    const pending = (state: LaunchState, message: string): SessionVerifyResult => ({
      outcome: "pending",
      retryAfterSec: PENDING_RETRY_AFTER_SEC,
      body: {
        launch_id: build.id,
        state,
        verified: false,
        persisted: false,
        redirect_ready: false,
        token_url: null,
        tx_hash: req.tx_hash,
        pending: { code: "receipt_pending", message },
        retry_after_sec: PENDING_RETRY_AFTER_SEC,
      },
    });

    const alreadyPersisted = build.state === "confirmed" && build.txHash === req.tx_hash;
    if (!req.write && !alreadyPersisted) {
      const result = await verifyAndCount(deps, {
        txHash: req.tx_hash as Hash,
        creator: build.creator as Address,
        name: build.name,
        symbol: build.symbol,
        firstBuyWei: BigInt(build.firstBuyWei),
        firstBuyAmountOutMinimum: build.amountOutMinimum === null ? undefined : BigInt(build.amountOutMinimum),
      });
      if (result.status === "pending") return pending(build.state, result.message);
      if (result.status === "failed") {
        if (result.code === "rpc_unavailable") throw new ChainUnavailableError(result.message);
        throw new LaunchVerificationFailedError(result.code, result.message, {
          details: { launch_id: build.id, state: build.state, tx_hash: req.tx_hash },
        });
      }
      return {
        outcome: "verified",
        body: {
          launch_id: build.id,
          state: build.state,
          verified: true,
          persisted: false,
          redirect_ready: false,
          indexed: false,
          tx_hash: req.tx_hash,
          token_address: result.launch.token,
          token_url: tokenUrl(deps.publicBaseUrl, result.launch.token),
        },
      };
    }

    const outcome = await confirmLaunch(deps, build, req.tx_hash as Hash, {
      descriptionOverride: req.metadata?.description,
    });
    if (outcome.status === 202) return pending(outcome.launch.state, outcome.body.pending.message);
    const token = outcome.launch.tokenAddress as Address;
    const indexed = await tokenIndexed(deps.db, token, deps.redirectWaitMs);
    return {
      outcome: "verified",
      body: { ...outcome.body, verified: true, persisted: true, indexed, redirect_ready: indexed },
    };
  } catch (err) {
    sessionError(err);
  }
}
