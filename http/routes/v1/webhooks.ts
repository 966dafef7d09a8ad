/**
 * Webhook subscriptions of the key-authenticated surface, `/api/v1/evmchain/webhooks`
 * (docs/webhooks.md): create (the signing secret is shown once), list, get, delete, rotate the
 * secret, send a test `ping`, page through the delivery attempts, resume a paused subscription.
 * Every route needs the scope `evmchain:webhooks:manage`; a subscription belongs to the key's
 * wallet and any other wallet's key gets 404 `webhook_not_found`. Mounted behind the v1 auth,
 * per-key rate limit and scope table (`./surface.ts`). Delivery itself is `webhooks/worker.ts`.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { PublicConfig } from "../../../config/public";
import type { Store } from "../../../store/index";
import {
  createSubscription,
  deleteSubscriptionForWallet,
  getSubscriptionForWallet,
  listDeliveries,
  listSubscriptionsForWallet,
  resumeSubscriptionForWallet,
  rotateSecretForWallet,
  WebhookLimitError,
  type WebhookSubscription,
} from "../../../store/webhooks";
import { indexedEventFeed } from "../../../webhooks/feedSource";
import { sendPing } from "../../../webhooks/ping";
import { DEFAULT_WEBHOOK_SETTINGS, SECRET_ROTATION_OVERLAP_MS, type WebhookSettings } from "../../../webhooks/settings";
import { newSigningSecret } from "../../../webhooks/signing";
import {
  createBody,
  deliveriesQuery,
  deliveryRecord,
  deliveryWire,
  ID_PATTERN,
  idParam,
  pingResultWire,
  webhookRecord,
  webhookWire,
} from "./webhookWire";
import { checkWebhookUrl } from "../../../webhooks/urlSafety";
import { ApiError } from "../../errors";
import { sendOk } from "../../json";
import type { MarketDb } from "../../../market/db";
import { currentKey, type TrustEnv } from "../../middleware/context";
import { documented } from "../../openapi/describe";
import { cursor as cursorWire, okBody } from "../../../src/domain/wire";
import { describedInput, noJsonBody, parseJsonBody, validate } from "../../validation";

/** What the webhook routes need. */
export type V1WebhookDeps = {
  getStore: () => Promise<Store>;
  /** Clock, unix ms (creation times, rotation overlap, pings). */
  nowMs: () => number;
  /** The indexer's database: a new subscription starts at the events feed's confirmed boundary. */
  db: MarketDb;
  publicConfig: PublicConfig;
  /** Receiver URL policy and bounds (absent: {@link DEFAULT_WEBHOOK_SETTINGS}). */
  webhooks?: WebhookSettings;
};

/** Builds the webhook routes (mount at `/api/v1/evmchain`). */
export function v1WebhookRoutes(deps: V1WebhookDeps) {
  const settings = deps.webhooks ?? DEFAULT_WEBHOOK_SETTINGS;
  const feed = indexedEventFeed(deps.db, deps.publicConfig.confirmationBlocks);
  const owned = async (store: Store, id: string, wallet: string) => {
    const row = ID_PATTERN.test(id) ? await getSubscriptionForWallet(store, id, wallet) : null;
    if (!row) throw new ApiError("webhook_not_found", `no webhook ${id.slice(0, 40)} for this API key's wallet`);
    return row;
  };
  const one = okBody({ webhook: webhookWire });
  return (
    new Hono<TrustEnv>()
      /**
       * POST /api/v1/evmchain/webhooks `{url, events, token_address?, description?, since_id?, include_unconfirmed?}` —
       * 201 `{ok, webhook, secret}`: the `whsec_…` signing secret is shown only here. 400
       * `invalid_webhook_url` / `invalid_request`, 409 `webhook_limit_reached`; nothing stored then.
       */
      .post(
        "/webhooks",
        documented({
          tag: "v1",
          status: 201,
          summary: "Create a webhook subscription (the signing secret is shown once)",
          description:
            "Subscribes a receiver URL to event kinds of the events feed (optionally one token's). Each confirmed event is POSTed as `{type, timestamp, data}` (`data`: the record of GET /api/public/events), signed per Standard Webhooks (`webhook-id` = event id), at least once and in id order; see docs/webhooks.md. The `whsec_…` secret appears only in this answer. Delivery starts after `since_id`, by default at the feed's confirmed boundary now. `include_unconfirmed: true` sends events as they are indexed and an `event.retracted` when a reorg removes one. Needs scope `evmchain:webhooks:manage`.",
          ok: okBody({
            webhook: webhookWire,
            secret: z
              .string()
              .meta({ description: "`whsec_…` (Standard Webhooks); store it now, it is never shown again" }),
          }),
          errors: ["invalid_request", "invalid_address", "invalid_webhook_url", "webhook_limit_reached"],
        }),
        describedInput("json", createBody),
        async (c) => {
          const body = await parseJsonBody(c, createBody);
          const check = checkWebhookUrl(body.url, settings.policy);
          if (!check.ok) throw new ApiError("invalid_webhook_url", check.reason);
          const key = currentKey(c);
          const store = await deps.getStore();
          const start = body.since_id !== undefined ? BigInt(body.since_id) : ((await feed.confirmedCursor()) ?? 0n);
          const secret = newSigningSecret();
          let row: WebhookSubscription;
          try {
            row = await createSubscription(store, {
              wallet: key.wallet,
              apiKeyId: key.id,
              url: check.url.href,
              events: body.events,
              tokenAddress: body.token_address ?? null,
              description: body.description ?? null,
              secret,
              cursorEventId: start < 0n ? 0n : start,
              includeUnconfirmed: body.include_unconfirmed ?? false,
              nowMs: deps.nowMs(),
              maxPerWallet: settings.perWallet,
            });
          } catch (err) {
            if (err instanceof WebhookLimitError) throw new ApiError("webhook_limit_reached", err.message);
            throw err;
          }
          return sendOk(c, { webhook: webhookRecord(row), secret }, 201);
        },
      )
      /** GET /api/v1/evmchain/webhooks — 200 `{ok, webhooks: [...]}`: the key's wallet's subscriptions, oldest first. */
      .get(
        "/webhooks",
        documented({
          tag: "v1",
          summary: "List the wallet's webhook subscriptions",
          description:
            "Every subscription of the API key's wallet (whichever of its keys created it), oldest first, with its delivery state; never a secret.",
          ok: okBody({ webhooks: z.array(webhookWire) }),
        }),
        async (c) => {
          const rows = await listSubscriptionsForWallet(await deps.getStore(), currentKey(c).wallet);
          return sendOk(c, { webhooks: rows.map(webhookRecord) });
        },
      )
      /** GET /api/v1/evmchain/webhooks/{id} — 200 `{ok, webhook}`; 404 `webhook_not_found`. */
      .get(
        "/webhooks/:id",
        documented({
          tag: "v1",
          summary: "One webhook subscription",
          description:
            "The subscription and its delivery state: `cursor_event_id` (everything up to it acknowledged), the event in retry and its attempts, the next attempt time, `status` (`active`, `failing`, `disabled`). 404 for another wallet's subscription.",
          ok: one,
          errors: ["webhook_not_found"],
        }),
        validate("param", idParam),
        async (c) => {
          const row = await owned(await deps.getStore(), c.req.valid("param").id, currentKey(c).wallet);
          return sendOk(c, { webhook: webhookRecord(row) });
        },
      )
      /** DELETE /api/v1/evmchain/webhooks/{id} — 200 `{ok, deleted: true}` (attempt log too); 404 `webhook_not_found`. */
      .delete(
        "/webhooks/:id",
        documented({
          tag: "v1",
          summary: "Delete a webhook subscription and its attempt log",
          description: "Stops delivery at once (an attempt in flight writes nothing) and deletes the attempt log.",
          ok: okBody({ deleted: z.literal(true) }),
          errors: ["webhook_not_found"],
        }),
        validate("param", idParam),
        async (c) => {
          const { id } = c.req.valid("param");
          const gone =
            ID_PATTERN.test(id) && (await deleteSubscriptionForWallet(await deps.getStore(), id, currentKey(c).wallet));
          if (!gone) throw new ApiError("webhook_not_found", `no webhook ${id.slice(0, 40)} for this API key's wallet`);
          return sendOk(c, { deleted: true });
        },
      )
      /**
       * POST /api/v1/evmchain/webhooks/{id}/rotate-secret — 200 `{ok, webhook, secret}`: a new
       * secret (shown once); the old one keeps signing (a second `v1,` signature) for 24 hours.
       */
      .post(
        "/webhooks/:id/rotate-secret",
        documented({
          tag: "v1",
          summary: "Rotate the signing secret (the old one signs too for 24 hours)",
          description:
            "Returns a new `whsec_…` secret, shown once. For 24 hours every request carries two signatures in `webhook-signature` (new and previous secret), so a receiver can switch without losing a message.",
          ok: okBody({ webhook: webhookWire, secret: z.string() }),
          errors: ["webhook_not_found", "invalid_request"],
        }),
        validate("param", idParam),
        async (c) => {
          const { id } = c.req.valid("param");
          const store = await deps.getStore();
          await owned(store, id, currentKey(c).wallet);
          await noJsonBody(c);
          const secret = newSigningSecret();
          const row = await rotateSecretForWallet(store, {
            id,
            wallet: currentKey(c).wallet,
            secret,
            nowMs: deps.nowMs(),
            overlapMs: SECRET_ROTATION_OVERLAP_MS,
          });
          if (!row) throw new ApiError("webhook_not_found", `no webhook ${id} for this API key's wallet`);
          return sendOk(c, { webhook: webhookRecord(row), secret });
        },
      )
      /**
       * POST /api/v1/evmchain/webhooks/{id}/test — sends one signed `ping` now (outside the event
       * order) and answers 200 `{ok, delivered, message_id, status_code, error, duration_ms}`
       * whatever the receiver answered; the attempt is logged with the deliveries.
       */
      .post(
        "/webhooks/:id/test",
        documented({
          tag: "v1",
          summary: "Send a signed ping to the receiver now",
          description:
            'Sends `{type: "ping", timestamp, data: {webhook_id}}` once, outside the event order, with `webhook-id` `ping_…`; answers 200 with what the receiver answered (status or error) and logs the attempt.',
          ok: okBody(pingResultWire),
          errors: ["webhook_not_found", "invalid_request"],
        }),
        validate("param", idParam),
        async (c) => {
          const store = await deps.getStore();
          const sub = await owned(store, c.req.valid("param").id, currentKey(c).wallet);
          await noJsonBody(c);
          const { messageId, result } = await sendPing({
            store,
            sub,
            policy: settings.policy,
            nowMs: deps.nowMs(),
            timeoutMs: settings.attemptTimeoutMs,
          });
          const code = result.statusCode ?? null;
          return sendOk(c, {
            delivered: code !== null && code >= 200 && code < 300,
            message_id: messageId,
            status_code: code,
            error: result.error ?? null,
            duration_ms: result.durationMs,
          });
        },
      )
      /**
       * GET /api/v1/evmchain/webhooks/{id}/deliveries?cursor=&limit= — the attempts, newest first:
       * 200 `{ok, deliveries: [...], next_cursor}`; 400 `invalid_cursor`-style `invalid_request`.
       */
      .get(
        "/webhooks/:id/deliveries",
        documented({
          tag: "v1",
          summary: "Delivery attempts of a subscription, newest first",
          description:
            "Each attempt: the `webhook-id`, event id, attempt number, outcome, HTTP status or error, duration, the first 256 bytes of the answer and the next retry time. Page with `cursor` = the previous page's `next_cursor`.",
          ok: okBody({ deliveries: z.array(deliveryWire), next_cursor: cursorWire }),
          errors: ["webhook_not_found", "invalid_request"],
        }),
        validate("param", idParam),
        validate("query", deliveriesQuery),
        async (c) => {
          const store = await deps.getStore();
          const sub = await owned(store, c.req.valid("param").id, currentKey(c).wallet);
          const { cursor, limit } = c.req.valid("query");
          const rows = await listDeliveries(store, sub.id, cursor ? Number(cursor) : null, limit);
          const last = rows.at(-1);
          return sendOk(c, {
            deliveries: rows.map(deliveryRecord),
            next_cursor: rows.length === limit && last ? String(last.id) : null,
          });
        },
      )
      /**
       * POST /api/v1/evmchain/webhooks/{id}/resume — makes a `failing` or `disabled` subscription
       * `active` with a fresh retry window; delivery continues from the first unacknowledged
       * event. 200 `{ok, webhook}`.
       */
      .post(
        "/webhooks/:id/resume",
        documented({
          tag: "v1",
          summary: "Resume a paused (failing) or disabled subscription from its first unacknowledged event",
          description:
            "Marks the subscription `active` with a fresh 24-hour retry window; the next attempt is the first event not yet acknowledged (nothing was skipped while it was paused).",
          ok: one,
          errors: ["webhook_not_found", "invalid_request"],
        }),
        validate("param", idParam),
        async (c) => {
          const { id } = c.req.valid("param");
          const store = await deps.getStore();
          await owned(store, id, currentKey(c).wallet);
          await noJsonBody(c);
          const row = await resumeSubscriptionForWallet(store, id, currentKey(c).wallet, deps.nowMs());
          if (!row) throw new ApiError("webhook_not_found", `no webhook ${id} for this API key's wallet`);
          return sendOk(c, { webhook: webhookRecord(row) });
        },
      )
  );
}
