/**
 * Session surface `/api/evm/evmchain` — browser session, CSRF token and wallet-signed API-key
 * creation (spec: Authentication 4 and 7; session surface).
 *
 * Every POST here goes through {@link requireCsrf} (same origin, session cookie, `X-CSRF-Token`
 * header equal to body `csrf_token`, valid for the session) and the per-IP session rate limit.
 * The launch write path adds its session routes to this router's surface with the same guard.
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
import { clientIp } from "../middleware/clientIp";
import { storeGetter, type TrustDeps, type TrustEnv } from "../middleware/context";
import { loadOrCreateSession, requireCsrf } from "../middleware/csrf";
import { LIMITS, storeRateLimiter } from "../middleware/rateLimit";
import { addressParam, validate } from "../validation";

/** What the session router needs. */
export type SessionDeps = TrustDeps & { publicBaseUrl: string };

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
      .get("/session", async (c) => {
        const session = await loadOrCreateSession(c, getStore);
        c.header("Cache-Control", "no-store");
        return sendOk(c, { csrf_token: createCsrfToken(session), expires_at_sec: Math.floor(session.expiresAtMs / 1000) });
      })
      /**
       * POST /api/evm/evmchain/api-keys/challenge `{wallet, csrf_token}` — a one-time message
       * for the wallet to sign with personal_sign, valid 5 minutes, bound to this session.
       * 200 `{ok, message, nonce, issued_at_sec, expires_at_sec}`; 403 `csrf_failed`; 400.
       */
      .post("/api-keys/challenge", csrf, validate("json", challengeBody), async (c) => {
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
      .post("/api-keys", csrf, validate("json", createKeyBody), async (c) => {
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
  );
}
