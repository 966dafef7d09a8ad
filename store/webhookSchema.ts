/**
 * The offchain store's webhook tables (docs/webhooks.md), re-exported by `store/schema.ts` (the
 * schema drizzle-kit and the store read): subscriptions with their delivery cursor, the
 * unconfirmed events sent (for retractions), and every delivery attempt. Same conventions as
 * `store/schema.ts`: no Postgres schema (the store's `search_path`), times in unix ms.
 */
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

const ms = (name: string) => bigint(name, { mode: "number" });

/**
 * Webhook subscriptions (docs/webhooks.md): one receiver URL of one wallet, the event kinds it
 * wants, its signing secret, and its delivery cursor. Delivery state lives on the row, so a
 * restart, a crash or a deploy resumes where the last acknowledged event left off:
 * `cursor_event_id` is the id up to which every matching confirmed event is acknowledged (2xx) or
 * was not matching; `pending_event_id` the event being attempted (with `attempts`,
 * `first_attempt_at_ms`, `next_attempt_at_ms`). `lease_token` / `lease_until_ms`: the process
 * delivering it now (claimed with `FOR UPDATE SKIP LOCKED`, one process per subscription).
 * `status`: `active`, `failing` (retry window exhausted: paused, probed hourly), `disabled`
 * (the receiver answered 410). The secret is kept as is: it signs every request.
 * `include_unconfirmed`: events are sent as soon as they are indexed; `cursor_event_id` then only
 * moves over final events, the unconfirmed ones sent are remembered in `webhook_unconfirmed_sent`,
 * and `pending_retraction` says the event in flight is the `event.retracted` of `pending_event_id`.
 */
export const webhookSubscriptions = pgTable(
  "webhook_subscriptions",
  {
    /** `wh_` + 24 hex chars. */
    id: text("id").primaryKey(),
    /** Checksummed wallet of the API key that created it; only that wallet's keys see it. */
    wallet: text("wallet").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    url: text("url").notNull(),
    events: jsonb("events").$type<string[]>().notNull(),
    /** Checksummed token address filter, or null for every token. */
    tokenAddress: text("token_address"),
    description: text("description"),
    /** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
    secret: text("secret").notNull(),
    /** The secret before the last rotation, still signing until `previous_secret_expires_at_ms`. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAtMs: ms("previous_secret_expires_at_ms"),
    status: text("status", { enum: ["active", "failing", "disabled"] }).notNull(),
    statusReason: text("status_reason"),
    cursorEventId: bigint("cursor_event_id", { mode: "bigint" }).notNull(),
    pendingEventId: bigint("pending_event_id", { mode: "bigint" }),
    includeUnconfirmed: boolean("include_unconfirmed").notNull().default(false),
    pendingRetraction: boolean("pending_retraction").notNull().default(false),
    attempts: integer("attempts").notNull().default(0),
    firstAttemptAtMs: ms("first_attempt_at_ms"),
    nextAttemptAtMs: ms("next_attempt_at_ms").notNull(),
    leaseToken: text("lease_token"),
    leaseUntilMs: ms("lease_until_ms"),
    createdAtMs: ms("created_at_ms").notNull(),
    updatedAtMs: ms("updated_at_ms").notNull(),
  },
  (t) => [
    index("webhook_subscriptions_wallet_idx").on(t.wallet),
    index("webhook_subscriptions_due_idx").on(t.nextAttemptAtMs),
  ],
);

/**
 * Unconfirmed events acknowledged by an `include_unconfirmed` subscription's receiver, kept until
 * their block is final: then the same id with the same transaction is still indexed (the row is
 * dropped) or it is not (an `event.retracted` is sent, then the row is dropped). One row per
 * subscription and event id.
 */
export const webhookUnconfirmedSent = pgTable(
  "webhook_unconfirmed_sent",
  {
    subscriptionId: text("subscription_id").notNull(),
    eventId: bigint("event_id", { mode: "bigint" }).notNull(),
    kind: text("kind").notNull(),
    /** Checksummed token address. */
    token: text("token").notNull(),
    txHash: text("tx_hash").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    /** Block time, unix seconds. */
    timestampSec: bigint("timestamp_sec", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.eventId] })],
);

/**
 * Delivery attempts of webhook subscriptions (`GET …/webhooks/{id}/deliveries`): one row per
 * HTTP attempt (events and pings), newest id last. Only a short prefix of the receiver's answer
 * is kept.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: text("subscription_id").notNull(),
    /** The `webhook-id` sent: the event id (decimal) or `ping_…`. */
    messageId: text("message_id").notNull(),
    eventId: bigint("event_id", { mode: "bigint" }),
    eventType: text("event_type").notNull(),
    attempt: integer("attempt").notNull(),
    /** `delivered`, `failed` (retry scheduled), `paused` (window exhausted), `disabled` (410). */
    outcome: text("outcome").notNull(),
    statusCode: integer("status_code"),
    /** Why the attempt failed without an HTTP status (`timeout`, `connection_failed`, `address_refused`, …). */
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    responsePrefix: text("response_prefix"),
    nextAttemptAtMs: ms("next_attempt_at_ms"),
    attemptedAtMs: ms("attempted_at_ms").notNull(),
  },
  (t) => [index("webhook_deliveries_subscription_idx").on(t.subscriptionId, t.id)],
);
