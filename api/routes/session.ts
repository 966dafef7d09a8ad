/**
 * Session surface `/api/evm/evmchain` — browser session, CSRF token, Sign-In with Ethereum
 * (EIP-4361) and wallet-signed API-key creation (spec: Authentication 4 and 7; session surface).
 *
 * Every POST here goes through {@link requireCsrf} (same origin, session cookie, `X-CSRF-Token`
 * header equal to body `csrf_token`, valid for the session) and the per-IP session rate limit.
 * The launch write path's routes (`status`, `build-direct-v3-launch`, `verify-direct-v3-launch`;
 * docs/launch.md "Session surface") sit behind the same guard, act only for the wallet the session
 * signed in with (403 `sign_in_required` / `wallet_mismatch` otherwise; docs/security.md), and
 * share the one builder and verifier with the key-authenticated flow.
 */
import { Hono, type Context } from "hono";
import { isHex, type Address, type Hex } from "viem";
import { z } from "zod";
import { BoundReachedError } from "../../store/locks";
import { createCsrfToken, signOutSession } from "../../store/sessions";
import { sendOk } from "../json";
import { SOURCE_TIMEOUT_MS, withTimeout } from "../timeout";
import { chainProbe } from "../chainProbe";
import { readinessMonitor } from "../readiness";
import { clientIp } from "../middleware/clientIp";
import { storeGetter, type TrustDeps, type TrustEnv } from "../middleware/context";
import { assertSessionWallet, loadOrCreateSession, requireCsrf, setSessionCookie } from "../middleware/csrf";
import {
  completeSignIn,
  issueSignInChallenge,
  type SignedIn,
  type SignInParty,
  type SignInPurpose,
} from "../session/signIn";
import { consumeNewSession, LIMITS, sessionBoundError, storeRateLimiter } from "../middleware/rateLimit";
import { addressParam, describedInput, validate } from "../validation";
import { documented } from "../openapi/describe";
import { launchStateWire, policyWire, transactionWire } from "../openapi/launchWire";
import { okBody, addressWire } from "../openapi/wirePrimitives";
import { launchFactoryAbi } from "../../abis/LaunchFactory";
import { hasPublicRpc, type AddEthereumChainParameter } from "../../launch/network";
import type { PublicConfig } from "../../config/public";
import { redactPrivateUrls } from "../../config/redact";
import { PENDING_RETRY_AFTER_SEC } from "../launch/confirmStep";
import type { LaunchFlowDeps } from "../launch/flow";
import { parseLaunchBody } from "../launch/keyFlow";
import {
  REDIRECT_WAIT_MS,
  sessionBuild,
  sessionBuildSchema,
  sessionVerify,
  sessionVerifySchema,
} from "../launch/sessionFlow";
import { indexedHead } from "../market/indexedHead";
import type { MarketDb } from "../market/db";
import { swapSessionRoutes } from "../trade/routes";

/** What the session router needs. */
export type SessionDeps = TrustDeps & {
  publicBaseUrl: string;
  publicConfig: PublicConfig;
  /** The wallet's network parameters (`wallet_addEthereumChain`), built once by `createApp`. */
  network: AddEthereumChainParameter;
  /** Ponder's read-only db (indexer readiness; whether a verified token's page resolves). */
  db: MarketDb;
  /** Clock, unix seconds. */
  nowSec?: () => number;
  /** How long verify waits for the indexer's token row (the service passes `LAUNCH_REDIRECT_WAIT_MS`; default 5 s). */
  redirectWaitMs?: number;
};

const challengeBody = z.object({ wallet: addressParam, csrf_token: z.string() });
const signInChallengeBody = challengeBody.extend({ create_api_key: z.boolean().default(false) });
const signatureBody = z.object({
  wallet: addressParam,
  signature: z.string().refine((v) => isHex(v) && v.length >= 132, "must be a 0x-prefixed hex signature"),
  csrf_token: z.string(),
  label: z.string().max(100, "must be at most 100 characters").optional(),
});
const signOutBody = z.object({ csrf_token: z.string() });

const challengeWire = okBody({
  message: z.string(),
  nonce: z.string(),
  purpose: z.enum(["sign_in", "sign_in_and_create_key"]),
  issued_at_sec: z.number().int(),
  expires_at_sec: z.number().int(),
});
const keyWire = z.looseObject({ id: z.string(), prefix: z.string(), wallet: addressWire, scopes: z.array(z.string()) });

function challengeResponse(c: Context, issued: Awaited<ReturnType<typeof issueSignInChallenge>>) {
  c.header("Cache-Control", "no-store");
  return sendOk(c, {
    message: issued.message,
    nonce: issued.nonce,
    purpose: issued.purpose,
    issued_at_sec: Math.floor(issued.issuedAtMs / 1000),
    expires_at_sec: Math.floor(issued.expiresAtMs / 1000),
  });
}

function keyFields({ secret, key }: NonNullable<SignedIn["apiKey"]>) {
  return {
    api_key: secret,
    key: {
      id: key.id,
      prefix: key.displayPrefix,
      wallet: key.wallet,
      scopes: key.scopes,
      created_at_sec: Math.floor(key.createdAtMs / 1000),
    },
  };
}

/** Builds the `/api/evm/evmchain` session router. */
export function sessionRoutes(deps: SessionDeps) {
  const getStore = storeGetter(deps.store);
  const limits = { ...LIMITS, ...deps.limits };
  const base = new URL(deps.publicBaseUrl);
  const csrf = requireCsrf({ getStore, allowedOrigins: [base.origin] });
  const nowSec = deps.nowSec ?? (() => Math.floor(Date.now() / 1000));
  const redirectWaitMs = deps.redirectWaitMs ?? REDIRECT_WAIT_MS;
  // Public RPC URLs only (PUBLIC_RPC_URL): the service's own RPC URL may hold a provider secret.
  const network = deps.network;
  const party: SignInParty = { publicBaseUrl: deps.publicBaseUrl, chainId: deps.deployment.chainId };
  const signInLimits = {
    openChallengesPerSession: limits.openChallengesPerSession,
    activeKeysPerWallet: limits.activeKeysPerWallet,
  };
  const issueChallenge = async (c: Context<TrustEnv>, wallet: Address, purpose: SignInPurpose) => {
    const nowMs = Date.now();
    try {
      return await issueSignInChallenge(
        await getStore(),
        party,
        c.get("session")!,
        wallet,
        purpose,
        signInLimits,
        nowMs,
      );
    } catch (err) {
      // Retry-After counts from the answer, not from this request's start: a concurrent request that
      // started later may hold the oldest slot, so its expiry can lie more than the TTL past nowMs.
      throw err instanceof BoundReachedError ? sessionBoundError(c, err, Date.now()) : err;
    }
  };
  const signIn = async (
    c: Context<TrustEnv>,
    request: Parameters<typeof completeSignIn>[2],
    requireKeyPurpose: boolean,
  ): Promise<SignedIn> => {
    const signedIn = await completeSignIn(
      { store: await getStore(), publicClient: deps.publicClient, party },
      c.get("session")!,
      request,
      { requireKeyPurpose, maxActiveKeys: limits.activeKeysPerWallet },
    );
    setSessionCookie(c, signedIn.cookieValue, signedIn.session.expiresAtMs);
    c.header("Cache-Control", "no-store");
    return signedIn;
  };
  const probe = deps.chainProbe ?? chainProbe({ client: deps.publicClient, expectedChainId: deps.deployment.chainId });
  const readiness = deps.readiness ?? readinessMonitor({ indexedHead: () => indexedHead(deps.db), probe });
  const flowDeps = async (): Promise<LaunchFlowDeps> => ({
    store: await getStore(),
    publicClient: deps.publicClient,
    deployment: deps.deployment,
    publicBaseUrl: deps.publicBaseUrl,
    publicConfig: deps.publicConfig,
    db: deps.db,
    nowSec,
  });
  return (
    new Hono<TrustEnv>()
      .use(
        "*",
        storeRateLimiter({
          getStore,
          prefix: "session:",
          limit: limits.sessionRequestsPerMinute,
          key: (c) => clientIp(c, deps.trustProxy ?? false),
        }),
      )
      /**
       * GET /api/evm/evmchain/session — the session's CSRF token and the wallet it signed in
       * with. Sets the session cookie (HttpOnly, SameSite=Strict, Secure except on localhost)
       * when missing or expired. 200 `{ok, csrf_token, expires_at_sec, wallet (checksummed, or
       * null before sign-in), signed_in_at_sec}`.
       */
      .get(
        "/session",
        documented({
          tag: "session",
          summary: "The session's CSRF token and signed-in wallet (sets the session cookie)",
          ok: okBody({
            csrf_token: z.string(),
            expires_at_sec: z.number().int(),
            wallet: addressWire.nullable(),
            signed_in_at_sec: z.number().int().nullable(),
          }),
        }),
        async (c) => {
          const session = await loadOrCreateSession(c, getStore, {
            // Bounded: a client makes at most `sessionsPerIpPerHour` new sessions (store rows).
            beforeCreate: (store) =>
              consumeNewSession(store, c, clientIp(c, deps.trustProxy ?? false), limits.sessionsPerIpPerHour),
          });
          c.header("Cache-Control", "no-store");
          return sendOk(c, {
            csrf_token: createCsrfToken(session),
            expires_at_sec: Math.floor(session.expiresAtMs / 1000),
            wallet: session.wallet,
            signed_in_at_sec: session.signedInAtMs === null ? null : Math.floor(session.signedInAtMs / 1000),
          });
        },
      )
      /**
       * POST /api/evm/evmchain/sign-in/challenge `{wallet, csrf_token, create_api_key?}` (EIP-4361)
       * — a one-time Sign-In with Ethereum message for `wallet` to sign with personal_sign, bound
       * to this session, valid 5 minutes; `create_api_key: true` makes the same signature also
       * create the browser's API key. 200 `{ok, message, nonce, purpose, issued_at_sec,
       * expires_at_sec}`; 400; 403 `csrf_failed`; 409 `key_limit_reached` (with
       * `create_api_key`, the wallet holds its maximum of active keys); 429
       * `session_limit_reached` (5 open challenges in this session; `Retry-After`).
       */
      .post(
        "/sign-in/challenge",
        documented({
          tag: "session",
          summary: "A one-time Sign-In with Ethereum (EIP-4361) message for the wallet to sign",
          ok: challengeWire,
          errors: ["invalid_request", "invalid_address", "key_limit_reached", "session_limit_reached"],
        }),
        csrf,
        validate("json", signInChallengeBody),
        async (c) => {
          const { wallet, create_api_key } = c.req.valid("json");
          const issued = await issueChallenge(c, wallet, create_api_key ? "sign_in_and_create_key" : "sign_in");
          return challengeResponse(c, issued);
        },
      )
      /**
       * POST /api/evm/evmchain/sign-in `{wallet, signature, csrf_token, label?}` (EIP-4361) —
       * verifies the signature of this session's newest open challenge for `wallet` (EOA,
       * ERC-1271, ERC-6492 through viem `verifySiweMessage`; domain, URI, chain id, nonce and
       * expiry checked), consumes it (one attempt), and signs the session in as `wallet`: the
       * session cookie is rotated (`Set-Cookie`; CSRF tokens stay valid). When the challenge was
       * issued with `create_api_key: true` the answer also carries the new key, shown once.
       * 200 `{ok, wallet, signed_in_at_sec, expires_at_sec, api_key?, key?}`; 400
       * `challenge_not_found`; 401 `invalid_signature`; 403 `csrf_failed`; 409
       * `key_limit_reached` (nothing signed in, nothing created).
       */
      .post(
        "/sign-in",
        documented({
          tag: "session",
          summary: "Sign the session in with the signed EIP-4361 challenge (rotates the session cookie)",
          ok: okBody({
            wallet: addressWire,
            signed_in_at_sec: z.number().int(),
            expires_at_sec: z.number().int(),
            api_key: z.string().startsWith("sk_live_").optional(),
            key: keyWire.optional(),
          }),
          errors: [
            "invalid_request",
            "invalid_address",
            "challenge_not_found",
            "invalid_signature",
            "key_limit_reached",
          ],
        }),
        csrf,
        validate("json", signatureBody),
        async (c) => {
          const { wallet, signature, label } = c.req.valid("json");
          const signedIn = await signIn(c, { wallet, signature: signature as Hex, label }, false);
          return sendOk(c, {
            wallet: signedIn.session.wallet,
            signed_in_at_sec: Math.floor(signedIn.session.signedInAtMs! / 1000),
            expires_at_sec: Math.floor(signedIn.session.expiresAtMs / 1000),
            ...(signedIn.apiKey ? keyFields(signedIn.apiKey) : {}),
          });
        },
      )
      /**
       * POST /api/evm/evmchain/sign-out `{csrf_token}` — forgets the session's wallet (the
       * session and its CSRF token stay). 200 `{ok, wallet: null}`; 403 `csrf_failed`.
       */
      .post(
        "/sign-out",
        documented({
          tag: "session",
          summary: "Forget the wallet this session signed in with",
          ok: okBody({ wallet: z.null() }),
          errors: ["invalid_request"],
        }),
        csrf,
        validate("json", signOutBody),
        async (c) => {
          await signOutSession(await getStore(), c.get("session")!.id);
          c.header("Cache-Control", "no-store");
          return sendOk(c, { wallet: null });
        },
      )
      /**
       * POST /api/evm/evmchain/api-keys/challenge `{wallet, csrf_token}` — the sign-in challenge
       * with `create_api_key: true` (kept for clients of the key flow). 200 as
       * `sign-in/challenge`; 403 `csrf_failed`; 400; 409 `key_limit_reached`; 429
       * `session_limit_reached`.
       */
      .post(
        "/api-keys/challenge",
        documented({
          tag: "session",
          summary: "A one-time EIP-4361 message whose signature signs in and creates an API key",
          ok: challengeWire,
          errors: ["invalid_request", "invalid_address", "key_limit_reached", "session_limit_reached"],
        }),
        csrf,
        validate("json", challengeBody),
        async (c) => {
          const { wallet } = c.req.valid("json");
          const issued = await issueChallenge(c, wallet, "sign_in_and_create_key");
          return challengeResponse(c, issued);
        },
      )
      /**
       * POST /api/evm/evmchain/api-keys `{wallet, signature, csrf_token, label?}` — verifies the
       * signature of this session's newest open key challenge for `wallet` (as `sign-in`),
       * consumes it, signs the session in (cookie rotated) and returns the new key once.
       * 201 `{ok, api_key, key: {id, prefix, wallet, scopes, created_at_sec}}`; 400
       * `challenge_not_found`; 401 `invalid_signature`; 403 `csrf_failed`; 409
       * `key_limit_reached` (the wallet already holds `API_KEYS_PER_WALLET` active keys, default
       * 10; nothing created, nothing signed in).
       */
      .post(
        "/api-keys",
        documented({
          tag: "session",
          status: 201,
          summary: "Create an API key from the signed challenge (also signs the session in); the secret is shown once",
          ok: okBody({ api_key: z.string().startsWith("sk_live_"), key: keyWire }),
          errors: [
            "invalid_request",
            "invalid_address",
            "challenge_not_found",
            "invalid_signature",
            "key_limit_reached",
          ],
        }),
        csrf,
        validate("json", signatureBody),
        async (c) => {
          const { wallet, signature, label } = c.req.valid("json");
          const signedIn = await signIn(c, { wallet, signature: signature as Hex, label }, true);
          return sendOk(c, keyFields(signedIn.apiKey!), 201);
        },
      )
      /**
       * GET /api/evm/evmchain/status — what a wallet needs before sending a built launch, and
       * whether the service is ready (spec: session surface; EIP-3085 / EIP-3326). Always 200:
       * `{ok, chain_id: "0x1237", chain_id_decimal, chain_name, native_currency {name, symbol,
       * decimals}, rpc_urls (PUBLIC_RPC_URL only, never the service's RPC_URL; [] when unset),
       * block_explorer_urls, wallet_add_ethereum_chain (the EIP-3085 parameter object, or null
       * without a public RPC URL), factory {address, accepted_factories, fee_locker,
       * minimum_pool_liquidity_wei (live, null when the RPC is down)}, readiness {ready (as
       * `GET /api/v1/ready`: the indexed head within `READY_MAX_LAG_BLOCKS` of the chain head and
       * not stalled; api/readiness.ts), status (ok, degraded, stalled), reason (null when ready),
       * max_lag_blocks, max_indexed_age_sec, rpc {ok, chain_id, block_number}, indexer {ok,
       * block_number, age_sec (seconds since the indexed block), status, lag_blocks (null while
       * the RPC is down)}}}`. RPC probes are bounded to 2 s (a
       * stalled RPC is `rpc.ok: false`); the chain id / head probe is shared with
       * `/api/v1/health` and reused for one second (api/chainProbe.ts).
       */
      .get(
        "/status",
        documented({
          tag: "session",
          summary: "Network (EIP-3085 parameters for wallet_addEthereumChain), factory and readiness",
          ok: okBody({
            chain_id: z.literal("0x1237").or(z.string()),
            chain_id_decimal: z.number().int(),
            chain_name: z.string(),
            rpc_urls: z.array(z.string()).meta({
              description:
                "PUBLIC_RPC_URL (comma-separated); never the service's own RPC URL; empty when not configured",
            }),
            wallet_add_ethereum_chain: z
              .record(z.string(), z.unknown())
              .nullable()
              .meta({ description: "EIP-3085 parameters, or null when no public RPC URL is configured" }),
            factory: z.looseObject({ address: addressWire, minimum_pool_liquidity_wei: z.string().nullable() }),
            readiness: z.looseObject({ ready: z.boolean() }),
          }),
        }),
        async (c) => {
          const [rpc, ready, minimum] = await Promise.all([
            // RPC probes are bounded (2 s: a stalled RPC reports `rpc.ok: false` instead of hanging)
            // and shared with /api/v1/health for one second (api/chainProbe.ts).
            probe().then(({ checked_at_ms: _, ...rpc }) =>
              "error" in rpc
                ? {
                    ok: false,
                    chain_id: null,
                    block_number: null,
                    error: redactPrivateUrls(rpc.error, [deps.deployment.rpcUrl]),
                  }
                : rpc,
            ),
            // The service's readiness (api/readiness.ts): indexed head against the chain head.
            readiness(),
            withTimeout(
              deps.publicClient.readContract({
                address: deps.deployment.contracts.launchFactory,
                abi: launchFactoryAbi,
                functionName: "minimumPoolLiquidityWei",
              }),
              SOURCE_TIMEOUT_MS,
            )
              .then((v) => v.toString())
              .catch(() => null),
          ]);
          const indexer =
            ready.indexed_block === null
              ? { ok: false, block_number: null, status: ready.status, error: ready.reason }
              : {
                  ok: true,
                  block_number: ready.indexed_block,
                  age_sec: ready.indexed_block_age_sec,
                  status: ready.status,
                  lag_blocks: ready.lag_blocks,
                };
          const reason = ready.reason === null ? null : redactPrivateUrls(ready.reason, [deps.deployment.rpcUrl]);
          c.header("Cache-Control", "no-store");
          return sendOk(c, {
            chain_id: network.chainId,
            chain_id_decimal: deps.deployment.chainId,
            chain_name: network.chainName,
            native_currency: network.nativeCurrency,
            rpc_urls: network.rpcUrls,
            block_explorer_urls: network.blockExplorerUrls ?? [],
            wallet_add_ethereum_chain: hasPublicRpc(network) ? network : null,
            factory: {
              address: deps.deployment.contracts.launchFactory,
              accepted_factories: deps.deployment.acceptedFactories,
              fee_locker: deps.deployment.contracts.feeLocker,
              minimum_pool_liquidity_wei: minimum,
            },
            readiness: {
              ready: rpc.ok && ready.ready,
              status: ready.status,
              reason,
              max_lag_blocks: ready.max_lag_blocks,
              max_indexed_age_sec: ready.max_indexed_age_sec,
              rpc,
              indexer,
            },
          });
        },
      )
      /**
       * POST /api/evm/evmchain/build-direct-v3-launch `{creator, name, symbol, first_buy_wei?,
       * slippage_bps?, description?, image_url?, website_url?, twitter_url?, telegram_url?,
       * csrf_token}` + `X-CSRF-Token` (spec: session surface) — the one builder; the build is
       * stored for this session (verify checks against it). 200 `{ok, launch_id, state: "built",
       * transaction {chainId, from, to, value, data, gas}, policy, predicted_token_address,
       * predicted_pool_address, gas_limit, amount_out_minimum, expected_tokens_out, slippage_bps,
       * simulated_at_block, metadata}`. Failure: `{ok: false, error, message}` — 400
       * `invalid_request` / `invalid_address` / `forbidden_field` / `invalid_image_url`, 403
       * `csrf_failed` / `sign_in_required` / `wallet_mismatch` (the session must have signed in
       * as `creator`), 422 `launch_simulation_failed`, 429 `session_limit_reached` (20 open builds
       * in this session; `Retry-After`), 503 `chain_unavailable`.
       */
      .post(
        "/build-direct-v3-launch",
        documented({
          tag: "session",
          summary: "Build the unsigned launch transaction for the connected wallet",
          ok: launchStateWire.extend({ ok: z.literal(true), transaction: transactionWire, policy: policyWire }),
          errors: [
            "invalid_request",
            "invalid_address",
            "forbidden_field",
            "sign_in_required",
            "wallet_mismatch",
            "invalid_image_url",
            "launch_simulation_failed",
            "session_limit_reached",
            "chain_unavailable",
          ],
        }),
        describedInput("json", sessionBuildSchema),
        csrf,
        async (c) => {
          const body = await parseLaunchBody(c, sessionBuildSchema);
          assertSessionWallet(c, body.creator);
          let result: Awaited<ReturnType<typeof sessionBuild>>;
          try {
            result = await sessionBuild(await flowDeps(), c.get("session")!.id, body, {
              maxOpenBuilds: limits.openBuildsPerSession,
            });
          } catch (err) {
            throw err instanceof BoundReachedError ? sessionBoundError(c, err) : err;
          }
          c.header("Cache-Control", "no-store");
          return sendOk(c, result);
        },
      )
      /**
       * POST /api/evm/evmchain/verify-direct-v3-launch `{tx_hash, creator, write, csrf_token,
       * metadata?: {name, symbol, description?}, launch_id?}` + `X-CSRF-Token` (spec: session
       * surface) — the one verifier against this session's build (api/launch/sessionFlow.ts).
       * `write: true` persists on success. 200 `{ok, launch_id, state, verified, persisted,
       * redirect_ready, indexed, token_address, token_url, …}`: `redirect_ready` only once
       * persisted and indexed; 202 while the transaction is not mined (`Retry-After`). Failure:
       * `{ok: false, error, message, launch_id, state, verified: false, redirect_ready: false,
       * token_url: null}` — 422 verifier codes, 409 `tx_already_used` / `launch_state_conflict`,
       * 404 `launch_not_found`, 400, 403 `csrf_failed` / `sign_in_required` / `wallet_mismatch`
       * (the session must have signed in as `creator`), 503.
       */
      .post(
        "/verify-direct-v3-launch",
        documented({
          tag: "session",
          summary: "Verify the broadcast launch; with write: true persist it and report redirect_ready / token_url",
          ok: launchStateWire.extend({
            ok: z.literal(true),
            verified: z.boolean(),
            persisted: z.boolean(),
            redirect_ready: z.boolean(),
            token_url: z.string().nullable(),
          }),
          also: { 202: { description: "The transaction is not mined yet (`Retry-After`)." } },
          errors: [
            "invalid_request",
            "invalid_address",
            "forbidden_field",
            "sign_in_required",
            "wallet_mismatch",
            "launch_not_found",
            "launch_state_conflict",
            "tx_already_used",
            "chain_unavailable",
            "transaction_reverted",
            "factory_not_accepted",
            "launch_event_missing",
            "launch_event_ambiguous",
            "creator_mismatch",
            "metadata_mismatch",
            "value_mismatch",
            "lp_not_locked",
            "first_buy_missing",
            "first_buy_below_minimum",
          ],
        }),
        describedInput("json", sessionVerifySchema),
        csrf,
        async (c) => {
          const body = await parseLaunchBody(c, sessionVerifySchema);
          assertSessionWallet(c, body.creator);
          const { status, body: result } = await sessionVerify(
            { ...(await flowDeps()), redirectWaitMs },
            c.get("session")!.id,
            body,
          );
          if (status === 202) c.header("Retry-After", String(PENDING_RETRY_AFTER_SEC));
          c.header("Cache-Control", "no-store");
          return sendOk(c, result, status);
        },
      )
      // Swaps on the token page (docs/trade.md): the same CSRF guard and sign-in rule.
      .route("/", swapSessionRoutes({ ...deps, getStore, buildsPerMinute: limits.swapBuildsPerMinute }, csrf))
  );
}
