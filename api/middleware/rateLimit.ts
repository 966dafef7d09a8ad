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
import {
  decrementCounter,
  incrementCounterBelow,
  readCounter,
  incrementCounter,
  resetCounter,
} from "../../store/counters";
import type { Store } from "../../store/index";
import type { BoundReachedError } from "../../store/locks";
import { getAddress } from "viem";
import { ApiError } from "../errors";
import { recordRateLimitRejection } from "../metrics/registry";
import type { TrustEnv } from "./context";

import { LIMITS } from "./limits";

export { LIMITS };

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** `hono-rate-limiter` store adapter over the offchain store's counters (fixed windows). */
class StoreRateLimitStore implements RateLimitStore<TrustEnv> {
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
export function storeRateLimiter(
  options: LimiterOptions & { getStore: () => Promise<Store> },
): MiddlewareHandler<TrustEnv> {
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
      throw new ApiError(
        "rate_limited",
        `more than ${options.limit} requests in ${Math.round((options.windowMs ?? MINUTE_MS) / 1000)} s; see Retry-After`,
      );
    },
  });
}

/** A daily per-wallet counter kind. */
export type CoinQuotaKind = "coins_created" | "coins_finalized";

/**
 * The `counters` bucket of a wallet's daily coin quota: `quota:<kind>:wallet:<checksummed
 * wallet>`. Every key of the wallet counts into the same bucket.
 * @example coinQuotaBucket("coins_created", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266") // "quota:coins_created:wallet:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
 */
export function coinQuotaBucket(kind: CoinQuotaKind, wallet: string): string {
  return `quota:${kind}:wallet:${getAddress(wallet)}`;
}

/**
 * Counts one coin against the daily quota (UTC day) of the key's wallet — one bucket per wallet,
 * shared by all its keys, so creating more keys buys no more coins — atomically and without
 * overshoot.
 * Call it once per coin created (intent / create-draft) or finalized (confirm / finalize), before
 * persisting; an idempotent replay must not call it again. Given a transaction's store (see
 * `inTransaction`), the count commits or rolls back with the rest of that transaction (confirm
 * counts this way, so a crash never leaves a finalized coin counted without its launch).
 *
 * @param options.limit - default {@link LIMITS} (500 per day for either kind)
 * @returns the count today (including this one), the limit and when the day ends (unix ms)
 * @param options.nowMs - the app's clock, unix milliseconds (default: the wall clock)
 * @throws ApiError `quota_exceeded` (429) whose `retryAfterSec` (seconds to the next UTC midnight)
 *   the app sends as `Retry-After`
 * @param wallet - the API key's wallet (`key.wallet`), any case
 * @example await consumeCoinQuota(store, key.wallet, "coins_finalized", { nowMs: Date.now() })
 */
export async function consumeCoinQuota(
  store: Store,
  wallet: string,
  kind: CoinQuotaKind,
  options: { limit?: number; nowMs?: number } = {},
): Promise<{ used: number; limit: number; resetAtMs: number }> {
  const limit = options.limit ?? (kind === "coins_created" ? LIMITS.coinsCreatedPerDay : LIMITS.coinsFinalizedPerDay);
  const nowMs = options.nowMs ?? Date.now();
  const result = await incrementCounterBelow(store, coinQuotaBucket(kind, wallet), DAY_MS, limit, nowMs);
  if (!result) {
    recordRateLimitRejection(`quota_${kind}`);
    const resetAtMs = nowMs - (nowMs % DAY_MS) + DAY_MS;
    throw new ApiError(
      "quota_exceeded",
      `daily quota of ${limit} ${kind.replace("_", " ")} per wallet reached, over all its API keys (resets at 00:00 UTC)`,
      undefined,
      { retryAfterSec: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)) },
    );
  }
  return { used: result.hits, limit, resetAtMs: result.resetAtMs };
}

/**
 * Turns a store bound (`BoundReachedError`: open challenges or session builds per session) into
 * 429 `session_limit_reached`, setting `Retry-After` to the seconds until a slot frees up.
 * @returns the error to throw
 * @example throw sessionBoundError(c, err) // 429 {error: "session_limit_reached", message: "at most 5 open key challenges per session; …"}
 */
export function sessionBoundError(c: Context, err: BoundReachedError, nowMs = Date.now()): ApiError {
  recordRateLimitRejection("session_bound");
  c.header("Retry-After", String(Math.max(1, Math.ceil((err.retryAtMs - nowMs) / 1000))));
  return new ApiError("session_limit_reached", `${err.message}; finish or wait for one to expire (Retry-After)`);
}

/**
 * Counts one new browser session for a client IP in the hour (UTC-aligned window) and refuses it
 * above `limit` (`LIMITS.sessionsPerIpPerHour`): the store rows a client can make are bounded,
 * not only its request rate.
 * @throws ApiError 429 `session_limit_reached` with `Retry-After` (seconds to the next hour)
 */
export async function consumeNewSession(
  store: Store,
  c: Context,
  ip: string,
  limit: number,
  nowMs = Date.now(),
): Promise<void> {
  const hourMs = 60 * MINUTE_MS;
  if (await incrementCounterBelow(store, `session_new:${ip}`, hourMs, limit, nowMs)) return;
  recordRateLimitRejection("session_new");
  const resetAtMs = nowMs - (nowMs % hourMs) + hourMs;
  c.header("Retry-After", String(Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000))));
  throw new ApiError(
    "session_limit_reached",
    `at most ${limit} new sessions per client per hour; keep the session cookie you have`,
  );
}
