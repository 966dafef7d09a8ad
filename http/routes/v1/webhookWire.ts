/**
 * Wire shapes of the webhook routes (`./webhooks.ts`): the create body, the subscription and
 * delivery-attempt records as the API shows them (never the secret), and the path and query
 * parameters. The OpenAPI document is generated from these schemas.
 */
import { z } from "zod";
import type { WebhookDelivery, WebhookSubscription } from "../../../store/webhooks";
import { WEBHOOK_EVENT_KINDS } from "../../../webhooks/settings";
import { MAX_WEBHOOK_URL_LENGTH } from "../../../webhooks/urlSafety";
import { addressParam, addressWire, unixSec } from "../../../src/domain/wire";
import { limitParam } from "../../validation";

export const ID_PATTERN = /^wh_[0-9a-f]{24}$/;
/** Longest `description`, characters. */
const MAX_DESCRIPTION_LENGTH = 200;

export const createBody = z.strictObject({
  url: z
    .string()
    .max(MAX_WEBHOOK_URL_LENGTH)
    .meta({ description: "receiver URL: https and a public address (the devnet also admits http://127.0.0.1)" }),
  events: z
    .array(z.enum(WEBHOOK_EVENT_KINDS))
    .min(1)
    .max(WEBHOOK_EVENT_KINDS.length)
    .refine((kinds) => new Set(kinds).size === kinds.length, "events must not repeat a kind")
    .meta({ description: "event kinds to deliver (kinds of the events feed), each at most once" }),
  token_address: addressParam.optional().meta({ description: "only events of this token" }),
  description: z.string().max(MAX_DESCRIPTION_LENGTH).optional(),
  since_id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().meta({
    description:
      "deliver confirmed events with an id above this (a replay from the events feed); default: the feed's confirmed boundary now (only events confirmed from now on)",
  }),
  include_unconfirmed: z.boolean().optional().meta({
    description:
      "true: send events as soon as they are indexed, before their confirmation depth, and an `event.retracted` (data: the retracted event's id, kind, token, tx_hash, block_number) when a reorg removes one that was sent; default false: confirmed events only",
  }),
});

export const webhookWire = z
  .object({
    id: z.string().meta({ description: "`wh_` + 24 hex characters" }),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_KINDS)),
    token_address: addressWire.nullable(),
    description: z.string().nullable(),
    include_unconfirmed: z
      .boolean()
      .meta({ description: "events sent as indexed, with `event.retracted` after a reorg (docs/webhooks.md)" }),
    status: z.enum(["active", "failing", "disabled"]),
    status_reason: z.string().nullable(),
    created_at_sec: unixSec,
    cursor_event_id: z
      .number()
      .int()
      .meta({ description: "every matching event with an id up to this one is acknowledged (2xx)" }),
    pending_event_id: z
      .number()
      .int()
      .nullable()
      .meta({ description: "the event being retried (or whose retraction is), if any" }),
    attempts: z.number().int().nonnegative().meta({ description: "failed attempts of the pending event" }),
    next_attempt_at_sec: unixSec.nullable(),
    previous_secret_expires_at_sec: unixSec
      .nullable()
      .meta({ description: "until then requests carry a second signature with the secret before the last rotation" }),
  })
  .meta({ id: "Webhook" });

export const deliveryWire = z
  .object({
    id: z.number().int(),
    message_id: z
      .string()
      .meta({ description: "the `webhook-id` sent: the event id, `retracted_<id>_<tx_hash>` or `ping_…`" }),
    event_id: z.number().int().nullable(),
    type: z.string(),
    attempt: z.number().int().positive(),
    outcome: z.enum(["delivered", "failed", "paused", "disabled"]),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int().nonnegative(),
    response_prefix: z.string().nullable().meta({ description: "first 256 bytes of the receiver's answer" }),
    next_attempt_at_sec: unixSec.nullable(),
    attempted_at_sec: unixSec,
  })
  .meta({ id: "WebhookDelivery" });

const sec = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/** The subscription as the API shows it (never the secret). */
export function webhookRecord(row: WebhookSubscription) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    token_address: row.tokenAddress,
    description: row.description,
    include_unconfirmed: row.includeUnconfirmed,
    status: row.status,
    status_reason: row.statusReason,
    created_at_sec: Math.floor(row.createdAtMs / 1000),
    cursor_event_id: Number(row.cursorEventId),
    pending_event_id: row.pendingEventId === null ? null : Number(row.pendingEventId),
    attempts: row.attempts,
    next_attempt_at_sec: row.status === "disabled" ? null : sec(row.nextAttemptAtMs),
    previous_secret_expires_at_sec: sec(row.previousSecretExpiresAtMs),
  };
}

/** One delivery attempt as `GET …/deliveries` shows it. */
export function deliveryRecord(row: WebhookDelivery) {
  return {
    id: row.id,
    message_id: row.messageId,
    event_id: row.eventId === null ? null : Number(row.eventId),
    type: row.eventType,
    attempt: row.attempt,
    outcome: row.outcome,
    status_code: row.statusCode,
    error: row.error,
    duration_ms: row.durationMs,
    response_prefix: row.responsePrefix,
    next_attempt_at_sec: sec(row.nextAttemptAtMs),
    attempted_at_sec: Math.floor(row.attemptedAtMs / 1000),
  };
}

export const idParam = z.object({ id: z.string().meta({ description: "`wh_` + 24 hex characters" }) });
export const deliveriesQuery = z.object({
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, "cursor must be a next_cursor this endpoint returned")
    .optional(),
  limit: limitParam(50, 200),
});

/** What `POST …/webhooks/{id}/test` answers: the receiver's answer to the ping (status or error) and its duration. */
export const pingResultWire = {
  delivered: z.boolean().meta({ description: "the receiver answered 2xx" }),
  message_id: z.string(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int().nonnegative(),
};
