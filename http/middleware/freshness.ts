/**
 * `Freshness-Sec` on the public market reads (docs/public.md "Freshness"): `freshness_sec`, the
 * indexed head's age — the app clock minus the head block's timestamp, whole seconds, at least 0 —
 * at the moment of the answer. A header, not a body field, so an answer reused by the read cache
 * (keyed on the indexed checkpoint) still says how old the data is now.
 */
import type { MiddlewareHandler } from "hono";
import type { MarketDb } from "../../market/db";
import { indexedCheckpoint } from "../../market/indexedHead";
import { FRESHNESS_HEADER, headAgeSec, observeIndexedHead } from "../../ops/metrics/freshness";

/**
 * Middleware setting {@link FRESHNESS_HEADER} on every answer of the routes it wraps (omitted
 * before the first indexed block). One read of Ponder's one-row checkpoint table per request; the
 * read also feeds `launchpad_freshness_row_visible_seconds`.
 * @param db - the indexer's tables
 * @param nowMs - the app clock, ms
 */
export function freshnessHeader(db: MarketDb, nowMs: () => number): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const checkpoint = await indexedCheckpoint(db).catch(() => null);
    observeIndexedHead(checkpoint);
    if (checkpoint !== null) c.header(FRESHNESS_HEADER, String(headAgeSec(checkpoint, nowMs())));
  };
}
