/**
 * Rate limits and daily quotas backed by the offchain store (spec: Limits).
 *
 * The limiter logic and the IETF rate-limit headers come from `hono-rate-limiter`
 * (`standardHeaders: "draft-7"`, the newest draft it implements: `RateLimit: limit=60,
 * remaining=59, reset=42` and `RateLimit-Policy: 60;w=60`, plus `Retry-After` on 429);
 * {@link StoreRateLimitStore} is only its persistence, a fixed window per key in the store's
 * `counters` table updated with one atomic upsert, so limits hold across restarts and across
 * several API processes. Over the limit -> 429 `rate_limited` with the error body.
 */
import type { Context, MiddlewareHandler } from "hono";
import { MemoryStore, rateLimiter, type ClientRateLimitInfo, type Store as RateLimitStore } from "hono-rate-limiter";
import { decrementCounter, incrementCounterBelow, readCounter, incrementCounter, resetCounter } from "../../store/counters";
import type { Store } from "../../store/index";
import { ApiError } from "../errors";
import { recordRateLimitRejection } from "../metrics/registry";
import type { TrustEnv } from "./context";

/** Default limits (documented in docs/trust.md). */
export const LIMITS = {
  /** Key-authenticated surface: requests per minute per API key (spec: default_requests_per_minute). */
  v1RequestsPerMinute: 60,
  /** Public surface: requests per minute per client IP. */
  publicRequestsPerMinute: 600,
  /** Session surface: requests per minute per client IP. */
  sessionRequestsPerMinute: 120,
  /** Coins (intents/drafts) created per API key per UTC day (spec: default_coins_per_day). */
  coinsCreatedPerDay: 500,
  /** Coins finalized (confirmed) per API key per UTC day (spec: default_finalized_coins_per_day). */
  coinsFinalizedPerDay: 500,
} as const;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** `hono-rate-limiter` store adapter over the offchain store's counters (fixed windows). */
export class StoreRateLimitStore implements RateLimitStore<TrustEnv> {
  /** Not local: several processes sharing the store see the same counts. */
  readonly localKeys = false;
  windowMs = MINUTE_MS;
  constructor(
    private readonly getStore: () => Promise<Store>,
    /** Bucket prefix, e.g. `v1:` (also read by the library's double-count check). */
    readonly prefix: string,
  ) {}
  init(options: { windowMs: number }): void {
    this.windowMs = options.windowMs;
  }
  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const count = await readCounter(await this.getStore(), this.prefix + key, this.windowMs);
    return { totalHits: count.hits, resetTime: new Date(count.resetAtMs) };
  }
  async increment(key: string): Promise<ClientRateLimitInfo> {
    const count = await incrementCounter(await this.getStore(), this.prefix + key, this.windowMs);
    return { totalHits: count.hits, resetTime: new Date(count.resetAtMs) };
  }
  async decrement(key: string): Promise<void> {
    await decrementCounter(await this.getStore(), this.prefix + key, this.windowMs);
  }
  async resetKey(key: string): Promise<void> {
    await resetCounter(await this.getStore(), this.prefix + key);
  }
}

/** Options of a fixed-window limiter. */
export type LimiterOptions = {
  /** Bucket namespace (`v1:`, `public:`, `session:`). */
  prefix: string;
  /** Requests per window. */
  limit: number;
  /** Window length (default one minute). */
  windowMs?: number;
  /** The client's identity (API key id, client IP). */
  key: (c: Context<TrustEnv>) => string;
  /** Requests that neither count nor get headers. */
  skip?: (c: Context<TrustEnv>) => boolean;
};

/** A store-backed fixed-window limiter (counts shared by every process on the store). */
export function storeRateLimiter(options: LimiterOptions & { getStore: () => Promise<Store> }): MiddlewareHandler<TrustEnv> {
  return limiter(options, new StoreRateLimitStore(options.getStore, options.prefix));
}

/**
 * A fixed-window limiter counting in this process's memory (`hono-rate-limiter`'s `MemoryStore`):
 * no store round trip per request, so a read-heavy surface is not bound by the store's write
 * rate. Counts are per process and start again on restart: with N API processes a client may make
 * up to N x `limit` requests per window (docs/trust.md "Limits").
 */
export function memoryRateLimiter(options: LimiterOptions): MiddlewareHandler<TrustEnv> {
  return limiter(options, new MemoryStore<TrustEnv>());
}

function limiter(options: LimiterOptions, store: RateLimitStore<TrustEnv>): MiddlewareHandler<TrustEnv> {
  return rateLimiter<TrustEnv>({
    windowMs: options.windowMs ?? MINUTE_MS,
    limit: options.limit,
    standardHeaders: "draft-7",
    store,
    keyGenerator: options.key,
    skip: options.skip ?? (() => false),
    handler: () => {
      recordRateLimitRejection(options.prefix);
      throw new ApiError("rate_limited", `more than ${options.limit} requests in ${Math.round((options.windowMs ?? MINUTE_MS) / 1000)} s; see Retry-After`);
    },
  });
}

/** A daily per-key counter kind. */
export type CoinQuotaKind = "coins_created" | "coins_finalized";

/**
 * Counts one coin against the key's daily quota (UTC day), atomically and without overshoot.
 * Call it once per coin created (intent / create-draft) or finalized (confirm / finalize), before
 * persisting; an idempotent replay must not call it again. Given a transaction's store (see
 * `inTransaction`), the count commits or rolls back with the rest of that transaction (confirm
 * counts this way, so a crash never leaves a finalized coin counted without its launch).
 *
 * @param options.limit - default {@link LIMITS} (500 per day for either kind)
 * @returns the count today (including this one), the limit and when the day ends (unix ms)
 * @throws ApiError `quota_exceeded` (429); when `c` is given, `Retry-After` (seconds to the
 *   next UTC midnight) is set on the response
 * @example await consumeCoinQuota(store, key.id, "coins_finalized", { c })
 */
export async function consumeCoinQuota(
  store: Store,
  apiKeyId: string,
  kind: CoinQuotaKind,
  options: { limit?: number; nowMs?: number; c?: Context } = {},
): Promise<{ used: number; limit: number; resetAtMs: number }> {
  const limit = options.limit ?? (kind === "coins_created" ? LIMITS.coinsCreatedPerDay : LIMITS.coinsFinalizedPerDay);
  const nowMs = options.nowMs ?? Date.now();
  const result = await incrementCounterBelow(store, `quota:${kind}:${apiKeyId}`, DAY_MS, limit, nowMs);
  if (!result) {
    recordRateLimitRejection(`quota_${kind}`);
    const resetAtMs = nowMs - (nowMs % DAY_MS) + DAY_MS;
    options.c?.header("Retry-After", String(Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000))));
    throw new ApiError("quota_exceeded", `daily quota of ${limit} ${kind.replace("_", " ")} per key reached (resets at 00:00 UTC)`);
  }
  return { used: result.hits, limit, resetAtMs: result.resetAtMs };
}
