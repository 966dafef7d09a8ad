/**
 * Sign-In with Ethereum (EIP-4361) for the browser session surface (docs/trust.md "Wallet-proven
 * sessions"). A session proves control of a wallet by signing a one-time EIP-4361 message; from
 * then on the session surface acts only for that wallet (launch build and verify, rewards claim).
 * The same signature may also create the browser's API key (`purpose = sign_in_and_create_key`),
 * so a user signs once, not twice.
 *
 * Messages are created with viem's `createSiweMessage` and checked with viem's
 * `verifySiweMessage` (EOA, ERC-1271 and ERC-6492 wallets), plus the fields viem leaves to the
 * relying party: chain id and URI. The nonce comes from the store's challenge row (one use).
 */
import { createSiweMessage, generateSiweNonce, parseSiweMessage } from "viem/siwe";
import type { Address, Hex, PublicClient } from "viem";
import type { Store } from "../../store/index";
import { CHALLENGE_TTL_MS, consumeChallenge, insertChallengeBounded } from "../../store/challenges";
import { inTransaction } from "../../store/index";
import { ActiveKeyLimitError, countActiveKeys, createApiKey, type ApiKeyRecord } from "../../store/keys";
import { signInSession, type SessionRecord } from "../../store/sessions";
import { ApiError } from "../errors";
import { checkBudgets, consumeBudgets, type Budget } from "../middleware/rateLimit";

/** What a challenge is for. */
export type SignInPurpose = "sign_in" | "sign_in_and_create_key";

/** The relying party: this service's public origin and chain. */
export type SignInParty = {
  /** Public base URL of the service (its host is the EIP-4361 `domain`, its origin the `uri`). */
  publicBaseUrl: string;
  /** EIP-155 chain id the session is bound to. */
  chainId: number;
};

const STATEMENTS: Record<SignInPurpose, string> = {
  sign_in:
    "Sign in to the launch service with this wallet. The session may build launch and fee-claim transactions for this wallet and attach its token metadata. It cannot move funds: every transaction is shown in your wallet before you sign it.",
  sign_in_and_create_key:
    "Sign in to the launch service with this wallet and create an API key for it. The session and the key may build launch and fee-claim transactions for this wallet and attach its token metadata. They cannot move funds: every transaction is shown in your wallet before you sign it.",
};

/**
 * The EIP-4361 message a wallet signs to sign in (pure).
 * @param f.issuedAtMs - unix ms; `expiresAtMs` - unix ms, the message's Expiration Time
 * @returns the message text, as `personal_sign` signs it
 * @example signInMessage({ party: { publicBaseUrl: "https://launch.example", chainId: 4663 }, wallet, nonce: "a1b2c3d4e5f6a7b8", purpose: "sign_in", issuedAtMs, expiresAtMs })
 *   // "launch.example wants you to sign in with your Ethereum account:\n0x…"
 */
export function signInMessage(f: {
  party: SignInParty;
  wallet: Address;
  nonce: string;
  purpose: SignInPurpose;
  issuedAtMs: number;
  expiresAtMs: number;
}): string {
  const base = new URL(f.party.publicBaseUrl);
  return createSiweMessage({
    domain: base.host,
    address: f.wallet,
    statement: STATEMENTS[f.purpose],
    uri: base.origin,
    version: "1",
    chainId: f.party.chainId,
    nonce: f.nonce,
    issuedAt: new Date(f.issuedAtMs),
    expirationTime: new Date(f.expiresAtMs),
  });
}

/** A challenge as returned to the browser. */
export type IssuedChallenge = {
  message: string;
  nonce: string;
  purpose: SignInPurpose;
  issuedAtMs: number;
  expiresAtMs: number;
};

/**
 * Bounds a challenge respects (docs/trust.md "Limits"); `keyBudgets` (`keyCreationBudgets`: per
 * session and per client IP per hour) are checked up front for a key-creating challenge.
 */
export type SignInLimits = { openChallengesPerSession: number; activeKeysPerWallet: number; keyBudgets?: Budget[] };

/** 409 `key_limit_reached` for a wallet at its cap of active keys. */
function keyLimitError(wallet: string, limit: number): ApiError {
  return new ApiError(
    "key_limit_reached",
    `wallet ${wallet} already holds ${limit} active API keys (the maximum); revoke one before creating another`,
  );
}

/**
 * Issues a one-time sign-in challenge for `wallet`, bound to `session` and valid
 * {@link CHALLENGE_TTL_MS} (5 minutes). A key-creating challenge is refused up front for a wallet
 * at its key cap, or when the session's or the client's key-creation budget is used up (no
 * signature is asked for in vain; both are enforced again at creation).
 * @throws ApiError 409 `key_limit_reached`; BudgetExhaustedError (the route answers 429
 *   `rate_limited`); BoundReachedError when the session holds `openChallengesPerSession` open
 *   challenges (the route answers 429 with `Retry-After`)
 */
export async function issueSignInChallenge(
  store: Store,
  party: SignInParty,
  session: SessionRecord,
  wallet: Address,
  purpose: SignInPurpose,
  limits: SignInLimits,
  nowMs = Date.now(),
): Promise<IssuedChallenge> {
  if (purpose === "sign_in_and_create_key") {
    if ((await countActiveKeys(store, wallet)) >= limits.activeKeysPerWallet)
      throw keyLimitError(wallet, limits.activeKeysPerWallet);
    await checkBudgets(store, limits.keyBudgets ?? [], nowMs);
  }
  const nonce = generateSiweNonce();
  const expiresAtMs = nowMs + CHALLENGE_TTL_MS;
  const message = signInMessage({ party, wallet, nonce, purpose, issuedAtMs: nowMs, expiresAtMs });
  await insertChallengeBounded(
    store,
    { nonce, sessionId: session.id, wallet, message, purpose, issuedAtMs: nowMs, expiresAtMs },
    limits.openChallengesPerSession,
    nowMs,
  );
  return { message, nonce, purpose, issuedAtMs: nowMs, expiresAtMs };
}

/** Result of {@link completeSignIn}. */
export type SignedIn = {
  /** The rotated session (its `wallet` is the proven one) and the cookie value to set. */
  session: SessionRecord;
  cookieValue: string;
  /** Present when the challenge's purpose created a key: the secret (shown once) and the record. */
  apiKey?: { secret: string; key: ApiKeyRecord };
};

/**
 * Checks the signature of the newest open challenge of (`session`, `wallet`) and signs the
 * session in. The challenge is consumed first (one attempt: a wrong signature burns it too).
 * The key (when the challenge creates one) and the sign-in commit together: at the key cap
 * neither happens, so the old cookie stays valid.
 * @param options.requireKeyPurpose - only a `sign_in_and_create_key` challenge is accepted (the
 *   `POST …/api-keys` route)
 * @param options.maxActiveKeys - the wallet's cap of active keys
 * @param options.keyBudgets - hourly key-creation budgets (`keyCreationBudgets`), counted in the
 *   same transaction as the key: over one, nothing is created and nothing signed in
 * @throws ApiError 400 `challenge_not_found`, 401 `invalid_signature`, 403 `csrf_failed` (the
 *   session expired or was rotated meanwhile), 409 `key_limit_reached`; BudgetExhaustedError
 */
export async function completeSignIn(
  deps: { store: Store; publicClient: PublicClient; party: SignInParty },
  session: SessionRecord,
  request: { wallet: Address; signature: Hex; label?: string },
  options: { requireKeyPurpose?: boolean; maxActiveKeys?: number; keyBudgets?: Budget[]; nowMs?: number } = {},
): Promise<SignedIn> {
  const nowMs = options.nowMs ?? Date.now();
  const challenge = await consumeChallenge(deps.store, session.id, request.wallet, nowMs);
  if (!challenge || (options.requireKeyPurpose && challenge.purpose !== "sign_in_and_create_key")) {
    throw new ApiError(
      "challenge_not_found",
      "no open challenge for this wallet in this session: POST /api/evm/evmchain/sign-in/challenge first",
    );
  }
  if (!(await signInSignatureValid(deps, { message: challenge.message, nonce: challenge.nonce, ...request }, nowMs))) {
    throw new ApiError("invalid_signature", "the signature does not verify for this wallet and challenge");
  }
  try {
    return await inTransaction(deps.store, async (tx) => {
      if (challenge.purpose === "sign_in_and_create_key") await consumeBudgets(tx, options.keyBudgets ?? [], nowMs);
      const apiKey =
        challenge.purpose === "sign_in_and_create_key"
          ? await createApiKey(tx, {
              wallet: request.wallet,
              label: request.label ?? "browser",
              createdVia: "wallet_signature",
              maxActiveKeys: options.maxActiveKeys,
            })
          : undefined;
      const rotated = await signInSession(tx, session, request.wallet, nowMs);
      if (!rotated)
        throw new ApiError(
          "csrf_failed",
          "the session expired or changed while signing in: GET /api/evm/evmchain/session and sign in again",
        );
      return { ...rotated, ...(apiKey ? { apiKey } : {}) };
    });
  } catch (err) {
    throw err instanceof ActiveKeyLimitError ? keyLimitError(request.wallet, err.limit) : err;
  }
}

/**
 * Whether `signature` signs the EIP-4361 `message` for `wallet` as this relying party expects:
 * viem's `verifySiweMessage` (EOA, ERC-1271, ERC-6492; domain, address, nonce, Not Before and
 * Expiration Time at `nowMs`), plus the chain id and URI, which viem leaves to the caller.
 * A failing RPC counts as not valid.
 * @param nowMs - unix ms the expiry is checked at
 */
export async function signInSignatureValid(
  deps: { publicClient: PublicClient; party: SignInParty },
  signed: { message: string; nonce: string; wallet: Address; signature: Hex },
  nowMs: number,
): Promise<boolean> {
  const base = new URL(deps.party.publicBaseUrl);
  const fields = parseSiweMessage(signed.message);
  if (fields.chainId !== deps.party.chainId || fields.uri !== base.origin) return false;
  try {
    return await deps.publicClient.verifySiweMessage({
      message: signed.message,
      signature: signed.signature,
      address: signed.wallet,
      domain: base.host,
      nonce: signed.nonce,
      time: new Date(nowMs),
    });
  } catch {
    return false;
  }
}
