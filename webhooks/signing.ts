/**
 * Webhook signatures and payloads (docs/webhooks.md "Verify"): the Standard Webhooks scheme
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`) produced by the
 * maintained `standardwebhooks` package; this file only chooses the secret(s) and the body.
 */
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** Prefix of a signing secret (Standard Webhooks): `whsec_` + base64 of the key bytes. */
export const SECRET_PREFIX = "whsec_";

/**
 * A new signing secret: `whsec_` + base64 of 32 random bytes (256-bit HMAC key).
 * @example newSigningSecret() // "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw…" (50 chars)
 */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/** What a webhook request carries: the body text and the three Standard Webhooks headers. */
export type SignedMessage = {
  body: string;
  headers: { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string };
};

/**
 * The payload of one event: `{type, timestamp, data}` (Standard Webhooks' convention), `type`
 * the event kind (or `ping`), `timestamp` the event's time as ISO 8601, `data` the record exactly
 * as `GET /api/public/events` serves it.
 * @param type - `launch`, `trade`, `big_buy`, `graduation`, `fee_claim` or `ping`
 * @param timestampSec - the event's block time (a ping: the time it was sent), unix seconds
 * @param data - the event record
 * @example webhookPayload("trade", 1700000000, { id: 7 }) // '{"type":"trade","timestamp":"2023-11-14T22:13:20.000Z","data":{"id":7}}'
 */
export function webhookPayload(type: string, timestampSec: number, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: new Date(timestampSec * 1000).toISOString(), data });
}

/**
 * Signs a body with every given secret (the current one, plus the previous one during a rotation's
 * overlap): `webhook-signature` lists one `v1,<signature>` per secret, space-separated, as the
 * Standard Webhooks spec allows, so a receiver holding either secret verifies it.
 * @param messageId - `webhook-id` (the event id as decimal text, or `ping_…`)
 * @param sentAtMs - `webhook-timestamp` (unix ms; sent as whole seconds)
 * @param body - the exact bytes sent
 * @param secrets - `whsec_…` secrets, first the current one
 * @returns the body and headers to send
 * @throws Error when `secrets` is empty
 * @example signMessage("42", Date.now(), body, ["whsec_…"]).headers["webhook-signature"] // "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
 */
export function signMessage(
  messageId: string,
  sentAtMs: number,
  body: string,
  secrets: readonly string[],
): SignedMessage {
  if (secrets.length === 0) throw new Error("signMessage needs at least one secret");
  const at = new Date(Math.floor(sentAtMs / 1000) * 1000);
  const signature = secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(" ");
  return {
    body,
    headers: {
      "webhook-id": messageId,
      "webhook-timestamp": String(Math.floor(sentAtMs / 1000)),
      "webhook-signature": signature,
    },
  };
}
