/**
 * The base of every failure a read model, a use case or a store operation reports to its caller
 * (viem's `BaseError` style: a literal `name`, a `shortMessage`, optional details). Nothing below
 * the HTTP layer knows a status code: `http/serviceErrors.ts` maps each `name` to its catalogue
 * code and status (docs/errors.md), in one table the compiler checks for completeness.
 */
export abstract class ServiceError extends Error {
  /** The class's literal name, the key of the HTTP layer's mapping table. */
  abstract override readonly name: string;
  /** One sentence for the caller (the error body's `message`). */
  readonly shortMessage: string;
  /** Extra fields the error body carries (a launch's `launch_id` and `state`); never `ok`/`error`/`message`. */
  details: Record<string, unknown> | undefined;
  /** Seconds the caller should wait before trying again (`Retry-After`), where one is known. */
  readonly retryAfterSec: number | undefined;

  constructor(
    shortMessage: string,
    options: { details?: Record<string, unknown>; retryAfterSec?: number; cause?: unknown } = {},
  ) {
    super(shortMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.shortMessage = shortMessage;
    this.details = options.details;
    this.retryAfterSec = options.retryAfterSec;
  }

  /**
   * Adds body fields to the error (a surface's fields every answer carries, also on errors).
   * @returns this error
   */
  withDetails(more: Record<string, unknown>): this {
    this.details = { ...this.details, ...more };
    return this;
  }
}
