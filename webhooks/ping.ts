/**
 * `POST /api/v1/evmchain/webhooks/{id}/test`: one signed `ping` sent at once, outside the event
 * order (it neither waits for nor moves the subscription's cursor), logged with the attempts.
 */
import { randomBytes } from "node:crypto";
import type { Store } from "../store/index";
import { insertDelivery, type WebhookSubscription } from "../store/webhooks";
import { type AttemptResult, ATTEMPT_TIMEOUT_MS, sendWebhook } from "./send";
import { signMessage, webhookPayload } from "./signing";
import type { UrlPolicy } from "./urlSafety";
import { activeSecrets } from "./worker";

/**
 * Sends a `ping` to a subscription's receiver: `{type: "ping", timestamp, data: {webhook_id}}`,
 * `webhook-id` `ping_` + 24 hex chars, signed with the subscription's current secret(s).
 * @returns the message id and the attempt's result (a 2xx status means the receiver accepted it)
 * @example await sendPing({ store, sub, policy, nowMs: Date.now() }) // { messageId: "ping_…", result: { statusCode: 204, … } }
 */
export async function sendPing(input: {
  store: Store;
  sub: WebhookSubscription;
  policy: UrlPolicy;
  nowMs: number;
  timeoutMs?: number;
}): Promise<{ messageId: string; result: AttemptResult }> {
  const messageId = `ping_${randomBytes(12).toString("hex")}`;
  const body = webhookPayload("ping", Math.floor(input.nowMs / 1000), { webhook_id: input.sub.id });
  const message = signMessage(messageId, input.nowMs, body, activeSecrets(input.sub, input.nowMs));
  const result = await sendWebhook({
    url: input.sub.url,
    message,
    policy: input.policy,
    timeoutMs: input.timeoutMs ?? ATTEMPT_TIMEOUT_MS,
  });
  const ok = result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
  await insertDelivery(input.store, {
    subscriptionId: input.sub.id,
    messageId,
    eventId: null,
    eventType: "ping",
    attempt: 1,
    outcome: ok ? "delivered" : "failed",
    statusCode: result.statusCode ?? null,
    error: result.error ?? null,
    durationMs: result.durationMs,
    responsePrefix: result.responsePrefix,
    nextAttemptAtMs: null,
    attemptedAtMs: input.nowMs,
  });
  return { messageId, result };
}
