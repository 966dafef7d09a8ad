/**
 * Typed errors of the client. Every failure the service answers (`{ok: false, error, message}`,
 * docs/errors.md) becomes a {@link LaunchApiError} whose `code` is one of the catalogue's
 * identifiers ({@link ErrorCode}, generated from the service's catalogue); a 429 is a
 * {@link RateLimitedError} carrying the `Retry-After` delay.
 */
import type { ErrorCode } from "./generated/errorCodes.js";

/** Base class of every error this package throws. */
export class LaunchSdkError extends Error {
  override name = "LaunchSdkError";
}

/**
 * The service answered `{ok: false, error, message}`.
 * @example
 * try { await client.getToken({ address }); } catch (err) {
 *   if (err instanceof LaunchApiError && err.code === "token_not_found") console.log("no such token");
 * }
 */
export class LaunchApiError extends LaunchSdkError {
  override name = "LaunchApiError";
  /** The catalogue identifier (docs/errors.md). */
  readonly code: ErrorCode;
  /** The HTTP status. */
  readonly status: number;
  /** `X-Request-Id` of the answer, for support. */
  readonly requestId: string | undefined;
  /** The whole error body (some errors carry extra fields, e.g. `retry_after_sec`). */
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>, requestId?: string) {
    super(`${status} ${String(body.error)}: ${String(body.message ?? "")}`);
    this.status = status;
    this.code = String(body.error ?? "internal_error") as ErrorCode;
    this.body = body;
    this.requestId = requestId ?? (typeof body.request_id === "string" ? body.request_id : undefined);
  }
}

/** A 429 answer (`rate_limited`, `too_many_streams`, a daily quota…): retry after `retryAfterSec`. */
export class RateLimitedError extends LaunchApiError {
  override name = "RateLimitedError";
  /** Seconds to wait before retrying, from `Retry-After` (1 when the answer named none). */
  readonly retryAfterSec: number;

  constructor(status: number, body: Record<string, unknown>, retryAfterSec: number, requestId?: string) {
    super(status, body, requestId);
    this.retryAfterSec = retryAfterSec;
  }
}

/** A launch cannot go on from where it stands (expired intent, failed receipt, nothing to resume from). */
export class LaunchStateError extends LaunchSdkError {
  override name = "LaunchStateError";
  constructor(
    message: string,
    /** The launch's state on the service (`expired`, `failed`, `intent_created`…). */
    readonly state: string,
    readonly launchId: string,
  ) {
    super(message);
  }
}

/** A poll (launch confirmation) did not finish within its deadline; resuming later is safe. */
export class LaunchTimeoutError extends LaunchSdkError {
  override name = "LaunchTimeoutError";
}

/** A webhook request's signature or timestamp did not verify (Standard Webhooks). */
export class WebhookVerificationError extends LaunchSdkError {
  override name = "WebhookVerificationError";
}
