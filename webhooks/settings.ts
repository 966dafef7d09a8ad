/**
 * Webhook settings as the service passes them down (from `config/env.ts`): the receiver URL
 * policy, the per-wallet bound, the per-attempt deadline and the rotation overlap.
 */
import type { UrlPolicy } from "./urlSafety";

/** Event kinds a subscription may ask for: every kind of the events feed (`ponder.schema.ts` `event_kind`). */
export const WEBHOOK_EVENT_KINDS = ["launch", "trade", "big_buy", "graduation", "fee_claim"] as const;

/** How long the previous secret keeps signing after a rotation, milliseconds (24 h). */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** The webhook settings. */
export type WebhookSettings = {
  policy: UrlPolicy;
  /** Subscriptions per wallet (`WEBHOOKS_PER_WALLET`, default 10). */
  perWallet: number;
  /** Deadline of one attempt, ms (`WEBHOOK_ATTEMPT_TIMEOUT_MS`, default 10 s). */
  attemptTimeoutMs: number;
};

/** Defaults: https and public addresses only, 10 subscriptions per wallet, 10 s per attempt. */
export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  policy: { allowLoopbackHttp: false },
  perWallet: 10,
  attemptTimeoutMs: 10_000,
};
