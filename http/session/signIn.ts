/**
 * The wallet of a browser session on the session surface `/api/evm/evmchain` (spec:
 * Authentication 4 and 7): Sign-In with Ethereum (EIP-4361), sign-out and the wallet-signed API-key
 * creation; the session itself and its CSRF token come from `GET /session` (`./browserSession.ts`). Every POST sits behind the CSRF guard given by the
 * session surface (`./surface.ts`); `createApp` mounts the per-IP session limit over all of these.
 */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import type { Address, Hex, PublicClient } from "viem";
import { z } from "zod";
import type { Deployment } from "../../config/deployment";
import type { Store } from "../../store/index";
import { BoundReachedError } from "../../store/locks";
import { sessionLineageId, signOutSession } from "../../store/sessions";
import type { ProxyTrust } from "../../config/proxyTrust";
import { clientIp } from "../middleware/clientIp";
import { sendOk } from "../json";
import type { TrustEnv } from "../middleware/context";
import type { Limits } from "../../config/limits";
import { setSessionCookie } from "./csrf";
import { BudgetExhaustedError, budgetRefusal, keyCreationBudgets, sessionBoundError } from "../middleware/rateLimit";
import { documented } from "../openapi/describe";
import { addressWire, okBody } from "../../src/domain/wire";
import {
  completeSignIn,
  issueSignInChallenge,
  type SignedIn,
  type SignInParty,
  type SignInPurpose,
} from "./signInFlow";
import { validate } from "../validation";
import {
  challengeBody,
  challengeResponse,
  challengeWire,
  keyFields,
  keyWire,
  SIGNATURE_ERRORS,
  signatureBody,
  signInChallengeBody,
  signOutBody,
} from "./signInWire";

/** What the sign-in routes need (built once by `createApp`). */
export type SignInRoutesDeps = {
  publicBaseUrl: string;
  deployment: Pick<Deployment, "chainId">;
  publicClient: PublicClient;
  getStore: () => Promise<Store>;
  limits: Pick<
    Limits,
    "openChallengesPerSession" | "activeKeysPerWallet" | "keysPerSessionPerHour" | "keysPerIpPerHour"
  >;
  /** Which peers are trusted proxies (`TRUST_PROXY`): the client IP of the key-creation budget. */
  trustProxy?: ProxyTrust;
  /** IPv6 grouping of the key-creation budget (`CLIENT_IPV6_PREFIX_BITS`; default 64). */
  ipv6PrefixBits?: number;
  /** Clock, unix milliseconds (challenge times, the challenge and key budgets' windows and Retry-After). */
  nowMs: () => number;
};

/**
 * Builds the sign-in, sign-out and key-creation routes (mount at `/api/evm/evmchain`).
 * @param csrf - the session surface's `requireCsrf` guard
 */
export function signInRoutes(deps: SignInRoutesDeps, csrf: MiddlewareHandler<TrustEnv>) {
  const { getStore, limits } = deps;
  const party: SignInParty = { publicBaseUrl: deps.publicBaseUrl, chainId: deps.deployment.chainId };
  // Keys created per session (over its sign-in rotations) and per client IP per hour.
  const keyBudgets = (c: Context<TrustEnv>) =>
    keyCreationBudgets(limits, {
      sessionLineage: sessionLineageId(c.get("session")!),
      ip: clientIp(c, deps.trustProxy ?? false, deps.ipv6PrefixBits),
    });
  const issueChallenge = async (c: Context<TrustEnv>, wallet: Address, purpose: SignInPurpose) => {
    const nowMs = deps.nowMs();
    const signInLimits = {
      openChallengesPerSession: limits.openChallengesPerSession,
      activeKeysPerWallet: limits.activeKeysPerWallet,
      keyBudgets: keyBudgets(c),
    };
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
      if (err instanceof BudgetExhaustedError) throw budgetRefusal(c, err, nowMs);
      // Retry-After counts from the answer, not from this request's start: a concurrent request that
      // started later may hold the oldest slot, so its expiry can lie more than the TTL past nowMs.
      throw err instanceof BoundReachedError ? sessionBoundError(c, err, deps.nowMs()) : err;
    }
  };
  const signIn = async (
    c: Context<TrustEnv>,
    request: Parameters<typeof completeSignIn>[2],
    requireKeyPurpose: boolean,
  ): Promise<SignedIn> => {
    const nowMs = deps.nowMs();
    let signedIn: SignedIn;
    try {
      signedIn = await completeSignIn(
        { store: await getStore(), publicClient: deps.publicClient, party },
        c.get("session")!,
        request,
        { requireKeyPurpose, maxActiveKeys: limits.activeKeysPerWallet, keyBudgets: keyBudgets(c), nowMs },
      );
    } catch (err) {
      throw err instanceof BudgetExhaustedError ? budgetRefusal(c, err, nowMs) : err;
    }
    setSessionCookie(c, signedIn.cookieValue, signedIn.session.expiresAtMs);
    c.header("Cache-Control", "no-store");
    return signedIn;
  };
  return (
    new Hono<TrustEnv>()
      /**
       * POST /api/evm/evmchain/sign-in/challenge `{wallet, csrf_token, create_api_key?}` (EIP-4361)
       * — a one-time Sign-In with Ethereum message for `wallet` to sign with personal_sign, bound
       * to this session, valid 5 minutes; `create_api_key: true` makes the same signature also
       * create the browser's API key. 200 `{ok, message, nonce, purpose, issued_at_sec,
       * expires_at_sec}`; 400; 403 `csrf_failed`; 409 `key_limit_reached` (with
       * `create_api_key`, the wallet holds its maximum of active keys); 429
       * `session_limit_reached` (5 open challenges in this session; `Retry-After`); 429
       * `rate_limited` (with `create_api_key`: this session's or this client's keys of the hour
       * are used up; `Retry-After` and `RateLimit` headers; nothing created).
       */
      .post(
        "/sign-in/challenge",
        documented({
          tag: "session",
          summary: "A one-time Sign-In with Ethereum (EIP-4361) message for the wallet to sign",
          ok: challengeWire,
          errors: ["invalid_request", "invalid_address", "key_limit_reached", "rate_limited", "session_limit_reached"],
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
       * `key_limit_reached`, 429 `rate_limited` (the hour's keys of the session or the client IP
       * are used up) — nothing signed in, nothing created.
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
          errors: SIGNATURE_ERRORS,
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
       * `session_limit_reached`; 429 `rate_limited` (key budget of the hour used up).
       */
      .post(
        "/api-keys/challenge",
        documented({
          tag: "session",
          summary: "A one-time EIP-4361 message whose signature signs in and creates an API key",
          ok: challengeWire,
          errors: ["invalid_request", "invalid_address", "key_limit_reached", "rate_limited", "session_limit_reached"],
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
       * 10); 429 `rate_limited` (this session made `KEYS_PER_SESSION_PER_HOUR` keys this hour,
       * default 5, or this client IP `KEYS_PER_IP_PER_HOUR`, default 20; `Retry-After`,
       * `RateLimit`, `RateLimit-Policy`) — nothing created, nothing signed in.
       */
      .post(
        "/api-keys",
        documented({
          tag: "session",
          status: 201,
          summary: "Create an API key from the signed challenge (also signs the session in); the secret is shown once",
          ok: okBody({ api_key: z.string().startsWith("sk_live_"), key: keyWire }),
          errors: SIGNATURE_ERRORS,
        }),
        csrf,
        validate("json", signatureBody),
        async (c) => {
          const { wallet, signature, label } = c.req.valid("json");
          const signedIn = await signIn(c, { wallet, signature: signature as Hex, label }, true);
          return sendOk(c, keyFields(signedIn.apiKey!), 201);
        },
      )
  );
}
