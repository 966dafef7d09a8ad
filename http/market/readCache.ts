/**
 * Read-through cache of the public market-data answers (token records, trade pages, candles,
 * token lists), keyed by the request URL and the indexer's checkpoint.
 *
 * Invariants:
 * - An answer is reused only while the indexer's checkpoint is the one it was computed at: a new
 *   block indexed (every ~100 ms on the production chain) starts new keys. The checkpoint is read
 *   at most once per `headRefreshMs` and only while requests arrive (an idle process does not poll).
 * - Entries also expire after `ttlMs`. That bounds what the checkpoint cannot see: the 24 h
 *   figures moving with the wall clock, and a reorg that replaces the head with a block of the
 *   same height and timestamp.
 * - Concurrent identical requests share one computation (`LRUCache.fetch` coalesces them).
 * - Only 200 answers are stored; an error answer carries its own `request_id` and is computed per
 *   request.
 * - `contentVersion()` is part of the key: it changes when a launch is confirmed in this process
 *   (creator metadata in token records), so this process never serves a record older than its
 *   own confirm. Another API process sees that metadata within `ttlMs`.
 * Configuration: `READ_CACHE_TTL_MS` (0 disables; docs/operations.md "Read cache").
 */
import type { Context, MiddlewareHandler } from "hono";
import { LRUCache } from "lru-cache";

/** A stored 200 answer. */
type CachedAnswer = { body: string; contentType: string };

/** Options of {@link readCache}. */
export type ReadCacheOptions = {
  /** The indexer's checkpoint (any string that changes when indexed data changes), or null when unknown. */
  readHead: () => Promise<string | null>;
  /** Version of data outside the indexer that answers include (e.g. confirmed launch metadata). */
  contentVersion?: () => number;
  /** Longest an entry is served, in milliseconds; 0 disables the cache. */
  ttlMs: number;
  /** Longest the checkpoint read is reused, in milliseconds (default 25). */
  headRefreshMs?: number;
  /** Most entries kept (least recently used dropped first; default 2,000). */
  maxEntries?: number;
  /** Monotonic clock in milliseconds for both the entry TTL and the checkpoint reuse (tests pin it; default `performance.now`). */
  nowMs?: () => number;
};

/**
 * Middleware caching GET 200 answers of the routes it is mounted on (see the module invariants).
 * Answers carry `X-Cache: hit` (served from the cache or a shared computation) or `miss`.
 * @returns the middleware and `stats()` (hits, misses; for tests and metrics)
 */
export function readCache(options: ReadCacheOptions): {
  middleware: MiddlewareHandler;
  stats: () => { hits: number; misses: number };
} {
  const headRefreshMs = options.headRefreshMs ?? 25;
  const nowMs = options.nowMs ?? (() => performance.now());
  let head: string | null = null;
  let headReadAtMs = -Infinity;
  let headRead: Promise<string | null> | null = null;
  let hits = 0;
  let misses = 0;

  /** The checkpoint, re-read when older than `headRefreshMs` (one read shared by concurrent requests). */
  async function currentHead(): Promise<string | null> {
    if (nowMs() - headReadAtMs < headRefreshMs) return head;
    headRead ??= options
      .readHead()
      .catch(() => null)
      .then((value) => {
        head = value;
        headReadAtMs = nowMs();
        headRead = null;
        return value;
      });
    return headRead;
  }

  const cache = new LRUCache<string, CachedAnswer, { compute: () => Promise<CachedAnswer | undefined> }>({
    max: options.maxEntries ?? 2_000,
    ttl: options.ttlMs,
    // Whole milliseconds: the TTL is read from the clock on every get (ttlResolution 0), so an
    // injected clock moves it exactly.
    ttlResolution: 0,
    perf: { now: nowMs },
    fetchMethod: (_key, _stale, { context }) => context.compute(),
  });

  const middleware: MiddlewareHandler = async (c, next) => {
    if (options.ttlMs <= 0 || c.req.method !== "GET") return next();
    const checkpoint = await currentHead();
    if (checkpoint === null) return next();
    const key = `${options.contentVersion?.() ?? 0}|${checkpoint}|${c.req.url}`;
    let computedHere = false;
    let answer: CachedAnswer | undefined;
    try {
      answer = await cache.fetch(key, {
        context: {
          compute: async () => {
            computedHere = true;
            await next();
            if (c.res.status !== 200) return undefined;
            return {
              body: await c.res.clone().text(),
              contentType: c.res.headers.get("content-type") ?? "application/json; charset=utf-8",
            };
          },
        },
      });
    } catch (err) {
      if (computedHere) throw err;
      answer = undefined; // the shared computation failed: compute our own below
    }
    if (computedHere) {
      misses++;
      // Only a 200 is an answer the cache could hold: an error answer says nothing about the cache.
      if (c.res.status === 200) c.res.headers.set("X-Cache", "miss");
      return;
    }
    if (!answer) return next(); // the shared computation was an error answer: compute our own
    hits++;
    return sendCached(c, answer);
  };
  return { middleware, stats: () => ({ hits, misses }) };
}

function sendCached(c: Context, answer: CachedAnswer): Response {
  return c.body(answer.body, 200, { "content-type": answer.contentType, "X-Cache": "hit" });
}
