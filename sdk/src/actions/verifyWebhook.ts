/** `verifyWebhook`: checks a webhook request's Standard Webhooks signature and returns its payload. */
import { Webhook } from "standardwebhooks";
import { WebhookVerificationError } from "../errors.js";
import type { components } from "../generated/schema.js";

/** A delivery's body: `{type, timestamp, data}` (Standard Webhooks' convention; docs/webhooks.md). */
export type WebhookPayload = {
  /** `launch`, `trade`, `big_buy`, `graduation`, `fee_claim` or `ping`. */
  type: string;
  /** The event's time, ISO 8601. */
  timestamp: string;
  /** The event record, as `GET /api/public/events` serves it. */
  data: components["schemas"]["Event"] | Record<string, unknown>;
};

/**
 * Verifies a webhook delivery (the `webhook-id`, `webhook-timestamp`, `webhook-signature` headers;
 * Standard Webhooks, HMAC-SHA256, 5-minute timestamp tolerance) with the endpoint's `whsec_…`
 * secret, using the `standardwebhooks` package the service signs with.
 * @param payload - the raw request body, exactly as received (not re-serialized JSON)
 * @param headers - the request headers (a `Headers` or a plain object)
 * @param secret - the endpoint's signing secret (`whsec_…`)
 * @throws WebhookVerificationError when the signature, the timestamp or a header is wrong
 * @example
 * const event = verifyWebhook(await request.text(), request.headers, process.env.WEBHOOK_SECRET!);
 * if (event.type === "trade") console.log(event.data);
 */
export function verifyWebhook(
  payload: string,
  headers: Headers | Record<string, string | string[] | undefined>,
  secret: string,
): WebhookPayload {
  const plain: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  try {
    return new Webhook(secret).verify(payload, plain) as WebhookPayload;
  } catch (err) {
    throw new WebhookVerificationError(err instanceof Error ? err.message : String(err));
  }
}
