/**
 * Tables of the offchain store: everything the API writes (sessions, API keys and their wallet
 * challenges, launches/intents, idempotency records, rate and quota counters, uploaded media).
 * Ponder's chain-derived tables live elsewhere and are never written by the API.
 *
 * Tables are declared without a Postgres schema: the store sets `search_path` to its configured
 * schema (`STORE_SCHEMA`, default `launch_store`) on every connection, so the same migration SQL
 * lands in whichever schema is configured. Times are unix milliseconds (`*_ms`, bigint) unless the
 * name says seconds (`*_sec`). Amounts in wei are decimal strings.
 *
 * Change a table -> `npm run store:generate` (drizzle-kit) -> commit the new SQL under
 * `store/migrations/`; `openStore` applies pending migrations at start.
 */
import { sql } from "drizzle-orm";
import { bigint, customType, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { LAUNCH_STATES } from "../src/domain/launchStates";

/** `bytea` as `Uint8Array` on both drivers (node-postgres returns a Buffer, which is one). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => (typeof Buffer !== "undefined" && !(value instanceof Buffer) ? Buffer.from(value) : value),
  fromDriver: (value) => (value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBufferLike)),
});

const ms = (name: string) => bigint(name, { mode: "number" });

/** Browser sessions (cookie). `id` is the SHA-256 (hex) of the cookie value; never the value. */
export const sessions = pgTable("sessions", {
  id: text("id").primaryKey(),
  /** Secret of the `csrf` package; CSRF tokens are derived from it. */
  csrfSecret: text("csrf_secret").notNull(),
  createdAtMs: ms("created_at_ms").notNull(),
  expiresAtMs: ms("expires_at_ms").notNull(),
  /**
   * Checksummed wallet this session proved control of with a Sign-In with Ethereum (EIP-4361)
   * signature; null until it signs in. The session surface acts only for this wallet.
   */
  wallet: text("wallet"),
  signedInAtMs: ms("signed_in_at_ms"),
});

/** API keys. Only the SHA-256 (hex) of the secret is stored, plus a non-secret display id/prefix. */
export const apiKeys = pgTable(
  "api_keys",
  {
    /** Public identifier, `key_` + 16 hex chars (safe to log and show). */
    id: text("id").primaryKey(),
    /** SHA-256 (lowercase hex) of the full secret `sk_live_…`. */
    keyHash: text("key_hash").notNull().unique(),
    /** First characters of the secret (`sk_live_` + 4), for recognising a key in a list. */
    displayPrefix: text("display_prefix").notNull(),
    /** Checksummed wallet the key belongs to. */
    wallet: text("wallet").notNull(),
    label: text("label"),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    /** `wallet_signature` (browser flow) or `cli`. */
    createdVia: text("created_via").notNull(),
    createdAtMs: ms("created_at_ms").notNull(),
    revokedAtMs: ms("revoked_at_ms"),
  },
  (t) => [index("api_keys_wallet_idx").on(t.wallet)],
);

/**
 * One-time Sign-In with Ethereum (EIP-4361) challenges of the session surface: signing one proves
 * the wallet for the session, and (`purpose = sign_in_and_create_key`) also creates an API key.
 */
export const keyChallenges = pgTable(
  "key_challenges",
  {
    nonce: text("nonce").primaryKey(),
    /** `sign_in` or `sign_in_and_create_key`. */
    purpose: text("purpose").notNull().default("sign_in_and_create_key"),
    /** SHA-256 id of the session that asked for it; only that session may consume it. */
    sessionId: text("session_id").notNull(),
    wallet: text("wallet").notNull(),
    message: text("message").notNull(),
    issuedAtMs: ms("issued_at_ms").notNull(),
    expiresAtMs: ms("expires_at_ms").notNull(),
    consumedAtMs: ms("consumed_at_ms"),
  },
  (t) => [index("key_challenges_session_wallet_idx").on(t.sessionId, t.wallet)],
);

/**
 * Launches (docs/launch.md): from the signed intent on (key-authenticated surface, `surface = v1`,
 * also the coin flow's drafts) or from a session build (`surface = session`). `state` follows the
 * state machine in `src/domain/launchStates.ts`: `intent_created` -> `built` -> `submitted` -> `confirmed`,
 * or `failed` / `expired`. A `confirmed` row is the persisted launch and its creator metadata (the
 * public token records merge it in). One on-chain launch has exactly one canonical confirmed
 * record (partial unique indexes on `tx_hash` and `token_address`); further records of the same
 * creator that the same transaction confirms point at it with `canonical_launch_id`.
 */
export const launches = pgTable(
  "launches",
  {
    /** `lnch_` + 24 hex chars. */
    id: text("id").primaryKey(),
    /** `v1` (intent / coin draft, key-authenticated) or `session` (browser build). */
    surface: text("surface").notNull().default("v1"),
    /** The API key that created the intent (v1); null for session builds. */
    apiKeyId: text("api_key_id"),
    /** SHA-256 id of the browser session that built it (session surface); null on v1. */
    sessionId: text("session_id"),
    state: text("state", { enum: LAUNCH_STATES }).notNull(),
    chainId: integer("chain_id").notNull(),
    factory: text("factory").notNull(),
    creator: text("creator").notNull(),
    name: text("name").notNull(),
    symbol: text("symbol").notNull(),
    description: text("description"),
    imageUrl: text("image_url"),
    websiteUrl: text("website_url"),
    twitterUrl: text("twitter_url"),
    telegramUrl: text("telegram_url"),
    /** Decimal wei. */
    firstBuyWei: text("first_buy_wei").notNull(),
    slippageBps: integer("slippage_bps").notNull(),
    /** SHA-256 (hex) of the canonical metadata JSON, quoted in the message. */
    metadataSha256: text("metadata_sha256").notNull(),
    /** The exact message the creator signs with personal_sign (v1); null for session builds. */
    intentMessage: text("intent_message"),
    issuedAtSec: bigint("issued_at_sec", { mode: "number" }),
    expiresAtSec: bigint("expires_at_sec", { mode: "number" }),
    /** The build response (transaction, policy, predictions), replayed on a repeated build. */
    build: jsonb("build").$type<Record<string, unknown>>(),
    /** Checksummed token address the build's simulation predicted. */
    predictedTokenAddress: text("predicted_token_address"),
    /** The first buy's `amountOutMinimum` encoded in the built call, token base units (decimal). */
    amountOutMinimum: text("amount_out_minimum"),
    builtAtMs: ms("built_at_ms"),
    /** Last transaction submitted for confirmation (the confirmed one once `confirmed`). */
    txHash: text("tx_hash"),
    tokenAddress: text("token_address"),
    poolAddress: text("pool_address"),
    blockNumber: bigint("block_number", { mode: "number" }),
    /** The verifier's facts of the confirmed launch (amounts as decimal strings). */
    verified: jsonb("verified").$type<Record<string, unknown>>(),
    confirmedAtMs: ms("confirmed_at_ms"),
    /** Verifier code and message of the last failed confirmation (state `failed`). */
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    /**
     * Set when another launch record of the same creator confirmed the same transaction first:
     * the id of that record, which holds the token's metadata. Null on the canonical record.
     */
    canonicalLaunchId: text("canonical_launch_id"),
    createdAtMs: ms("created_at_ms").notNull(),
    updatedAtMs: ms("updated_at_ms").notNull(),
  },
  (t) => [
    index("launches_api_key_idx").on(t.apiKeyId),
    index("launches_tx_hash_idx").on(t.txHash),
    index("launches_session_creator_idx").on(t.sessionId, t.creator),
    uniqueIndex("launches_canonical_tx_uidx")
      .on(t.txHash)
      .where(sql`state = 'confirmed' and canonical_launch_id is null`),
    uniqueIndex("launches_canonical_token_uidx")
      .on(t.tokenAddress)
      .where(sql`state = 'confirmed' and canonical_launch_id is null`),
  ],
);

/** IETF Idempotency-Key records, scoped per API key. */
export const idempotencyRecords = pgTable(
  "idempotency_records",
  {
    /** Who the key belongs to (`key_…` id of the API key). */
    scope: text("scope").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** SHA-256 (hex) of method, path and the canonical JSON body. */
    fingerprint: text("fingerprint").notNull(),
    /** `in_flight` or `done`. */
    state: text("state", { enum: ["in_flight", "done"] }).notNull(),
    /** While `in_flight`: after this a crashed request's reservation may be taken over. */
    lockedUntilMs: ms("locked_until_ms").notNull(),
    responseStatus: integer("response_status"),
    responseContentType: text("response_content_type"),
    responseBody: bytea("response_body"),
    createdAtMs: ms("created_at_ms").notNull(),
    expiresAtMs: ms("expires_at_ms").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.idempotencyKey] }), index("idempotency_expires_idx").on(t.expiresAtMs)],
);

/** Fixed-window counters: rate limits (per minute) and quotas (per UTC day). */
export const counters = pgTable(
  "counters",
  {
    /** e.g. `v1:key_…`, `public:203.0.113.7`, `quota:coins_created:key_…`. */
    bucket: text("bucket").notNull(),
    windowStartMs: ms("window_start_ms").notNull(),
    hits: integer("hits").notNull(),
    resetAtMs: ms("reset_at_ms").notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStartMs] }), index("counters_reset_idx").on(t.resetAtMs)],
);

/** Uploaded images after validation and re-encoding. `id` is the SHA-256 (hex) of `bytes`. */
export const media = pgTable("media", {
  id: text("id").primaryKey(),
  contentType: text("content_type").notNull(),
  /** File extension used in the public URL (`png`, `jpg`, `webp`, `gif`). */
  extension: text("extension").notNull(),
  bytes: bytea("bytes").notNull(),
  byteLength: integer("byte_length").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  apiKeyId: text("api_key_id").notNull(),
  createdAtMs: ms("created_at_ms").notNull(),
});

// The webhook tables (subscriptions, unconfirmed sends, delivery attempts) live in their own module.
export * from "./webhookSchema";
// Creator funding of launches' snipers (launch integrity), read from the chain by launches/creatorFunding.ts.
export * from "./creatorFundingSchema";
