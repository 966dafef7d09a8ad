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
  type WindowCount,
} from "../../store/counters";
import type { Store } from "../../store/index";
import type { BoundReachedError } from "../../store/locks";
import { ApiError } from "../errors";
import { recordRateLimitRejection } from "../../ops/metrics/registry";
import type { TrustEnv } from "./context";

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * `hono-rate-limiter` store adapter over the offchain store's counters (fixed windows), on the
 * app's clock (`nowMs`, unix ms): windows start and end in app time, so tests that inject a clock
 * move across window boundaries without waiting. The library computes the `reset` of its headers
 * and `Retry-After` from the wall clock, so `resetTime` is handed over as wall clock + the time
 * left in the app's window.
 */
class StoreRateLimitStore implements RateLimitStore<TrustEnv> {
  /** Not local: several processes sharing the store see the same counts. */
  readonly localKeys = false;
  windowMs = MINUTE_MS;
  constructor(
    private readonly getStore: () => Promise<Store>,
    /** Bucket prefix, e.g. `v1:` (also read by the library's double-count check). */
    readonly prefix: string,
    private readonly nowMs: () => number,
  ) {}
  init(options: { windowMs: number }): void {
    this.windowMs = options.windowMs;
  }
  private info(count: WindowCount, nowMs: number): ClientRateLimitInfo {
    return { totalHits: count.hits, resetTime: new Date(Date.now() + Math.max(0, count.resetAtMs - nowMs)) };
  }
  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const nowMs = this.nowMs();
    return this.info(await readCounter(await this.getStore(), this.prefix + key, this.windowMs, nowMs), nowMs);
  }
  async increment(key: string): Promise<ClientRateLimitInfo> {
    const nowMs = this.nowMs();
    return this.info(await incrementCounter(await this.getStore(), this.prefix + key, this.windowMs, nowMs), nowMs);
  }
  async decrement(key: string): Promise<void> {
    await decrementCounter(await this.getStore(), this.prefix + key, this.windowMs, this.nowMs());
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

/**
 * A store-backed fixed-window limiter (counts shared by every process on the store).
 * @param options.nowMs - the app's clock, unix ms (`deps.nowMs`; default: the wall clock)
 */
export function storeRateLimiter(
  options: LimiterOptions & { getStore: () => Promise<Store>; nowMs?: () => number },
): MiddlewareHandler<TrustEnv> {
  return limiter(options, new StoreRateLimitStore(options.getStore, options.prefix, options.nowMs ?? Date.now));
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

/**
 * A fixed-window budget in the store's counters: at most `limit` hits per `windowMs` (UTC-aligned)
 * in `bucket`. Used where the count must commit with what it counts (key creation), which a
 * request-level limiter cannot do.
 */
export type Budget = {
  /** The `counters` bucket, e.g. `keys:ip:203.0.113.7`. */
  bucket: string;
  limit: number;
  windowMs: number;
  /** What is counted and per what, for the error message, e.g. `API keys per client per hour`. */
  what: string;
};

/** A {@link Budget} is used up until `resetAtMs` (unix ms, the app's clock). */
export class BudgetExhaustedError extends Error {
  override readonly name = "BudgetExhaustedError";
  constructor(
    readonly budget: Budget,
    readonly resetAtMs: number,
  ) {
    super(`at most ${budget.limit} ${budget.what}`);
  }
}

/**
 * Adds one hit to each budget, in order, refusing the first that is used up (no overshoot under
 * concurrency). Call it inside the transaction that creates what is counted: a refusal (or any
 * later failure) then rolls back the hits already added.
 * @param nowMs - the app's clock, unix ms
 * @throws BudgetExhaustedError (the route turns it into 429 with {@link budgetRefusal})
 */
export async function consumeBudgets(store: Store, budgets: readonly Budget[], nowMs: number): Promise<void> {
  for (const budget of budgets) {
    if (!(await incrementCounterBelow(store, budget.bucket, budget.windowMs, budget.limit, nowMs)))
      throw new BudgetExhaustedError(budget, windowEnd(nowMs, budget.windowMs));
  }
}

/**
 * Refuses up front when a budget is already used up (read only), so a user is not asked to sign
 * for nothing; {@link consumeBudgets} still decides at creation.
 * @param nowMs - the app's clock, unix ms
 * @throws BudgetExhaustedError
 */
export async function checkBudgets(store: Store, budgets: readonly Budget[], nowMs: number): Promise<void> {
  for (const budget of budgets) {
    const count = await readCounter(store, budget.bucket, budget.windowMs, nowMs);
    if (count.hits >= budget.limit) throw new BudgetExhaustedError(budget, count.resetAtMs);
  }
}

/**
 * The hourly key-creation budgets of a browser session (over its sign-in rotations) and of its
 * client IP (docs/trust.md "Limits").
 * @param owner.sessionLineage - `sessionLineageId(session)`; `owner.ip` - `clientIp(c, trust)`
 * @example keyCreationBudgets({ keysPerSessionPerHour: 5, keysPerIpPerHour: 20 }, { sessionLineage: "ab12…", ip: "203.0.113.7" })
 *   // [{ bucket: "keys:session:ab12…", limit: 5, windowMs: 3600000, … }, { bucket: "keys:ip:203.0.113.7", limit: 20, … }]
 */
export function keyCreationBudgets(
  limits: { keysPerSessionPerHour: number; keysPerIpPerHour: number },
  owner: { sessionLineage: string; ip: string },
): Budget[] {
  return [
    {
      bucket: `keys:session:${owner.sessionLineage}`,
      limit: limits.keysPerSessionPerHour,
      windowMs: HOUR_MS,
      what: "API keys per browser session per hour",
    },
    {
      bucket: `keys:ip:${owner.ip}`,
      limit: limits.keysPerIpPerHour,
      windowMs: HOUR_MS,
      what: "API keys per client per hour",
    },
  ];
}

/**
 * Turns a used-up budget into 429 `rate_limited` with the headers the request limiters send
 * (`hono-rate-limiter`, draft-7): `RateLimit: limit=<n>, remaining=0, reset=<s>`,
 * `RateLimit-Policy: <n>;w=<window s>` and `Retry-After: <s>`.
 * @param nowMs - the app's clock, unix ms
 * @returns the error to throw
 * @example throw budgetRefusal(c, err, deps.nowMs()) // 429 {error: "rate_limited", message: "at most 5 API keys per browser session per hour; …"}
 */
export function budgetRefusal(c: Context, err: BudgetExhaustedError, nowMs: number): ApiError {
  const { limit, windowMs } = err.budget;
  const resetSec = Math.max(1, Math.ceil((err.resetAtMs - nowMs) / 1000));
  recordRateLimitRejection(err.budget.bucket.split(":").slice(0, 2).join("_"));
  c.header("RateLimit-Policy", `${limit};w=${Math.ceil(windowMs / 1000)}`);
  c.header("RateLimit", `limit=${limit}, remaining=0, reset=${resetSec}`);
  return new ApiError("rate_limited", `${err.message}; see Retry-After`, undefined, { retryAfterSec: resetSec });
}

/** End of the fixed window of `windowMs` containing `nowMs` (unix ms). */
function windowEnd(nowMs: number, windowMs: number): number {
  return nowMs - (nowMs % windowMs) + windowMs;
}

/**
 * Turns a store bound (`BoundReachedError`: open challenges or session builds per session) into
 * 429 `session_limit_reached`, setting `Retry-After` to the seconds until a slot frees up.
 * @returns the error to throw
 * @example throw sessionBoundError(c, err, deps.nowMs()) // 429 {error: "session_limit_reached", message: "at most 5 open key challenges per session; …"}
 */
export function sessionBoundError(c: Context, err: BoundReachedError, nowMs: number): ApiError {
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
  nowMs: number,
): Promise<void> {
  const hourMs = HOUR_MS;
  if (await incrementCounterBelow(store, `session_new:${ip}`, hourMs, limit, nowMs)) return;
  recordRateLimitRejection("session_new");
  const resetAtMs = nowMs - (nowMs % hourMs) + hourMs;
  c.header("Retry-After", String(Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000))));
  throw new ApiError(
    "session_limit_reached",
    `at most ${limit} new sessions per client per hour; keep the session cookie you have`,
  );
}
