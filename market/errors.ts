/**
 * Failures of the read models (viem style: literal `name`, `shortMessage`). The HTTP layer maps
 * each to its catalogue code and status (http/serviceErrors.ts; docs/errors.md).
 */
import { ServiceError } from "../src/domain/serviceError";

/** No launched token has this address or slug (HTTP 404 `token_not_found`). */
export class TokenNotFoundError extends ServiceError {
  override readonly name = "TokenNotFoundError" as const;
}

/** A cursor this list did not issue (HTTP 400 `invalid_cursor`). */
export class InvalidCursorError extends ServiceError {
  override readonly name = "InvalidCursorError" as const;
}

/** The indexer has not processed a block yet (HTTP 503 `not_indexed_yet`). */
export class NotIndexedYetError extends ServiceError {
  override readonly name = "NotIndexedYetError" as const;
}

/** The process is shutting down and takes no new streams (HTTP 503 `service_unavailable`). */
export class ShuttingDownError extends ServiceError {
  override readonly name = "ShuttingDownError" as const;
}

/** A stream cap is reached: per client IP or per process (HTTP 429 `too_many_streams`). */
export class TooManyStreamsError extends ServiceError {
  override readonly name = "TooManyStreamsError" as const;
}

/** Every error the read models throw. */
export type MarketError =
  | TokenNotFoundError
  | InvalidCursorError
  | NotIndexedYetError
  | ShuttingDownError
  | TooManyStreamsError;
