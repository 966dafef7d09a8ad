/**
 * Failures of store operations that the caller reports as they are (viem style: literal `name`,
 * `shortMessage`). The HTTP layer maps each to its catalogue code and status
 * (http/serviceErrors.ts; docs/errors.md).
 */
import { ServiceError } from "../src/domain/serviceError";

/**
 * A daily coin quota is used up, per wallet or per client IP (HTTP 429 `quota_exceeded`);
 * `retryAfterSec` is the time to the next UTC midnight.
 */
export class QuotaExceededError extends ServiceError {
  override readonly name = "QuotaExceededError" as const;
  /** Which quota refused, the `limit` label of `launchpad_rate_limit_rejections_total`, e.g. `quota_coins_created_ip`. */
  readonly quota: string;
  constructor(shortMessage: string, options: { quota: string; retryAfterSec: number }) {
    super(shortMessage, { retryAfterSec: options.retryAfterSec });
    this.quota = options.quota;
  }
}

/** Every error the store operations throw for their caller. */
export type StoreError = QuotaExceededError;
