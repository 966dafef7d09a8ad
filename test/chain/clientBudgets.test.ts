/**
 * Per-client budgets against throw-away wallets (issue 29 item 3; docs/trust.md "Limits"): one
 * client signing in as many fresh wallets (no ETH needed) must not multiply its key creation, its
 * v1 request rate or its daily coin quota. The real app (`createApp`, `app.request()` with a socket
 * address per simulated client), a real store (PGlite in a temporary folder) and a real anvil
 * (Sign-In with Ethereum signatures are verified through it). The app's clock is injected: the
 * tests move it across window boundaries instead of waiting.
 */
import { count, eq, inArray } from "drizzle-orm";
import type { LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { appFixture, type AppFixtureOverrides, type TestApp } from "../helpers/appFixture";
import { consumeCoinQuota } from "../../store/coinQuotas";
import { LIMITS } from "../../config/limits";
import { OPENAPI_PATH } from "../../http/openapi/paths";
import { ConfigError, loadEnv } from "../../config/env";
import { routeTestHandles } from "../helpers/routeTestHandles";
import { devAccount } from "../../devnet/clients";
import { inTransaction } from "../../store/index";
import { createApiKey } from "../../store/keys";
import { apiKeys, launches } from "../../store/schema";
import { answer, openSession, sessionPost, type Answer, type BrowserSession, type Fetcher } from "../helpers/session";

const BASE = "http://localhost:42069";
/** anvil on the saved devnet, an empty market database and a PGlite store, per file. */
const h = routeTestHandles({ storePrefix: "client-budgets-" });
const ORIGIN = new URL(BASE).origin;
const HOUR_MS = 3_600_000;

/**
 * The app's clock (unix ms): the wall clock moved to 10 minutes past the next full hour, so a
 * test's hourly and per-minute windows stay one window; tests move it on by `offsetMs`. (Sessions
 * still take the wall clock: their 24 h lifetime outlasts these moves.)
 */
const HOUR_START_MS = Date.now() - (Date.now() % HOUR_MS) + HOUR_MS + 10 * 60_000;
let offsetMs = HOUR_START_MS - Date.now();
const appNowMs = () => Date.now() + offsetMs;
/** Moves the app's clock on to one second past its next whole minute (a fresh per-minute window). */
function toNextMinute(): void {
  const now = appNowMs();
  offsetMs += now - (now % 60_000) + 61_000 - now;
}

function makeApp(overrides: AppFixtureOverrides = {}) {
  return appFixture(h.app(BASE), {
    nowMs: appNowMs,
    ...overrides,
    // The session surface's request rate is not under test here.
    limits: { sessionRequestsPerMinute: 10_000, ...overrides.limits },
  });
}

/** A distinct client address per test (TEST-NET-2), as the socket peer of every request. */
let nextClient = 1;
const newClientIp = () => `198.51.100.${nextClient++}`;

/** `app.request()` from the socket address `ip`. */
function fetcherFor(app: TestApp, ip: string): Fetcher {
  return async (path, init) => app.request(`${BASE}${path}`, init, { incoming: { socket: { remoteAddress: ip } } });
}

const freshAccount = (): LocalAccount => privateKeyToAccount(generatePrivateKey());

/**
 * Signs `session` in as a fresh throw-away wallet with `create_api_key: true` (one signature).
 * @returns the answer that refused (challenge or sign-in), or the sign-in answer with `api_key`
 */
async function signInWithKey(fetch: Fetcher, session: BrowserSession, account: LocalAccount): Promise<Answer> {
  const challenge = await sessionPost(fetch, ORIGIN, session, "sign-in/challenge", {
    wallet: account.address,
    create_api_key: true,
  });
  if (challenge.status !== 200) return challenge;
  const signature = await account.signMessage({ message: challenge.body.message });
  return sessionPost(fetch, ORIGIN, session, "sign-in", { wallet: account.address, signature });
}

const keysOf = async (wallets: string[]) =>
  (await h.store.db.select({ n: count() }).from(apiKeys).where(inArray(apiKeys.wallet, wallets)))[0]!.n;

/** The IETF rate-limit headers and `Retry-After` of a refusal. */
function expectRateLimitHeaders(res: Answer, limit: number, windowSec: number) {
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSec);
  expect(res.headers.get("ratelimit")).toMatch(new RegExp(`^limit=${limit}, remaining=0, reset=\\d+$`));
  expect(res.headers.get("ratelimit-policy")).toBe(`${limit};w=${windowSec}`);
}

describe("key creation is bounded per session and per client IP", () => {
  it("gives 20 throw-away wallets signing in with create_api_key in one session at most 5 keys; then 429 rate_limited with Retry-After, nothing created; the next hour the session may create again", async () => {
    const app = makeApp();
    const fetch = fetcherFor(app, newClientIp());
    const session = await openSession(fetch);
    const accounts = Array.from({ length: 20 }, freshAccount);
    const answers: Answer[] = [];
    for (const account of accounts) answers.push(await signInWithKey(fetch, session, account));
    const created = answers.filter((a) => a.status === 200 && typeof a.body.api_key === "string");
    expect(created).toHaveLength(5);
    expect(LIMITS.keysPerSessionPerHour).toBe(5);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(20 - LIMITS.keysPerSessionPerHour);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body).toMatchObject({ ok: false, error: "rate_limited" });
      expectRateLimitHeaders(r, LIMITS.keysPerSessionPerHour, 3600);
    }
    expect(await keysOf(accounts.map((a) => a.address))).toBe(LIMITS.keysPerSessionPerHour);
    // The bound follows the session across its sign-in rotations, and the app's clock: one hour on, it may create again.
    offsetMs += HOUR_MS;
    const later = await signInWithKey(fetch, session, freshAccount());
    expect(later.status).toBe(200);
    expect(later.body.api_key).toMatch(/^sk_live_/);
  });

  it("gives one client IP at most 20 keys an hour across many sessions (both key routes); another IP is served", async () => {
    const app = makeApp();
    const ip = newClientIp();
    const fetch = fetcherFor(app, ip);
    const accounts: LocalAccount[] = [];
    const answers: Answer[] = [];
    for (let s = 0; s < 6; s++) {
      const session = await openSession(fetch);
      for (let k = 0; k < 5; k++) {
        const account = freshAccount();
        accounts.push(account);
        if (k % 2 === 0) {
          answers.push(await signInWithKey(fetch, session, account));
        } else {
          // The key route of the older flow: api-keys/challenge, then api-keys.
          const challenge = await sessionPost(fetch, ORIGIN, session, "api-keys/challenge", {
            wallet: account.address,
          });
          if (challenge.status !== 200) {
            answers.push(challenge);
            continue;
          }
          const signature = await account.signMessage({ message: challenge.body.message });
          answers.push(await sessionPost(fetch, ORIGIN, session, "api-keys", { wallet: account.address, signature }));
        }
      }
    }
    const created = answers.filter((a) => [200, 201].includes(a.status) && typeof a.body.api_key === "string");
    expect(created).toHaveLength(20);
    expect(LIMITS.keysPerIpPerHour).toBe(20);
    for (const r of answers.filter((a) => a.status === 429)) {
      expect(r.body).toMatchObject({ ok: false, error: "rate_limited" });
      expectRateLimitHeaders(r, LIMITS.keysPerIpPerHour, 3600);
    }
    expect(await keysOf(accounts.map((a) => a.address))).toBe(LIMITS.keysPerIpPerHour);
    // Another client is not affected.
    const other = fetcherFor(app, newClientIp());
    const answered = await signInWithKey(other, await openSession(other), freshAccount());
    expect(answered.status).toBe(200);
    expect(answered.body.api_key).toMatch(/^sk_live_/);
  });
});

describe("v1 has a per-client ceiling beside the per-key limit", () => {
  it("serves many keys of one client IP at most the per-client ceiling per minute (429 rate_limited with the IETF headers), while another IP is served", async () => {
    const perKey = 5;
    const ceiling = 12;
    const app = makeApp({ limits: { v1RequestsPerMinute: perKey, v1ClientRequestsPerMinute: ceiling } });
    toNextMinute();
    const ip = newClientIp();
    const fetch = fetcherFor(app, ip);
    const keys = await Promise.all(
      Array.from(
        { length: 5 },
        async () => (await createApiKey(h.store, { wallet: freshAccount().address, createdVia: "cli" })).secret,
      ),
    );
    const get = (f: Fetcher, key: string) =>
      f("/api/v1/evmchain/launches/status?launch_id=lnch_000000000000000000000000", {
        headers: { Authorization: `Bearer ${key}` },
      }).then(answer);
    const answers: Answer[] = [];
    for (const key of keys) for (let i = 0; i < perKey; i++) answers.push(await get(fetch, key));
    const served = answers.filter((a) => a.status !== 429);
    expect(served).toHaveLength(ceiling);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(keys.length * perKey - ceiling);
    for (const r of refused) {
      expect(r.body).toMatchObject({ ok: false, error: "rate_limited" });
      expectRateLimitHeaders(r, ceiling, 60);
    }
    // A fresh key from the same client is refused too; the same fresh key from another IP is served.
    const fresh = (await createApiKey(h.store, { wallet: freshAccount().address, createdVia: "cli" })).secret;
    expect((await get(fetch, fresh)).status).toBe(429);
    expect((await get(fetcherFor(app, newClientIp()), fresh)).status).toBe(404);
    // The next minute of the app's clock serves the client again.
    offsetMs += 60_000;
    expect((await get(fetch, fresh)).status).toBe(404);
    // The descriptor states the ceiling.
    const descriptor = await fetch("/api/v1").then(answer);
    expect(descriptor.body.limits.requests_per_minute_per_client).toBe(ceiling);
  });
});

describe("the daily coin quota cannot be multiplied by minting wallets from one client", () => {
  const intent = (creator: string) => ({
    creator,
    name: "Budget Coin",
    symbol: "BDGT",
    first_buy_wei: "1000000000000000",
  });
  const post = (f: Fetcher, key: string, path: string, idem: string, body: unknown) =>
    f(path, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": idem },
      body: JSON.stringify(body),
    }).then(answer);

  it("bounds coins created per client IP per UTC day over all wallets (intents and drafts): 429 quota_exceeded with Retry-After, nothing created; another IP is served", async () => {
    const perIp = 3;
    const app = makeApp({ limits: { coinsCreatedPerIpPerDay: perIp } });
    const fetch = fetcherFor(app, newClientIp());
    const wallets = Array.from({ length: 6 }, () => freshAccount().address);
    const keys = await Promise.all(
      wallets.map(async (wallet) => (await createApiKey(h.store, { wallet, createdVia: "cli" })).secret),
    );
    const answers: Answer[] = [];
    for (const [i, key] of keys.entries()) {
      const path = i % 2 === 0 ? "/api/v1/evmchain/launches/intent" : "/api/v1/coins/create-draft";
      answers.push(await post(fetch, key, path, `idem-${i}`, intent(devAccount(1).address)));
    }
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 429, 429, 429]);
    for (const r of answers.slice(perIp)) {
      expect(r.body).toMatchObject({ ok: false, error: "quota_exceeded" });
      const retryAfter = Number(r.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
    }
    const keyIds = (
      await h.store.db.select({ id: apiKeys.id }).from(apiKeys).where(inArray(apiKeys.wallet, wallets))
    ).map((r) => r.id);
    expect(
      (await h.store.db.select({ n: count() }).from(launches).where(inArray(launches.apiKeyId, keyIds)))[0]!.n,
    ).toBe(perIp);
    // The same (refused) key from another client is served.
    const again = await post(
      fetcherFor(app, newClientIp()),
      keys[perIp]!,
      "/api/v1/evmchain/launches/intent",
      "idem-other",
      intent(devAccount(1).address),
    );
    expect(again.status).toBe(201);
    const refusedKeyId = (
      await h.store.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.wallet, wallets[perIp]!))
    )[0]!.id;
    expect(
      (await h.store.db.select({ n: count() }).from(launches).where(eq(launches.apiKeyId, refusedKeyId)))[0]!.n,
    ).toBe(1);
  });

  it("bounds coins finalized per client IP per UTC day over all wallets, in the caller's transaction", async () => {
    const ip = newClientIp();
    const nowMs = appNowMs();
    const consume = (wallet: string) =>
      inTransaction(h.store, (tx) =>
        consumeCoinQuota(tx, wallet, "coins_finalized", { nowMs, client: { ip, limit: 2 } }),
      );
    await consume(freshAccount().address);
    await consume(freshAccount().address);
    await expect(consume(freshAccount().address)).rejects.toMatchObject({
      name: "QuotaExceededError",
      quota: "quota_coins_finalized_ip",
      retryAfterSec: expect.any(Number),
    });
    // Refused by the IP bound: the wallet's own count rolled back with the transaction.
    const wallet = freshAccount().address;
    await expect(consume(wallet)).rejects.toMatchObject({ name: "QuotaExceededError" });
    expect(
      (await inTransaction(h.store, (tx) => consumeCoinQuota(tx, wallet, "coins_finalized", { nowMs, limit: 1 }))).used,
    ).toBe(1);
  });
});

describe("configuration", () => {
  it("reads each per-client bound from the environment, with the documented defaults, and refuses 0", () => {
    expect(loadEnv({})).toMatchObject({
      KEYS_PER_SESSION_PER_HOUR: LIMITS.keysPerSessionPerHour,
      KEYS_PER_IP_PER_HOUR: LIMITS.keysPerIpPerHour,
      COINS_CREATED_PER_IP_PER_DAY: LIMITS.coinsCreatedPerIpPerDay,
      COINS_FINALIZED_PER_IP_PER_DAY: LIMITS.coinsFinalizedPerIpPerDay,
    });
    // Unset: the app derives the ceiling from the per-key limit (4 x).
    expect(loadEnv({}).V1_CLIENT_RATE_LIMIT_PER_MINUTE).toBeUndefined();
    expect(LIMITS.v1ClientRequestsPerMinute).toBe(4 * LIMITS.v1RequestsPerMinute);
    expect(loadEnv({ V1_CLIENT_RATE_LIMIT_PER_MINUTE: "500" }).V1_CLIENT_RATE_LIMIT_PER_MINUTE).toBe(500);
    expect(() => loadEnv({ KEYS_PER_IP_PER_HOUR: "0" })).toThrow(ConfigError);
  });

  it("documents 429 rate_limited on the key-creating routes in the OpenAPI description", async () => {
    const doc = (await fetcherFor(makeApp(), newClientIp())(OPENAPI_PATH).then(answer)).body;
    for (const path of [
      "/api/evm/evmchain/sign-in/challenge",
      "/api/evm/evmchain/sign-in",
      "/api/evm/evmchain/api-keys/challenge",
      "/api/evm/evmchain/api-keys",
    ])
      expect(JSON.stringify(doc.paths[path].post.responses["429"]), path).toContain("rate_limited");
  });
});
