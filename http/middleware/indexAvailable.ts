/**
 * Market reads answer from the indexed data or not at all (docs/security.md "Slow clients and lost
 * data"; docs/operations.md "Readiness and stalls").
 *
 * A read that cannot reach the indexed data must never look like an empty market: an empty token
 * list or a 404 for a token that exists is a wrong answer a client would trust. After a market read
 * has run, this middleware reads the indexer's checkpoint (one read shared by concurrent requests
 * and reused for `reuseMs`): when it cannot be read (database unreachable, out of file
 * descriptors) or is missing (the index was lost), the answer is replaced by 503
 * `service_unavailable` with `Retry-After`. A 400 (bad input) stands: it does not depend on data.
 */
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";

/** Options of {@link requireIndexedData}. */
export type IndexAvailableOptions = {
  /** The indexer's checkpoint (any string that changes per indexed block), null when there is none. */
  readCheckpoint: () => Promise<string | null>;
  /** Longest a successful checkpoint read is reused, ms (default 25; failures are not reused). */
  reuseMs?: number;
  /** Seconds a client is told to wait (`Retry-After`, default 5). */
  retryAfterSec?: number;
  /** Monotonic clock, ms (tests; default `performance.now`). */
  nowMs?: () => number;
};

/**
 * Middleware refusing market reads while the indexed data cannot be read (module doc).
 * @returns the middleware; it throws `ApiError("service_unavailable")` (503, `Retry-After`)
 * @example app.use("/api/public/tokens/*", requireIndexedData({ readCheckpoint: () => indexedCheckpoint(db) }))
 */
export function requireIndexedData(options: IndexAvailableOptions): MiddlewareHandler {
  const reuseMs = options.reuseMs ?? 25;
  const nowMs = options.nowMs ?? (() => performance.now());
  const retryAfterSec = options.retryAfterSec ?? 5;
  let known: { checkpoint: string; atMs: number } | null = null;
  let pending: Promise<string | null> | null = null;

  async function checkpoint(): Promise<string | null> {
    if (known && nowMs() - known.atMs < reuseMs) return known.checkpoint;
    pending ??= options.readCheckpoint().finally(() => {
      pending = null;
    });
    const value = await pending;
    known = value === null ? null : { checkpoint: value, atMs: nowMs() };
    return value;
  }

  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    await next();
    // Input errors stand whatever the data; a found answer (2xx) or a "not found" must have been
    // read from an index that exists, so it is checked after the read (which also catches an index
    // lost while the read ran).
    if (c.res.status === 400) return;
    let value: string | null;
    try {
      value = await checkpoint();
    } catch {
      // The cause (a connection error) names internal hosts: it is not echoed.
      throw new ApiError("service_unavailable", "the indexed data cannot be read right now; retry later", undefined, {
        retryAfterSec,
      });
    }
    if (value === null)
      throw new ApiError(
        "service_unavailable",
        "the indexed data is not available (the indexer has no checkpoint); retry later",
        undefined,
        { retryAfterSec },
      );
  };
}
