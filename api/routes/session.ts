/**
 * Session surface `/api/evm/evmchain` — browser session, CSRF token and wallet-signed API-key
 * creation (spec: Authentication 4 and 7; session surface).
 *
 * Every POST here goes through {@link requireCsrf} (same origin, session cookie, `X-CSRF-Token`
 * header equal to body `csrf_token`, valid for the session) and the per-IP session rate limit.
 * The launch write path's routes (`status`, `build-direct-v3-launch`, `verify-direct-v3-launch`;
 * docs/launch.md "Session surface") sit behind the same guard and share the one builder and
 * verifier with the key-authenticated flow.
 */
import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { isHex, type Address } from "viem";
import { z } from "zod";
import { CHALLENGE_TTL_MS, consumeChallenge, insertChallenge } from "../../store/challenges";
import { createApiKey } from "../../store/keys";
import { createCsrfToken } from "../../store/sessions";
import { ApiError } from "../errors";
import { sendOk } from "../json";
import { SOURCE_TIMEOUT_MS, withTimeout } from "../metrics/gauges";
import { clientIp } from "../middleware/clientIp";
import { storeGetter, type TrustDeps, type TrustEnv } from "../middleware/context";
import { loadOrCreateSession, requireCsrf } from "../middleware/csrf";
import { LIMITS, storeRateLimiter } from "../middleware/rateLimit";
import { addressParam, describedInput, validate } from "../validation";
import { documented } from "../openapi/describe";
import { launchStateWire, okBody, policyWire, transactionWire, addressWire } from "../openapi/schemas";
import { launchFactoryAbi } from "../../abis/LaunchFactory";
import { addEthereumChainParameter } from "../../launch/network";
import { PENDING_RETRY_AFTER_SEC, type LaunchFlowDeps } from "../launch/flow";
import { parseLaunchBody } from "../launch/keyFlow";
import { redirectWaitFromEnv, sessionBuild, sessionBuildSchema, sessionVerify, sessionVerifySchema } from "../launch/sessionFlow";
import { indexedHead } from "../market/publicQueries";
import type { MarketDb } from "../market/queries";

/** What the session router needs. */
export type SessionDeps = TrustDeps & {
  publicBaseUrl: string;
  /** Ponder's read-only db (indexer readiness; whether a verified token's page resolves). */
  db: MarketDb;
  /** Clock, unix seconds. */
  nowSec?: () => number;
  /** How long verify waits for the indexer's token row (default `LAUNCH_REDIRECT_WAIT_MS`, 5 s). */
  redirectWaitMs?: number;
};

const challengeBody = z.object({ wallet: addressParam, csrf_token: z.string() });
const createKeyBody = z.object({
  wallet: addressParam,
  signature: z.string().refine((v) => isHex(v) && v.length >= 132, "must be a 0x-prefixed hex signature"),
  csrf_token: z.string(),
  label: z.string().max(100, "must be at most 100 characters").optional(),
});

/**
 * The key-creation challenge message (EIP-4361 layout).
 * @example keyChallengeMessage({ domain: "launch.example", uri: "https://launch.example", wallet, chainId: 4663, nonce, issuedAtMs, expiresAtMs })
 */
export function keyChallengeMessage(f: {
  domain: string;
  uri: string;
  wallet: Address;
  chainId: number;
  nonce: string;
  issuedAtMs: number;
  expiresAtMs: number;
}): string {
  return [
    `${f.domain} wants you to sign in with your Ethereum account:`,
    f.wallet,
    "",
    "Create an API key for this wallet. The key can request launch intents and transactions for this wallet and read market data. It cannot move funds.",
    "",
    `URI: ${f.uri}`,
    "Version: 1",
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${new Date(f.issuedAtMs).toISOString()}`,
    `Expiration Time: ${new Date(f.expiresAtMs).toISOString()}`,
  ].join("\n");
}

/** Builds the `/api/evm/evmchain` session router. */
export function sessionRoutes(deps: SessionDeps) {
  const getStore = storeGetter(deps.store);
  const limits = { ...LIMITS, ...deps.limits };
  const base = new URL(deps.publicBaseUrl);
  const csrf = requireCsrf({ getStore, allowedOrigins: [base.origin] });
  const nowSec = deps.nowSec ?? (() => Math.floor(Date.now() / 1000));
  const redirectWaitMs = deps.redirectWaitMs ?? redirectWaitFromEnv();
  const network = addEthereumChainParameter(deps.deployment.chainId, deps.deployment.rpcUrl);
  const flowDeps = async (): Promise<LaunchFlowDeps> => ({
    store: await getStore(),
    publicClient: deps.publicClient,
    deployment: deps.deployment,
    publicBaseUrl: deps.publicBaseUrl,
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
       * GET /api/evm/evmchain/session — the session's CSRF token. Sets the session cookie
       * (HttpOnly, SameSite=Strict, Secure except on localhost) when missing or expired.
       * 200 `{ok, csrf_token, expires_at_sec}`.
       */
      .get("/session", documented({ tag: "session", summary: "The session's CSRF token (sets the session cookie)", ok: okBody({ csrf_token: z.string(), expires_at_sec: z.number().int() }) }), async (c) => {
        const session = await loadOrCreateSession(c, getStore);
        c.header("Cache-Control", "no-store");
        return sendOk(c, { csrf_token: createCsrfToken(session), expires_at_sec: Math.floor(session.expiresAtMs / 1000) });
      })
      /**
       * POST /api/evm/evmchain/api-keys/challenge `{wallet, csrf_token}` — a one-time message
       * for the wallet to sign with personal_sign, valid 5 minutes, bound to this session.
       * 200 `{ok, message, nonce, issued_at_sec, expires_at_sec}`; 403 `csrf_failed`; 400.
       */
      .post("/api-keys/challenge", documented({ tag: "session", summary: "A one-time message for the wallet to sign (personal_sign) to create an API key", ok: okBody({ message: z.string(), nonce: z.string(), issued_at_sec: z.number().int(), expires_at_sec: z.number().int() }), errors: ["invalid_request", "invalid_address"] }), csrf, validate("json", challengeBody), async (c) => {
        const { wallet } = c.req.valid("json");
        const session = c.get("session")!;
        const nowMs = Date.now();
        const nonce = randomBytes(16).toString("hex");
        const expiresAtMs = nowMs + CHALLENGE_TTL_MS;
        const message = keyChallengeMessage({ domain: base.host, uri: base.origin, wallet, chainId: deps.deployment.chainId, nonce, issuedAtMs: nowMs, expiresAtMs });
        await insertChallenge(await getStore(), { nonce, sessionId: session.id, wallet, message, issuedAtMs: nowMs, expiresAtMs });
        c.header("Cache-Control", "no-store");
        return sendOk(c, { message, nonce, issued_at_sec: Math.floor(nowMs / 1000), expires_at_sec: Math.floor(expiresAtMs / 1000) });
      })
      /**
       * POST /api/evm/evmchain/api-keys `{wallet, signature, csrf_token, label?}` — verifies the
       * personal_sign signature of the newest open challenge of this session and wallet (EOA,
       * ERC-1271 and ERC-6492 smart wallets through viem `verifyMessage`), consumes the challenge
       * (one attempt: a wrong signature burns it too) and returns the new key once.
       * 201 `{ok, api_key, key: {id, prefix, wallet, scopes, created_at_sec}}`; 400
       * `challenge_not_found`; 401 `invalid_signature`; 403 `csrf_failed`.
       */
      .post("/api-keys", documented({ tag: "session", status: 201, summary: "Create an API key from the signed challenge; the secret is shown once", ok: okBody({ api_key: z.string().startsWith("sk_live_"), key: z.looseObject({ id: z.string(), prefix: z.string(), wallet: addressWire, scopes: z.array(z.string()) }) }), errors: ["invalid_request", "invalid_address", "challenge_not_found", "invalid_signature"] }), csrf, validate("json", createKeyBody), async (c) => {
        const { wallet, signature, label } = c.req.valid("json");
        const session = c.get("session")!;
        const store = await getStore();
        const challenge = await consumeChallenge(store, session.id, wallet);
        if (!challenge) throw new ApiError("challenge_not_found", "no open challenge for this wallet: POST /api/evm/evmchain/api-keys/challenge first");
        let valid = false;
        try {
          valid = await deps.publicClient.verifyMessage({ address: wallet, message: challenge.message, signature: signature as `0x${string}` });
        } catch {
          valid = false;
        }
        if (!valid) throw new ApiError("invalid_signature", "the signature does not verify for this wallet and challenge");
        const { secret, key } = await createApiKey(store, { wallet, label: label ?? "browser", createdVia: "wallet_signature" });
        c.header("Cache-Control", "no-store");
        return sendOk(
          c,
          {
            api_key: secret,
            key: { id: key.id, prefix: key.displayPrefix, wallet: key.wallet, scopes: key.scopes, created_at_sec: Math.floor(key.createdAtMs / 1000) },
          },
          201,
        );
      })
      /**
       * GET /api/evm/evmchain/status — what a wallet needs before sending a built launch, and
       * whether the service is ready (spec: session surface; EIP-3085 / EIP-3326). Always 200:
       * `{ok, chain_id: "0x1237", chain_id_decimal, chain_name, native_currency {name, symbol,
       * decimals}, rpc_urls, block_explorer_urls, wallet_add_ethereum_chain (the EIP-3085
       * parameter object), factory {address, accepted_factories, fee_locker,
       * minimum_pool_liquidity_wei (live, null when the RPC is down)}, readiness {ready, rpc {ok,
       * chain_id, block_number}, indexer {ok, block_number, age_sec (seconds since the indexed
       * block), lag_blocks (null while the RPC is down)}}}`. RPC probes are bounded to 2 s (a
       * stalled RPC is `rpc.ok: false`).
       */
      .get("/status", documented({ tag: "session", summary: "Network (EIP-3085 parameters for wallet_addEthereumChain), factory and readiness", ok: okBody({ chain_id: z.literal("0x1237").or(z.string()), chain_id_decimal: z.number().int(), chain_name: z.string(), wallet_add_ethereum_chain: z.record(z.string(), z.unknown()), factory: z.looseObject({ address: addressWire, minimum_pool_liquidity_wei: z.string().nullable() }), readiness: z.looseObject({ ready: z.boolean() }) }) }), async (c) => {
        const [rpc, indexer, minimum] = await Promise.all([
          // RPC probes are bounded (2 s): a stalled RPC reports `rpc.ok: false` instead of hanging.
          withTimeout(Promise.all([deps.publicClient.getChainId(), deps.publicClient.getBlockNumber()]), SOURCE_TIMEOUT_MS)
            .then(([chainId, block]) => ({ ok: chainId === deps.deployment.chainId, chain_id: chainId, block_number: Number(block) }))
            .catch((err: Error) => ({ ok: false, chain_id: null, block_number: null, error: (err as { shortMessage?: string }).shortMessage ?? err.message })),
          indexedHead(deps.db)
            .then((head) =>
              head
                ? { ok: true, block_number: Number(head.blockNumber), age_sec: Math.max(0, Math.floor(Date.now() / 1000) - Number(head.timestampSec)) }
                : { ok: false, block_number: null, error: "the indexer has not recorded a block yet" },
            )
            .catch((err: Error) => ({ ok: false, block_number: null, error: err.message })),
          withTimeout(
            deps.publicClient.readContract({ address: deps.deployment.contracts.launchFactory, abi: launchFactoryAbi, functionName: "minimumPoolLiquidityWei" }),
            SOURCE_TIMEOUT_MS,
          )
            .then((v) => v.toString())
            .catch(() => null),
        ]);
        const lag = rpc.block_number !== null && indexer.block_number !== null ? Math.max(0, rpc.block_number - indexer.block_number) : null;
        c.header("Cache-Control", "no-store");
        return sendOk(c, {
          chain_id: network.chainId,
          chain_id_decimal: deps.deployment.chainId,
          chain_name: network.chainName,
          native_currency: network.nativeCurrency,
          rpc_urls: network.rpcUrls,
          block_explorer_urls: network.blockExplorerUrls ?? [],
          wallet_add_ethereum_chain: network,
          factory: {
            address: deps.deployment.contracts.launchFactory,
            accepted_factories: deps.deployment.acceptedFactories,
            fee_locker: deps.deployment.contracts.feeLocker,
            minimum_pool_liquidity_wei: minimum,
          },
          readiness: { ready: rpc.ok && indexer.ok, rpc, indexer: { ...indexer, lag_blocks: lag } },
        });
      })
      /**
       * POST /api/evm/evmchain/build-direct-v3-launch `{creator, name, symbol, first_buy_wei?,
       * slippage_bps?, description?, image_url?, website_url?, twitter_url?, telegram_url?,
       * csrf_token}` + `X-CSRF-Token` (spec: session surface) — the one builder; the build is
       * stored for this session (verify checks against it). 200 `{ok, launch_id, state: "built",
       * transaction {chainId, from, to, value, data, gas}, policy, predicted_token_address,
       * predicted_pool_address, gas_limit, amount_out_minimum, expected_tokens_out, slippage_bps,
       * simulated_at_block, metadata}`. Failure: `{ok: false, error, message}` — 400
       * `invalid_request` / `invalid_address` / `forbidden_field` / `invalid_image_url`, 403
       * `csrf_failed`, 422 `launch_simulation_failed`, 503 `chain_unavailable`.
       */
      .post("/build-direct-v3-launch", documented({ tag: "session", summary: "Build the unsigned launch transaction for the connected wallet", ok: launchStateWire.extend({ ok: z.literal(true), transaction: transactionWire, policy: policyWire }), errors: ["invalid_request", "invalid_address", "forbidden_field", "invalid_image_url", "launch_simulation_failed", "chain_unavailable"] }), describedInput("json", sessionBuildSchema), csrf, async (c) => {
        const body = await parseLaunchBody(c, sessionBuildSchema);
        const result = await sessionBuild(await flowDeps(), c.get("session")!.id, body);
        c.header("Cache-Control", "no-store");
        return sendOk(c, result);
      })
      /**
       * POST /api/evm/evmchain/verify-direct-v3-launch `{tx_hash, creator, write, csrf_token,
       * metadata?: {name, symbol, description?}, launch_id?}` + `X-CSRF-Token` (spec: session
       * surface) — the one verifier against this session's build (api/launch/sessionFlow.ts).
       * `write: true` persists on success. 200 `{ok, launch_id, state, verified, persisted,
       * redirect_ready, indexed, token_address, token_url, …}`: `redirect_ready` only once
       * persisted and indexed; 202 while the transaction is not mined (`Retry-After`). Failure:
       * `{ok: false, error, message, launch_id, state, verified: false, redirect_ready: false,
       * token_url: null}` — 422 verifier codes, 409 `tx_already_used` / `launch_state_conflict`,
       * 404 `launch_not_found`, 400, 403 `csrf_failed`, 503.
       */
      .post("/verify-direct-v3-launch", documented({ tag: "session", summary: "Verify the broadcast launch; with write: true persist it and report redirect_ready / token_url", ok: launchStateWire.extend({ ok: z.literal(true), verified: z.boolean(), persisted: z.boolean(), redirect_ready: z.boolean(), token_url: z.string().nullable() }), also: { 202: { description: "The transaction is not mined yet (`Retry-After`)." } }, errors: ["invalid_request", "invalid_address", "forbidden_field", "launch_not_found", "launch_state_conflict", "tx_already_used", "chain_unavailable", "transaction_reverted", "factory_not_accepted", "launch_event_missing", "launch_event_ambiguous", "creator_mismatch", "metadata_mismatch", "value_mismatch", "lp_not_locked", "first_buy_missing", "first_buy_below_minimum"] }), describedInput("json", sessionVerifySchema), csrf, async (c) => {
        const body = await parseLaunchBody(c, sessionVerifySchema);
        const { status, body: result } = await sessionVerify({ ...(await flowDeps()), redirectWaitMs }, c.get("session")!.id, body);
        if (status === 202) c.header("Retry-After", String(PENDING_RETRY_AFTER_SEC));
        c.header("Cache-Control", "no-store");
        return sendOk(c, result, status);
      })
  );
}
