/**
 * API keys in the store (spec: Authentication 1–4). A key is `sk_live_` + base64url of 32 random
 * bytes; the store keeps only its SHA-256 (hex), a public id (`key_…`) and a display prefix. The
 * secret exists only in the return value of {@link createApiKey}.
 */
import { MAX_ACTIVE_KEYS_PER_WALLET } from "../config/limits";
import { createHash, randomBytes } from "node:crypto";
import { and, count, desc, eq, isNull } from "drizzle-orm";
import { getAddress, type Address } from "viem";
import { inTransaction, type Store } from "./index";
import { LOCK_NAMESPACE, lockOwner } from "./locks";
import { apiKeys } from "./schema";

/** Fixed live-key prefix (documented in docs/trust.md). */
export const API_KEY_PREFIX = "sk_live_";

/** Shape of a well-formed key: the prefix and 43 base64url characters (32 bytes). */
export const API_KEY_PATTERN = /^sk_live_[A-Za-z0-9_-]{43}$/;

/**
 * The scopes every new key receives: the spec's four (Authentication 2) and
 * `evmchain:webhooks:manage` (docs/webhooks.md). A key keeps the scopes it was issued with: keys
 * made before webhooks existed lack the webhook scope (docs/trust.md "Scopes").
 */
export const DEFAULT_SCOPES = [
  "evmchain:launch:build",
  "evmchain:launch:confirm",
  "evmchain:launch:read",
  "evmchain:market:read",
  "evmchain:webhooks:manage",
] as const;

/**
 * Thrown by {@link createApiKey} when the wallet already holds `limit` active keys; nothing was
 * stored. The HTTP layer maps it to 409 `key_limit_reached`.
 */
export class ActiveKeyLimitError extends Error {
  override readonly name = "ActiveKeyLimitError";
  constructor(
    /** Checksummed wallet. */
    readonly wallet: Address,
    /** The cap that applied. */
    readonly limit: number,
  ) {
    super(`wallet ${wallet} already has ${limit} active API keys (the maximum); revoke one first`);
  }
}

/** A scope name. */
export type Scope = (typeof DEFAULT_SCOPES)[number];

/** A key as listed (never the secret). */
export type ApiKeyRecord = {
  id: string;
  displayPrefix: string;
  wallet: Address;
  label: string | null;
  scopes: string[];
  createdVia: string;
  createdAtMs: number;
  revokedAtMs: number | null;
};

/**
 * SHA-256 of a key secret, lowercase hex: what the store keeps and looks up.
 * @example hashApiKey("sk_live_…") // "9f86d0…" (64 hex chars)
 */
export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/**
 * Counts a wallet's active (not revoked) keys.
 * @param wallet - any case
 * @example await countActiveKeys(store, "0xf39F…") // 2
 */
export async function countActiveKeys(store: Store, wallet: string): Promise<number> {
  const rows = await store.db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.wallet, getAddress(wallet)), isNull(apiKeys.revokedAtMs)));
  return Number(rows[0]?.n ?? 0);
}

/**
 * Creates a key with the default scopes, unless the wallet already holds `maxActiveKeys` active
 * keys. Race-free: the count and the insert run in one transaction holding a per-wallet advisory
 * lock (`pg_advisory_xact_lock`), so concurrent creations for one wallet (several requests, API
 * processes or the CLI on a shared PostgreSQL store) never exceed the cap.
 * @param input.wallet - owner wallet (any case; stored checksummed)
 * @param input.label - optional free text (<= 100 chars)
 * @param input.createdVia - `wallet_signature` or `cli`
 * @param input.maxActiveKeys - cap on the wallet's active keys (default {@link MAX_ACTIVE_KEYS_PER_WALLET})
 * @returns the record and the secret, which is never retrievable again
 * @throws ActiveKeyLimitError when the wallet is at the cap (nothing stored)
 * @example await createApiKey(store, { wallet: "0xf39F…", createdVia: "cli" }) // { secret: "sk_live_…", key: { id: "key_…", … } }
 */
export async function createApiKey(
  store: Store,
  input: {
    wallet: string;
    label?: string | null;
    createdVia: "wallet_signature" | "cli";
    nowMs?: number;
    maxActiveKeys?: number;
  },
): Promise<{ secret: string; key: ApiKeyRecord }> {
  const secret = API_KEY_PREFIX + randomBytes(32).toString("base64url");
  const row = {
    id: `key_${randomBytes(8).toString("hex")}`,
    keyHash: hashApiKey(secret),
    displayPrefix: secret.slice(0, API_KEY_PREFIX.length + 4),
    wallet: getAddress(input.wallet),
    label: input.label ? input.label.slice(0, 100) : null,
    scopes: [...DEFAULT_SCOPES],
    createdVia: input.createdVia,
    createdAtMs: input.nowMs ?? Date.now(),
    revokedAtMs: null,
  };
  const limit = input.maxActiveKeys ?? MAX_ACTIVE_KEYS_PER_WALLET;
  await inTransaction(store, async (tx) => {
    await lockOwner(tx, LOCK_NAMESPACE.walletKeys, row.wallet);
    if ((await countActiveKeys(tx, row.wallet)) >= limit) throw new ActiveKeyLimitError(row.wallet, limit);
    await tx.db.insert(apiKeys).values(row);
  });
  const { keyHash: _hash, ...key } = row;
  return { secret, key: key as ApiKeyRecord };
}

/**
 * Finds the active (not revoked) key for a presented secret. Reads the store on every call: a
 * revocation takes effect on the next request.
 * @returns the key, or `null` for a malformed, unknown or revoked secret
 */
export async function findActiveKey(store: Store, secret: string): Promise<ApiKeyRecord | null> {
  if (!API_KEY_PATTERN.test(secret)) return null;
  const rows = await store.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hashApiKey(secret)), isNull(apiKeys.revokedAtMs)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const { keyHash: _hash, ...key } = row;
  return key as ApiKeyRecord;
}

/** Lists keys, newest first, optionally of one wallet. Never returns secrets or hashes. */
export async function listApiKeys(store: Store, wallet?: string): Promise<ApiKeyRecord[]> {
  const rows = await store.db
    .select()
    .from(apiKeys)
    .where(wallet ? eq(apiKeys.wallet, getAddress(wallet)) : undefined)
    .orderBy(desc(apiKeys.createdAtMs));
  return rows.map(({ keyHash: _hash, ...key }) => key as ApiKeyRecord);
}

/**
 * Revokes a key by id (idempotent).
 * @returns `true` when the key exists (now revoked), `false` when no key has this id
 */
export async function revokeApiKey(store: Store, id: string, nowMs = Date.now()): Promise<boolean> {
  await store.db
    .update(apiKeys)
    .set({ revokedAtMs: nowMs })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAtMs)));
  const rows = await store.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, id));
  return rows.length > 0;
}
