/**
 * Trust layer attack tests: the real HTTP app (`createApp`, `app.request()`), a real store
 * (PGlite in a temporary folder, and PostgreSQL in a unique schema when reachable), and a real
 * anvil with the stack deployed (signature verification and the RPC part of health).
 * No mocks: every rule is exercised through HTTP and checked in the store.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import sharp from "sharp";
import { createPublicClient, http, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { appFixture, type AppFixtureOverrides, type TestApp } from "../helpers/appFixture";
import * as fx from "../fixtures/images";
import type { MarketDb } from "../../market/db";
import { scopeFor, SCOPE_TABLE } from "../../http/middleware/auth";
import { consumeCoinQuota } from "../../store/coinQuotas";
import { LIMITS } from "../../config/limits";
import { INTENT_CREATOR_RULE } from "../../http/openapi/launchDocs";
import { deploymentSchema, type Deployment } from "../../config/deployment";
import { compileProxyTrust } from "../../config/proxyTrust";
import type { AnvilInstance } from "../../devnet/anvil";
import { startDeployedDevnet } from "../helpers/chainDevnet";
import { devAccount } from "../../devnet/clients";
import { executeRows, openStore, type Store } from "../../store/index";
import { reserveIdempotencyKey } from "../../store/idempotency";
import { ActiveKeyLimitError, createApiKey, hashApiKey, listApiKeys, revokeApiKey } from "../../store/keys";
import { pruneExpired } from "../../store/housekeeping";
import { apiKeys, idempotencyRecords, keyChallenges, launches, media, sessions } from "../../store/schema";
import { sessionCookieOf, signedInSession } from "../helpers/session";
import { dropSchema, postgresAvailable, TEST_DATABASE_URL, uniqueSchemaName } from "../helpers/postgres";

import migrationJournal from "../../store/migrations/meta/_journal.json";
import { scaledMs } from "../helpers/deadlines";
import { runToExit } from "../helpers/runToExit";

const BASE = "http://localhost:42069";
const CREATOR = devAccount(1).address;

let anvil: AnvilInstance;
let deployment: Deployment;
let publicClient: PublicClient;
let marketDbClient: PGlite;
let marketDb: MarketDb;

beforeAll(async () => {
  const devnet = await startDeployedDevnet();
  anvil = devnet.anvil;
  deployment = deploymentSchema.parse(devnet.manifest);
  publicClient = createPublicClient({ transport: http(anvil.rpcUrl) });
  // An empty database stands in for Ponder's tables: these tests never reach a market query.
  marketDbClient = new PGlite();
  marketDb = drizzle(marketDbClient) as unknown as MarketDb;
});

afterAll(async () => {
  await marketDbClient?.close();
  await anvil?.stop();
});

/** Waits while the current minute is about to roll over, so fixed-window counts stay in one window. */
async function awayFromMinuteEdge(needMs = 15_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 50));
}

const modes = [
  { kind: "pglite" as const, available: true },
  { kind: "postgres" as const, available: await postgresAvailable() },
];

describe.each(modes)("trust layer on $kind", ({ kind, available }) => {
  if (!available) {
    it.skip(`PostgreSQL at ${TEST_DATABASE_URL} is not reachable: PostgreSQL mode skipped`, () => undefined);
    return;
  }

  let store: Store;
  let app: TestApp;
  let cleanup: () => Promise<void>;
  const schema = kind === "postgres" ? uniqueSchemaName("trust_store") : "launch_store";

  beforeAll(async () => {
    if (kind === "pglite") {
      const dir = mkdtempSync(join(tmpdir(), "trust-store-"));
      store = await openStore({ kind: "pglite", dir, schema });
      cleanup = async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      };
    } else {
      store = await openStore({ kind: "postgres", url: TEST_DATABASE_URL, schema });
      cleanup = async () => {
        await store.close();
        await dropSchema(schema);
      };
    }
    app = makeApp();
  });

  afterAll(async () => {
    await cleanup?.();
  });

  function makeApp(overrides: AppFixtureOverrides = {}) {
    return appFixture({ db: marketDb, publicBaseUrl: BASE, store, deployment, publicClient }, overrides);
  }

  /** A key of a fresh wallet (default): quotas and the key cap count per wallet, so tests stay independent. */
  async function newKey(wallet: string = privateKeyToAccount(generatePrivateKey()).address) {
    return (await createApiKey(store, { wallet, createdVia: "cli" })).secret;
  }

  async function call(path: string, init: RequestInit & { key?: string; target?: TestApp; socket?: string } = {}) {
    const headers = new Headers(init.headers);
    if (init.key) headers.set("Authorization", `Bearer ${init.key}`);
    // `socket`: the peer address Ponder's node server passes in `c.env.incoming` (clientIp).
    const env = init.socket ? { incoming: { socket: { remoteAddress: init.socket } } } : undefined;
    const res = await (init.target ?? app).request(`${BASE}${path}`, { ...init, headers }, env);
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, headers: res.headers, body, text };
  }

  const intentBody = (over: Record<string, unknown> = {}) => ({
    creator: CREATOR,
    name: "Test Coin",
    symbol: "TEST",
    first_buy_wei: "1000000000000000",
    ...over,
  });

  function postIntent(key: string, idem: string | undefined, body: unknown, target?: TestApp) {
    return call("/api/v1/evmchain/launches/intent", {
      method: "POST",
      key,
      target,
      headers: { "Content-Type": "application/json", ...(idem !== undefined ? { "Idempotency-Key": idem } : {}) },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  }

  const launchCount = async () => (await store.db.select({ n: count() }).from(launches))[0]!.n;
  const mediaCount = async () => (await store.db.select({ n: count() }).from(media))[0]!.n;

  describe("store", () => {
    it("applies the migrations inside the configured schema, and re-opening is a no-op", async () => {
      const tables = await executeRows<{ table_name: string }>(
        store,
        sql`select table_name from information_schema.tables where table_schema = ${schema} order by table_name`,
      );
      expect(tables.map((r) => r.table_name)).toEqual([
        "__drizzle_migrations",
        "api_keys",
        "counters",
        "creator_funding",
        "idempotency_records",
        "key_challenges",
        "launches",
        "media",
        "sessions",
        "webhook_deliveries",
        "webhook_subscriptions",
        "webhook_unconfirmed_sent",
      ]);
      if (kind === "postgres") {
        const again = await openStore({ kind: "postgres", url: TEST_DATABASE_URL, schema });
        const applied = await executeRows<{ n: number }>(
          again,
          sql`select count(*)::int as n from ${sql.identifier(schema)}.__drizzle_migrations`,
        );
        // One row per migration in store/migrations (re-opening applied none twice).
        expect(applied[0]!.n).toBe(migrationJournal.entries.length);
        await again.close();
      }
    });

    it("stores only SHA-256 hashes of keys, never the secret", async () => {
      const { secret, key } = await createApiKey(store, { wallet: CREATOR, label: "hash check", createdVia: "cli" });
      const row = (await executeRows(store, sql`select * from api_keys where id = ${key.id}`))[0]!;
      expect(row.key_hash).toBe(hashApiKey(secret));
      expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
      const dump = JSON.stringify(await executeRows(store, sql`select * from api_keys`));
      const randomPart = secret.slice("sk_live_".length);
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(randomPart);
      expect(dump).not.toContain(randomPart.slice(4, 20));
    });
  });

  it("housekeeping deletes expired windows, idempotency records, sessions and challenges", async () => {
    const { pruneExpired } = await import("../../store/housekeeping");
    const { incrementCounter, readCounter } = await import("../../store/counters");
    const past = Date.now() - 3 * 86_400_000;
    await incrementCounter(store, "prune:test", 60_000, past);
    expect((await readCounter(store, "prune:test", 60_000, past)).hits).toBe(1);
    await reserveIdempotencyKey(store, { scope: "prune", key: "old", fingerprint: "f", nowMs: past });
    await pruneExpired(store, Date.now());
    expect((await readCounter(store, "prune:test", 60_000, past)).hits).toBe(0);
    expect(await store.db.select().from(idempotencyRecords).where(eq(idempotencyRecords.scope, "prune"))).toEqual([]);
  });

  describe("API keys and scopes", () => {
    const readPath = "/api/v1/evmchain/tokens/0x123"; // passes auth, then 400 invalid_address (no market query)

    it("refuses a missing or non-Bearer Authorization with 401 missing_api_key", async () => {
      for (const authorization of [undefined, "", "Basic dXNlcjpwYXNz", "Bearer", "sk_live_abc"]) {
        const res = await call(readPath, {
          headers: authorization === undefined ? {} : { Authorization: authorization },
        });
        expect({ authorization, status: res.status, error: res.body.error }).toEqual({
          authorization,
          status: 401,
          error: "missing_api_key",
        });
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="evmchain"/);
        expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
      }
    });

    it("refuses malformed and unknown keys with 401 invalid_api_key", async () => {
      const unknown = `sk_live_${"A".repeat(43)}`;
      for (const key of ["sk_live_short", `pk_live_${"A".repeat(43)}`, unknown, `${unknown}x`]) {
        const res = await call(readPath, { key });
        expect({ key, status: res.status, error: res.body.error }).toEqual({
          key,
          status: 401,
          error: "invalid_api_key",
        });
        expect(res.text).not.toContain(key);
      }
    });

    it("accepts a valid key and refuses it on the very next request after revocation", async () => {
      const { secret, key } = await createApiKey(store, { wallet: CREATOR, createdVia: "cli" });
      const ok = await call(readPath, { key: secret });
      expect({ status: ok.status, error: ok.body.error }).toEqual({ status: 400, error: "invalid_address" });
      expect(await revokeApiKey(store, key.id)).toBe(true);
      const after = await call(readPath, { key: secret });
      expect({ status: after.status, error: after.body.error }).toEqual({ status: 401, error: "invalid_api_key" });
    });

    it("answers 403 insufficient_scope when the key lacks the endpoint's scope", async () => {
      const { secret, key } = await createApiKey(store, { wallet: CREATOR, createdVia: "cli" });
      await store.db
        .update(apiKeys)
        .set({ scopes: ["evmchain:launch:read"] })
        .where(eq(apiKeys.id, key.id));
      const read = await call(readPath, { key: secret });
      expect({ status: read.status, error: read.body.error }).toEqual({ status: 403, error: "insufficient_scope" });
      expect(read.body.message).toContain("evmchain:market:read");
      expect(read.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
      const before = await launchCount();
      const intent = await postIntent(secret, "scope-1", intentBody());
      expect({ status: intent.status, error: intent.body.error }).toEqual({ status: 403, error: "insufficient_scope" });
      // An empty multipart form: the body parser passes multipart on, so the scope check answers.
      const upload = await call("/api/v1/evmchain/media/upload", { method: "POST", key: secret, body: new FormData() });
      expect({ status: upload.status, error: upload.body.error }).toEqual({ status: 403, error: "insufficient_scope" });
      expect(await launchCount()).toBe(before);
    });

    it("protects future v1 paths (coins flow) with the key check too", async () => {
      const res = await call("/api/v1/coins/status?draft_id=x");
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 401, error: "missing_api_key" });
    });

    it("maps every registered /api/v1 route to a scope (the open descriptor, health and readiness excepted)", () => {
      const routes = app.routes.filter((r) => r.path.startsWith("/api/v1") && r.method !== "ALL");
      const unmapped = routes
        .filter((r) => r.path !== "/api/v1" && r.path !== "/api/v1/health" && r.path !== "/api/v1/ready")
        .filter((r) => !scopeFor(r.method, r.path))
        .map((r) => `${r.method} ${r.path}`);
      expect(unmapped).toEqual([]);
      expect(routes.length).toBeGreaterThanOrEqual(5);
      expect(new Set(SCOPE_TABLE.map((r) => r.scope)).size).toBe(5);
    });
  });

  describe("rate limits", () => {
    it("allows 60 requests per minute per key, answers the 61st with 429 and rate headers, across app instances sharing the store", async () => {
      await awayFromMinuteEdge();
      const key = await newKey();
      // A second app on the same store stands for a second API process.
      const second =
        kind === "postgres" ? await openStore({ kind: "postgres", url: TEST_DATABASE_URL, schema }) : store;
      const other = makeApp({ store: second });
      try {
        for (let i = 1; i <= 60; i++) {
          const res = await call("/api/v1/evmchain/tokens/0x123", { key, target: i % 2 ? app : other });
          expect(res.status).toBe(400);
          expect(res.headers.get("ratelimit")).toMatch(new RegExp(`^limit=60, remaining=${60 - i}, reset=\\d+$`));
          expect(res.headers.get("ratelimit-policy")).toBe("60;w=60");
        }
        const limited = await call("/api/v1/evmchain/tokens/0x123", { key });
        expect({ status: limited.status, error: limited.body.error }).toEqual({ status: 429, error: "rate_limited" });
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
        expect(limited.headers.get("ratelimit")).toMatch(/^limit=60, remaining=0, reset=\d+$/);
        expect(limited.body.request_id).toBeTruthy();
        // Another key is unaffected; the open descriptor counts against its own per-IP budget, not
        // the key's.
        const fresh = await call("/api/v1/evmchain/tokens/0x123", { key: await newKey() });
        expect(fresh.status).toBe(400);
        const descriptor = await call("/api/v1");
        expect(descriptor.status).toBe(200);
        expect(descriptor.headers.get("ratelimit-policy")).toBe(`${LIMITS.openV1RequestsPerMinute};w=60`);
      } finally {
        if (second !== store) await second.close();
      }
    });

    it("limits the public and session surfaces per client IP (X-Forwarded-For only behind a trusted proxy)", async () => {
      await awayFromMinuteEdge(5_000);
      // One trusted hop (TRUST_PROXY=1): the proxy at 127.0.0.1 appends the client's address.
      const proxied = makeApp({
        trustProxy: compileProxyTrust("1"),
        limits: { publicRequestsPerMinute: 3, sessionRequestsPerMinute: 2 },
      });
      const ip = `203.0.113.${Math.floor(Math.random() * 250)}`;
      const via = (xff: string) => ({ target: proxied, socket: "127.0.0.1", headers: { "X-Forwarded-For": xff } });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await call("/api/public", via(`10.0.0.${i}, ${ip}`))).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await call("/api/public", via(ip));
      expect({ status: limited.status, error: limited.body.error }).toEqual({ status: 429, error: "rate_limited" });
      expect(limited.headers.get("ratelimit-policy")).toBe("3;w=60");
      expect(limited.headers.get("retry-after")).toBeTruthy();
      // Another client is not affected.
      expect((await call("/api/public", via(`198.51.100.${Math.floor(Math.random() * 250)}`))).status).toBe(200);
      const session: number[] = [];
      for (let i = 0; i < 3; i++) session.push((await call("/api/evm/evmchain/session", via(ip))).status);
      expect(session).toEqual([200, 200, 429]);
    });

    it("a spoofed first X-Forwarded-For entry does not bypass the per-IP limit (trusted hops, not the first entry)", async () => {
      await awayFromMinuteEdge(5_000);
      // The reproduction: TRUST_PROXY=1, limit 5, a client on 127.0.0.1 sending
      // `X-Forwarded-For: 10.0.0.$i, 127.0.0.1` seven times. Each request is the same client.
      const trusting = makeApp({
        trustProxy: compileProxyTrust("1"),
        limits: { publicRequestsPerMinute: 5, sessionRequestsPerMinute: 5 },
      });
      const statuses: number[] = [];
      for (let i = 1; i <= 7; i++) {
        statuses.push(
          (
            await call("/api/public", {
              target: trusting,
              socket: "127.0.0.1",
              headers: { "X-Forwarded-For": `10.0.0.${i}, 127.0.0.1` },
            })
          ).status,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      // Behind a listed proxy range: entries left of the first untrusted address are ignored.
      const listed = makeApp({
        trustProxy: compileProxyTrust("loopback, 10.0.0.0/8"),
        limits: { publicRequestsPerMinute: 5, sessionRequestsPerMinute: 5 },
      });
      const client = `198.51.100.${Math.floor(Math.random() * 250)}`;
      const listedStatuses: number[] = [];
      for (let i = 1; i <= 7; i++) {
        listedStatuses.push(
          (
            await call("/api/public", {
              target: listed,
              socket: "10.1.2.3",
              headers: { "X-Forwarded-For": `192.0.2.${i}, ${client}, 10.9.9.9` },
            })
          ).status,
        );
      }
      expect(listedStatuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      // The session surface keys the same way.
      const session: number[] = [];
      for (let i = 1; i <= 7; i++) {
        session.push(
          (
            await call("/api/evm/evmchain/session", {
              target: trusting,
              socket: "127.0.0.1",
              headers: { "X-Forwarded-For": `10.0.1.${i}, 127.0.0.2` },
            })
          ).status,
        );
      }
      expect(session).toEqual([200, 200, 200, 200, 200, 429, 429]);
    });

    it("enforces the daily coins-created quota on intents and exports the finalized quota", async () => {
      const limited = makeApp({ limits: { coinsCreatedPerDay: 2 } });
      const key = await newKey();
      for (const i of [1, 2])
        expect((await postIntent(key, `quota-${i}`, intentBody({ name: `Quota ${i}` }), limited)).status).toBe(201);
      const before = await launchCount();
      const third = await postIntent(key, "quota-3", intentBody({ name: "Quota 3" }), limited);
      expect({ status: third.status, error: third.body.error }).toEqual({ status: 429, error: "quota_exceeded" });
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await launchCount()).toBe(before);
      // Nothing kept for the refused request: the same key runs again once the quota allows.
      const idem = (
        await store.db.select().from(idempotencyRecords).where(eq(idempotencyRecords.idempotencyKey, "quota-3"))
      ).length;
      expect(idem).toBe(0);

      const wallet = privateKeyToAccount(generatePrivateKey()).address;
      for (let i = 1; i <= 3; i++)
        expect((await consumeCoinQuota(store, wallet, "coins_finalized", { limit: 3, nowMs: Date.now() })).used).toBe(
          i,
        );
      await expect(
        consumeCoinQuota(store, wallet, "coins_finalized", { limit: 3, nowMs: Date.now() }),
      ).rejects.toMatchObject({
        name: "QuotaExceededError",
        quota: "quota_coins_finalized",
      });
      // The default is the spec's 500 per day.
      expect(
        (
          await consumeCoinQuota(store, privateKeyToAccount(generatePrivateKey()).address, "coins_finalized", {
            nowMs: Date.now(),
          })
        ).limit,
      ).toBe(500);
    });
  });

  describe("session and CSRF", () => {
    async function session(target = app, url = `${BASE}/api/evm/evmchain/session`) {
      const res = await target.request(url);
      const setCookie = res.headers.get("set-cookie") ?? "";
      return {
        res,
        setCookie,
        cookie: setCookie.split(";")[0]!,
        token: ((await res.json()) as { csrf_token: string }).csrf_token,
      };
    }

    function sessionPost(
      path: string,
      opts: {
        cookie?: string;
        header?: string;
        bodyToken?: string;
        origin?: string | null;
        fetchSite?: string;
        contentType?: string;
        body?: Record<string, unknown>;
      },
    ) {
      const headers: Record<string, string> = { "Content-Type": opts.contentType ?? "application/json" };
      if (opts.origin !== null) headers.Origin = opts.origin ?? new URL(BASE).origin;
      if (opts.fetchSite) headers["Sec-Fetch-Site"] = opts.fetchSite;
      if (opts.cookie) headers.Cookie = opts.cookie;
      if (opts.header !== undefined) headers["X-CSRF-Token"] = opts.header;
      const body = { ...opts.body, ...(opts.bodyToken !== undefined ? { csrf_token: opts.bodyToken } : {}) };
      return call(path, { method: "POST", headers, body: JSON.stringify(body) });
    }

    it("GET /session sets an HttpOnly SameSite=Strict cookie (Secure off localhost) and returns a CSRF token", async () => {
      const local = await session();
      expect(local.res.status).toBe(200);
      expect(local.setCookie).toMatch(/^session=[A-Za-z0-9_-]{43}; Max-Age=86400; Path=\/; HttpOnly; SameSite=Strict$/);
      expect(local.token).toMatch(/^[A-Za-z0-9_-]+$/);
      // With the cookie: same session, no new cookie.
      const again = await app.request(`${BASE}/api/evm/evmchain/session`, { headers: { Cookie: local.cookie } });
      expect(again.headers.get("set-cookie")).toBeNull();
      const remote = await session(app, "https://launch.example/api/evm/evmchain/session");
      expect(remote.setCookie).toMatch(
        /^__Host-session=[A-Za-z0-9_-]{43}; .*Path=\/; .*HttpOnly; Secure; SameSite=Strict/,
      );
    });

    it("refuses every session POST without a valid, matching token pair from the same origin, changing nothing", async () => {
      const s = await session();
      const other = await session();
      const wallet = CREATOR;
      const path = "/api/evm/evmchain/api-keys/challenge";
      const challengesBefore = (await store.db.select({ n: count() }).from(keyChallenges))[0]!.n;
      const attacks: Array<[string, Parameters<typeof sessionPost>[1]]> = [
        ["no token at all", { cookie: s.cookie }],
        ["header only", { cookie: s.cookie, header: s.token }],
        ["body only", { cookie: s.cookie, bodyToken: s.token }],
        ["header and body differ", { cookie: s.cookie, header: s.token, bodyToken: other.token }],
        ["token of another session", { cookie: s.cookie, header: other.token, bodyToken: other.token }],
        ["forged token", { cookie: s.cookie, header: "abc-def", bodyToken: "abc-def" }],
        ["no session cookie", { header: s.token, bodyToken: s.token }],
        ["cross-origin", { cookie: s.cookie, header: s.token, bodyToken: s.token, origin: "https://evil.example" }],
        ["null origin", { cookie: s.cookie, header: s.token, bodyToken: s.token, origin: "null" }],
        [
          "no Origin, cross-site fetch",
          { cookie: s.cookie, header: s.token, bodyToken: s.token, origin: null, fetchSite: "cross-site" },
        ],
        ["no Origin, no fetch metadata", { cookie: s.cookie, header: s.token, bodyToken: s.token, origin: null }],
        [
          "form post",
          { cookie: s.cookie, header: s.token, bodyToken: s.token, contentType: "application/x-www-form-urlencoded" },
        ],
      ];
      for (const [name, opts] of attacks) {
        const res = await sessionPost(path, { ...opts, body: { wallet } });
        expect({ name, status: res.status, error: res.body.error }).toEqual({
          name,
          status: 403,
          error: "csrf_failed",
        });
      }
      expect((await store.db.select({ n: count() }).from(keyChallenges))[0]!.n).toBe(challengesBefore);
      const ok = await sessionPost(path, { cookie: s.cookie, header: s.token, bodyToken: s.token, body: { wallet } });
      expect(ok.status).toBe(200);
      const sameOriginNoHeader = await sessionPost(path, {
        cookie: s.cookie,
        header: s.token,
        bodyToken: s.token,
        origin: null,
        fetchSite: "same-origin",
        body: { wallet },
      });
      expect(sameOriginNoHeader.status).toBe(200);
    });

    /** Posts with the session's cookie and token; a rotated cookie (sign-in) replaces `s.cookie`. */
    function trackedPost(s: { cookie: string; token: string }) {
      return async (path: string, body: Record<string, unknown>) => {
        const res = await sessionPost(path, { cookie: s.cookie, header: s.token, bodyToken: s.token, body });
        s.cookie = sessionCookieOf(res.headers) ?? s.cookie;
        return res;
      };
    }

    it("creates a key from a wallet signature once; replays and wrong signers are refused", async () => {
      const s = await session();
      const post = trackedPost(s);
      const account = devAccount(2);

      const c1 = await post("/api/evm/evmchain/api-keys/challenge", { wallet: account.address });
      expect(c1.status).toBe(200);
      expect(c1.body.message).toMatch(/^localhost:42069 wants you to sign in with your Ethereum account:\n0x/);
      expect(c1.body.message).toContain(`Nonce: ${c1.body.nonce}`);
      expect(c1.body.expires_at_sec - c1.body.issued_at_sec).toBe(300);
      const signature = await account.signMessage({ message: c1.body.message });
      const created = await post("/api/evm/evmchain/api-keys", { wallet: account.address, signature });
      expect(created.status).toBe(201);
      expect(created.body.api_key).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);
      expect(created.body.key.prefix).toBe(created.body.api_key.slice(0, 12));
      const use = await call("/api/v1/evmchain/tokens/0x123", { key: created.body.api_key });
      expect(use.status).toBe(400); // authenticated, then invalid_address

      const replay = await post("/api/evm/evmchain/api-keys", { wallet: account.address, signature });
      expect({ status: replay.status, error: replay.body.error }).toEqual({
        status: 400,
        error: "challenge_not_found",
      });

      const c2 = await post("/api/evm/evmchain/api-keys/challenge", { wallet: account.address });
      const wrong = await devAccount(3).signMessage({ message: c2.body.message });
      const keysBefore = (await store.db.select({ n: count() }).from(apiKeys))[0]!.n;
      const refused = await post("/api/evm/evmchain/api-keys", { wallet: account.address, signature: wrong });
      expect({ status: refused.status, error: refused.body.error }).toEqual({
        status: 401,
        error: "invalid_signature",
      });
      // The failed attempt burned the challenge; a correct signature now needs a new challenge.
      const late = await post("/api/evm/evmchain/api-keys", {
        wallet: account.address,
        signature: await account.signMessage({ message: c2.body.message }),
      });
      expect(late.body.error).toBe("challenge_not_found");
      expect((await store.db.select({ n: count() }).from(apiKeys))[0]!.n).toBe(keysBefore);

      // A challenge belongs to the session that asked for it.
      const c3 = await post("/api/evm/evmchain/api-keys/challenge", { wallet: account.address });
      const t = await session();
      const elsewhere = await sessionPost("/api/evm/evmchain/api-keys", {
        cookie: t.cookie,
        header: t.token,
        bodyToken: t.token,
        body: { wallet: account.address, signature: await account.signMessage({ message: c3.body.message }) },
      });
      expect(elsewhere.body.error).toBe("challenge_not_found");
    });

    it("signs a session in with an EIP-4361 signature: the cookie rotates, the session acts only for that wallet", async () => {
      const s = await session();
      const before = s.cookie;
      const post = trackedPost(s);
      const account = devAccount(4);
      const anonymous = await call("/api/evm/evmchain/session", { headers: { Cookie: s.cookie } });
      expect(anonymous.body).toMatchObject({ wallet: null, signed_in_at_sec: null });

      const challenge = await post("/api/evm/evmchain/sign-in/challenge", { wallet: account.address });
      expect(challenge.status).toBe(200);
      expect(challenge.body).toMatchObject({ purpose: "sign_in" });
      expect(challenge.body.message).toMatch(/^localhost:42069 wants you to sign in with your Ethereum account:\n0x/);
      expect(challenge.body.message).toContain(
        `URI: http://localhost:42069\nVersion: 1\nChain ID: ${deployment.chainId}\nNonce: ${challenge.body.nonce}`,
      );
      expect(challenge.body.message).toMatch(/\nExpiration Time: \d{4}-/);
      const keysBefore = (await store.db.select({ n: count() }).from(apiKeys))[0]!.n;
      const signedIn = await post("/api/evm/evmchain/sign-in", {
        wallet: account.address,
        signature: await account.signMessage({ message: challenge.body.message }),
      });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toMatchObject({ ok: true, wallet: account.address });
      expect(signedIn.body).not.toHaveProperty("api_key");
      expect((await store.db.select({ n: count() }).from(apiKeys))[0]!.n).toBe(keysBefore);
      // Session fixation: the cookie known before the sign-in no longer works; the new one does,
      // with the same CSRF token.
      expect(s.cookie).not.toBe(before);
      const stale = await sessionPost("/api/evm/evmchain/sign-out", {
        cookie: before,
        header: s.token,
        bodyToken: s.token,
        body: {},
      });
      expect({ status: stale.status, error: stale.body.error }).toEqual({ status: 403, error: "csrf_failed" });
      const now = await call("/api/evm/evmchain/session", { headers: { Cookie: s.cookie } });
      expect(now.body).toMatchObject({ wallet: account.address });

      // Acting for another wallet is refused before anything is built or stored.
      const launchesBefore = (await store.db.select({ n: count() }).from(launches))[0]!.n;
      const foreign = await post("/api/evm/evmchain/build-direct-v3-launch", {
        creator: devAccount(5).address,
        name: "Not Mine",
        symbol: "NOPE",
      });
      expect({ status: foreign.status, error: foreign.body.error }).toEqual({ status: 403, error: "wallet_mismatch" });
      const claim = await post("/api/evm/evmchain/build-creator-rewards-claim", { wallet: devAccount(5).address });
      expect({ status: claim.status, error: claim.body.error }).toEqual({ status: 403, error: "wallet_mismatch" });
      expect((await store.db.select({ n: count() }).from(launches))[0]!.n).toBe(launchesBefore);

      // Sign-out forgets the wallet: the session surface acts for nobody.
      const out = await post("/api/evm/evmchain/sign-out", {});
      expect(out.body).toMatchObject({ ok: true, wallet: null });
      const after = await post("/api/evm/evmchain/build-direct-v3-launch", {
        creator: account.address,
        name: "Signed Out",
        symbol: "OUT",
      });
      expect({ status: after.status, error: after.body.error }).toEqual({ status: 403, error: "sign_in_required" });
      expect((await store.db.select({ n: count() }).from(launches))[0]!.n).toBe(launchesBefore);
    });

    it("one signature signs in and creates the API key; an expired or foreign challenge signs nothing in", async () => {
      const s = await session();
      const post = trackedPost(s);
      const account = devAccount(6);
      const challenge = await post("/api/evm/evmchain/sign-in/challenge", {
        wallet: account.address,
        create_api_key: true,
      });
      expect(challenge.body.purpose).toBe("sign_in_and_create_key");
      expect(challenge.body.message).toContain("create an API key");
      const signedIn = await post("/api/evm/evmchain/sign-in", {
        wallet: account.address,
        signature: await account.signMessage({ message: challenge.body.message }),
        label: "laptop",
      });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toMatchObject({ wallet: account.address, key: { wallet: account.address } });
      expect(signedIn.body.api_key).toMatch(/^sk_live_/);
      expect((await call("/api/v1/evmchain/tokens/0x123", { key: signedIn.body.api_key })).status).toBe(400); // authenticated

      // A plain sign-in challenge cannot create a key through the key route.
      const plain = await post("/api/evm/evmchain/sign-in/challenge", { wallet: account.address });
      const viaKeyRoute = await post("/api/evm/evmchain/api-keys", {
        wallet: account.address,
        signature: await account.signMessage({ message: plain.body.message }),
      });
      expect(viaKeyRoute.body.error).toBe("challenge_not_found");

      // An expired challenge is refused.
      const t = await session();
      const tPost = trackedPost(t);
      const late = await tPost("/api/evm/evmchain/sign-in/challenge", { wallet: account.address });
      await store.db
        .update(keyChallenges)
        .set({ expiresAtMs: Date.now() - 1 })
        .where(eq(keyChallenges.nonce, late.body.nonce));
      const expired = await tPost("/api/evm/evmchain/sign-in", {
        wallet: account.address,
        signature: await account.signMessage({ message: late.body.message }),
      });
      expect({ status: expired.status, error: expired.body.error }).toEqual({
        status: 400,
        error: "challenge_not_found",
      });
      // A wrong signer burns the challenge and signs nothing in.
      const fresh = await tPost("/api/evm/evmchain/sign-in/challenge", { wallet: account.address });
      const wrong = await tPost("/api/evm/evmchain/sign-in", {
        wallet: account.address,
        signature: await devAccount(7).signMessage({ message: fresh.body.message }),
      });
      expect({ status: wrong.status, error: wrong.body.error }).toEqual({ status: 401, error: "invalid_signature" });
      expect((await call("/api/evm/evmchain/session", { headers: { Cookie: t.cookie } })).body.wallet).toBeNull();
    });
  });

  describe('abuse limits: per-wallet quotas and keys, per-session bounds (docs/trust.md "Limits")', () => {
    type App = TestApp;
    const fresh = () => privateKeyToAccount(generatePrivateKey());
    async function newSession(target: App, headers: Record<string, string> = {}) {
      const res = await target.request(`${BASE}/api/evm/evmchain/session`, { headers });
      const setCookie = res.headers.get("set-cookie") ?? "";
      return { cookie: setCookie.split(";")[0]!, token: ((await res.json()) as { csrf_token: string }).csrf_token };
    }
    function post(target: App, s: { cookie: string; token: string }, path: string, body: Record<string, unknown>) {
      return call(`/api/evm/evmchain/${path}`, {
        target,
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Origin: new URL(BASE).origin,
          Cookie: s.cookie,
          "X-CSRF-Token": s.token,
        },
        body: JSON.stringify({ ...body, csrf_token: s.token }),
      });
    }
    const activeKeysOf = async (wallet: string) =>
      (
        await store.db
          .select({ n: count() })
          .from(apiKeys)
          .where(and(eq(apiKeys.wallet, wallet), isNull(apiKeys.revokedAtMs)))
      )[0]!.n;

    it("counts the daily coin quota per wallet over all its keys; another wallet is not affected", async () => {
      const limited = makeApp({ limits: { coinsCreatedPerDay: 2 } });
      const wallet = fresh().address;
      const [k1, k2, k3] = [await newKey(wallet), await newKey(wallet), await newKey(wallet)];
      expect((await postIntent(k1, "pw-1", intentBody({ name: "Per Wallet 1" }), limited)).status).toBe(201);
      expect((await postIntent(k2, "pw-2", intentBody({ name: "Per Wallet 2" }), limited)).status).toBe(201);
      const before = await launchCount();
      // A third key of the same wallet buys no more coins.
      const third = await postIntent(k3, "pw-3", intentBody({ name: "Per Wallet 3" }), limited);
      expect({ status: third.status, error: third.body.error }).toEqual({ status: 429, error: "quota_exceeded" });
      expect(third.body.message).toMatch(/per wallet/);
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await launchCount()).toBe(before);
      expect((await postIntent(await newKey(), "pw-4", intentBody({ name: "Per Wallet 4" }), limited)).status).toBe(
        201,
      );
      // Concurrent intents from several keys of one wallet never overshoot the wallet's quota.
      const racer = fresh().address;
      const keys = [await newKey(racer), await newKey(racer), await newKey(racer)];
      const raced = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          postIntent(keys[i % 3]!, `pw-race-${kind}-${i}`, intentBody({ name: `Race ${i}` }), limited),
        ),
      );
      expect(raced.map((r) => r.status).sort()).toEqual([201, 201, 429, 429, 429, 429]);
    });

    it("caps a wallet's active keys in createApiKey (the CLI's path): 12 concurrent creations make exactly the cap", async () => {
      const wallet = fresh().address;
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, () => createApiKey(store, { wallet, createdVia: "cli", maxActiveKeys: 4 })),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(4);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(refused).toHaveLength(8);
      for (const r of refused) expect(r.reason).toBeInstanceOf(ActiveKeyLimitError);
      expect(await activeKeysOf(wallet)).toBe(4);
      // Revoking one frees a slot; the default cap is 10.
      const [oldest] = await listApiKeys(store, wallet);
      await revokeApiKey(store, oldest!.id);
      await createApiKey(store, { wallet, createdVia: "cli", maxActiveKeys: 4 });
      await expect(createApiKey(store, { wallet, createdVia: "cli", maxActiveKeys: 4 })).rejects.toBeInstanceOf(
        ActiveKeyLimitError,
      );
      expect(await activeKeysOf(wallet)).toBe(4);
      const other = fresh().address;
      for (let i = 0; i < 10; i++) await createApiKey(store, { wallet: other, createdVia: "cli" });
      await expect(createApiKey(store, { wallet: other, createdVia: "cli" })).rejects.toMatchObject({
        name: "ActiveKeyLimitError",
        limit: 10,
      });
    });

    it.runIf(kind === "pglite")(
      "caps a wallet's active keys in the keys CLI (npm run keys -- create): exit 1 with the reason at the cap, nothing created",
      async () => {
        const cliDir = mkdtempSync(join(tmpdir(), "keys-cli-"));
        try {
          const wallet = fresh().address;
          const keysCli = (...args: string[]) =>
            runToExit(process.execPath, [join("node_modules", "tsx", "dist", "cli.mjs"), "scripts/keys.ts", ...args], {
              env: {
                ...process.env,
                DATABASE_URL: "",
                STORE_PGLITE_DIR: cliDir,
                STORE_SCHEMA: "launch_store",
                API_KEYS_PER_WALLET: "2",
              },
              timeout: scaledMs(60_000),
            });
          const runs = [];
          for (let i = 0; i < 3; i++) runs.push(await keysCli("create", "--wallet", wallet));
          expect(
            runs.map((r) => r.status),
            runs.map((r) => r.stderr).join("\n"),
          ).toEqual([0, 0, 1]);
          expect(runs[2]!.stderr).toContain(`already has 2 active API keys`);
          expect(runs[2]!.stdout).not.toContain("sk_live_");
          const listed = await keysCli("list", "--wallet", wallet, "--json");
          expect(JSON.parse(listed.stdout)).toHaveLength(2);
        } finally {
          rmSync(cliDir, { recursive: true, force: true });
        }
      },
    );

    it("caps a wallet's active keys on the browser path: concurrent signed creations from 5 sessions make exactly the cap, then 409 key_limit_reached", async () => {
      const capped = makeApp({ limits: { activeKeysPerWallet: 2 } });
      const account = fresh();
      const signed = [];
      for (let i = 0; i < 5; i++) {
        const s = await newSession(capped);
        const challenge = await post(capped, s, "api-keys/challenge", { wallet: account.address });
        expect(challenge.status).toBe(200);
        signed.push({ s, signature: await account.signMessage({ message: challenge.body.message }) });
      }
      const created = await Promise.all(
        signed.map(({ s, signature }) => post(capped, s, "api-keys", { wallet: account.address, signature })),
      );
      const statuses = created.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 201, 409, 409, 409]);
      for (const r of created.filter((x) => x.status === 409))
        expect(r.body).toMatchObject({ ok: false, error: "key_limit_reached" });
      expect(await activeKeysOf(account.address)).toBe(2);
      // At the cap a wallet gets no challenge to sign.
      const s = await newSession(capped);
      const refused = await post(capped, s, "api-keys/challenge", { wallet: account.address });
      expect({ status: refused.status, error: refused.body.error }).toEqual({
        status: 409,
        error: "key_limit_reached",
      });
    });

    it("bounds open key challenges per session (race-free): 429 session_limit_reached with Retry-After, nothing stored", async () => {
      const bounded = makeApp({ limits: { openChallengesPerSession: 2 } });
      const s = await newSession(bounded);
      const wallet = fresh().address;
      const results = await Promise.all(
        Array.from({ length: 6 }, () => post(bounded, s, "api-keys/challenge", { wallet })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
      const over = results.find((r) => r.status === 429)!;
      expect(over.body).toMatchObject({ ok: false, error: "session_limit_reached" });
      const retryAfter = Number(over.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(300);
      expect(
        (await store.db.select({ n: count() }).from(keyChallenges).where(eq(keyChallenges.wallet, wallet)))[0]!.n,
      ).toBe(2);
      // Another session has its own bound.
      expect((await post(bounded, await newSession(bounded), "api-keys/challenge", { wallet })).status).toBe(200);
    });

    it("counts every address of one IPv6 /64 as one client: requests and new sessions, direct and forwarded; another /64 is served", async () => {
      const net = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1`;
      const other = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:2`;
      const at = (i: number) => `${net}::${(i + 1).toString(16)}`;
      // Public requests, direct peers: 3 per minute for the whole /64.
      const direct = makeApp({ limits: { publicRequestsPerMinute: 3 } });
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++)
        statuses.push((await call("/api/public", { target: direct, socket: at(i) })).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      expect(statuses.filter((s) => s === 429)).toHaveLength(97);
      expect((await call("/api/public", { target: direct, socket: `${other}::1` })).status).toBe(200);
      // New sessions per hour, forwarded by a trusted proxy: 2 for the whole /64.
      const proxied = makeApp({ trustProxy: true, limits: { sessionsPerIpPerHour: 2 } });
      const sessions: number[] = [];
      for (let i = 0; i < 100; i++)
        sessions.push(
          (
            await call("/api/evm/evmchain/session", {
              target: proxied,
              socket: "127.0.0.1",
              headers: { "X-Forwarded-For": at(i) },
            })
          ).status,
        );
      expect(sessions.filter((s) => s === 200)).toHaveLength(2);
      expect(
        (
          await call("/api/evm/evmchain/session", {
            target: proxied,
            socket: "127.0.0.1",
            headers: { "X-Forwarded-For": `${other}::9` },
          })
        ).status,
      ).toBe(200);
    });

    it("bounds new sessions per client IP per hour", async () => {
      const proxied = makeApp({ trustProxy: true, limits: { sessionsPerIpPerHour: 2 } });
      // The client as the one trusted proxy (the socket's peer) reports it.
      const ip = `198.51.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const statuses: number[] = [];
      let first = "";
      for (let i = 0; i < 3; i++) {
        const res = await proxied.request(
          `${BASE}/api/evm/evmchain/session`,
          { headers: { "X-Forwarded-For": ip } },
          { incoming: { socket: { remoteAddress: "127.0.0.1" } } },
        );
        statuses.push(res.status);
        if (i === 0) first = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
        if (res.status === 429) {
          expect(await res.json()).toMatchObject({ ok: false, error: "session_limit_reached" });
          expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
          expect(res.headers.get("set-cookie")).toBeNull();
        }
      }
      expect(statuses).toEqual([200, 200, 429]);
      // A client with a live session keeps using it.
      expect(
        (
          await proxied.request(`${BASE}/api/evm/evmchain/session`, {
            headers: { "X-Forwarded-For": ip, Cookie: first },
          })
        ).status,
      ).toBe(200);
    });

    it("bounds open session builds per session (race-free) before any RPC work", async () => {
      const bounded = makeApp({ limits: { openBuildsPerSession: 2 } });
      // Signed in as the creator (EIP-4361): the session surface builds only for that wallet.
      const signed = await signedInSession(
        async (path, init) => bounded.request(`${BASE}${path}`, init),
        new URL(BASE).origin,
        devAccount(1),
      );
      const s = { cookie: signed.cookie, token: signed.csrf };
      const body = (i: number) => ({ creator: CREATOR, name: `Bound ${i}`, symbol: `BND${i}`, first_buy_wei: "0" });
      const results = await Promise.all([1, 2, 3, 4].map((i) => post(bounded, s, "build-direct-v3-launch", body(i))));
      expect(results.map((r) => r.status).sort(), JSON.stringify(results.map((r) => r.body))).toEqual([
        200, 200, 429, 429,
      ]);
      const over = results.find((r) => r.status === 429)!;
      expect(over.body).toMatchObject({ ok: false, error: "session_limit_reached" });
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(86_000);
      const stored = await store.db
        .select({ id: launches.id })
        .from(launches)
        .where(
          and(eq(launches.surface, "session"), inArray(launches.name, ["Bound 1", "Bound 2", "Bound 3", "Bound 4"])),
        );
      expect(stored).toHaveLength(2);
    });

    it("housekeeping deletes expired sessions and challenges and stale session builds, never a confirmed launch", async () => {
      const nowMs = Date.now();
      const sessionId = `hk-${kind}-${nowMs}`;
      const base = {
        chainId: 4663,
        factory: deployment.contracts.launchFactory,
        creator: CREATOR,
        name: "Old",
        symbol: "OLD",
        firstBuyWei: "0",
        slippageBps: 300,
        metadataSha256: "0".repeat(64),
      };
      const old = nowMs - 25 * 3_600_000;
      await store.db.insert(launches).values([
        {
          ...base,
          id: `lnch_hk_built_${kind}`,
          surface: "session",
          sessionId,
          state: "built",
          createdAtMs: old,
          updatedAtMs: old,
        },
        {
          ...base,
          id: `lnch_hk_fresh_${kind}`,
          surface: "session",
          sessionId,
          state: "built",
          createdAtMs: nowMs,
          updatedAtMs: nowMs,
        },
        {
          ...base,
          id: `lnch_hk_conf_${kind}`,
          surface: "session",
          sessionId,
          state: "confirmed",
          createdAtMs: old,
          updatedAtMs: old,
        },
        {
          ...base,
          id: `lnch_hk_v1_${kind}`,
          surface: "v1",
          apiKeyId: "key_x",
          state: "built",
          createdAtMs: old,
          updatedAtMs: old,
        },
      ]);
      await store.db.insert(keyChallenges).values({
        nonce: `hk-${kind}-${nowMs}`,
        sessionId,
        wallet: CREATOR,
        message: "m",
        issuedAtMs: old,
        expiresAtMs: old + 300_000,
      });
      await store.db.insert(sessions).values([
        { id: `${sessionId}-expired`, csrfSecret: "s", createdAtMs: old, expiresAtMs: old + 86_400_000 },
        { id: `${sessionId}-live`, csrfSecret: "s", createdAtMs: nowMs, expiresAtMs: nowMs + 86_400_000 },
      ]);
      await pruneExpired(store, nowMs);
      expect(
        (
          await store.db
            .select({ id: sessions.id })
            .from(sessions)
            .where(inArray(sessions.id, [`${sessionId}-expired`, `${sessionId}-live`]))
        ).map((r) => r.id),
      ).toEqual([`${sessionId}-live`]);
      const left = (
        await store.db
          .select({ id: launches.id })
          .from(launches)
          .where(
            inArray(launches.id, [
              `lnch_hk_built_${kind}`,
              `lnch_hk_fresh_${kind}`,
              `lnch_hk_conf_${kind}`,
              `lnch_hk_v1_${kind}`,
            ]),
          )
      )
        .map((r) => r.id)
        .sort();
      expect(left).toEqual([`lnch_hk_conf_${kind}`, `lnch_hk_fresh_${kind}`, `lnch_hk_v1_${kind}`]);
      expect(
        await store.db
          .select()
          .from(keyChallenges)
          .where(eq(keyChallenges.nonce, `hk-${kind}-${nowMs}`)),
      ).toHaveLength(0);
    });
  });

  describe("idempotent launch intent", () => {
    it("requires a valid Idempotency-Key", async () => {
      const key = await newKey();
      const missing = await postIntent(key, undefined, intentBody());
      expect({ status: missing.status, error: missing.body.error }).toEqual({
        status: 400,
        error: "idempotency_key_missing",
      });
      for (const bad of ["x".repeat(256), "has space", "tab\tkey", '""']) {
        const res = await postIntent(key, bad, intentBody());
        expect({ bad, status: res.status, error: res.body.error }).toEqual({
          bad,
          status: 400,
          error: "idempotency_key_invalid",
        });
      }
    });

    it("creates one intent and replays the stored response byte for byte", async () => {
      const key = await newKey();
      const before = await launchCount();
      const first = await postIntent(
        key,
        "replay-1",
        intentBody({ description: "hello", website_url: "https://example.com" }),
      );
      expect(first.status).toBe(201);
      expect(first.body.launch_id).toMatch(/^lnch_[0-9a-f]{24}$/);
      expect(first.body.state).toBe("intent_created");
      const message: string = first.body.intent.message;
      expect(message).toContain(CREATOR);
      expect(message).toContain("Chain ID: 4663");
      expect(message).toContain(`Factory: ${deployment.contracts.launchFactory}`);
      expect(message).toContain(`Launch ID: ${first.body.launch_id}`);
      expect(message).toContain("Token Name: Test Coin");
      expect(message).toContain("First Buy (wei): 1000000000000000");
      expect(message).toContain("Slippage (bps): 300");
      expect(message).toContain(`Metadata SHA-256: ${first.body.intent.metadata_sha256}`);
      expect(first.body.intent.expires_at_sec - first.body.intent.issued_at_sec).toBe(900);

      // Same key, same body in another key order and spacing: the same bytes, no second intent.
      const again = await postIntent(
        key,
        "replay-1",
        `{ "website_url": "https://example.com", "first_buy_wei": "1000000000000000",
        "symbol": "TEST", "name": "Test Coin", "creator": "${CREATOR}", "description": "hello" }`,
      );
      expect(again.status).toBe(201);
      expect(again.text).toBe(first.text);
      expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(await launchCount()).toBe(before + 1);
      const row = (await store.db.select().from(launches).where(eq(launches.id, first.body.launch_id)))[0]!;
      expect(row).toMatchObject({
        state: "intent_created",
        creator: CREATOR,
        intentMessage: message,
        factory: deployment.contracts.launchFactory,
      });

      // Same key, different body: 422, nothing created.
      const mismatch = await postIntent(key, "replay-1", intentBody({ name: "Other" }));
      expect({ status: mismatch.status, error: mismatch.body.error }).toEqual({
        status: 422,
        error: "idempotency_key_mismatch",
      });
      // The key is scoped per API key: another key may use the same value.
      const otherKey = await postIntent(await newKey(), "replay-1", intentBody());
      expect(otherKey.status).toBe(201);
      expect(otherKey.body.launch_id).not.toBe(first.body.launch_id);
      expect(await launchCount()).toBe(before + 2);
    });

    it("answers 409 while the same key is in flight, and takes over a reservation whose request died", async () => {
      const secret = await newKey();
      const keyId = (
        await store.db
          .select()
          .from(apiKeys)
          .where(eq(apiKeys.keyHash, hashApiKey(secret)))
      )[0]!.id;
      const body = intentBody();
      const { requestFingerprint } = await import("../../http/middleware/idempotency");
      const fingerprint = requestFingerprint("POST", "/api/v1/evmchain/launches/intent", JSON.stringify(body));
      // Another process holds the key right now.
      expect((await reserveIdempotencyKey(store, { scope: keyId, key: "busy-1", fingerprint })).kind).toBe("reserved");
      const busy = await postIntent(secret, "busy-1", body);
      expect({ status: busy.status, error: busy.body.error }).toEqual({
        status: 409,
        error: "idempotency_in_progress",
      });
      expect(busy.headers.get("retry-after")).toBe("1");
      // A reservation made 2 minutes ago whose request never finished is taken over.
      expect(
        (await reserveIdempotencyKey(store, { scope: keyId, key: "stale-1", fingerprint, nowMs: Date.now() - 120_000 }))
          .kind,
      ).toBe("reserved");
      const takeover = await postIntent(secret, "stale-1", body);
      expect(takeover.status).toBe(201);
    });

    it("fences a reservation that was taken over: its holder can neither complete nor release it, and the takeover's answer is replayed", async () => {
      const secret = await newKey();
      const keyId = (
        await store.db
          .select()
          .from(apiKeys)
          .where(eq(apiKeys.keyHash, hashApiKey(secret)))
      )[0]!.id;
      const body = intentBody({ name: "Fenced" });
      const { requestFingerprint } = await import("../../http/middleware/idempotency");
      const { completeIdempotencyKey, releaseIdempotencyKey } = await import("../../store/idempotency");
      const fingerprint = requestFingerprint("POST", "/api/v1/evmchain/launches/intent", JSON.stringify(body));
      // A request that reserved 2 minutes ago and is still running (not dead, just slow).
      const slow = await reserveIdempotencyKey(store, {
        scope: keyId,
        key: "fenced-1",
        fingerprint,
        nowMs: Date.now() - 120_000,
      });
      if (slow.kind !== "reserved") throw new Error(`expected a reservation, got ${slow.kind}`);
      const before = await launchCount();
      const takeover = await postIntent(secret, "fenced-1", body);
      expect(takeover.status).toBe(201);
      // The slow request finishes late: its completion and its release change nothing.
      const late = { scope: keyId, key: "fenced-1", lockedUntilMs: slow.lockedUntilMs };
      expect(
        await completeIdempotencyKey(store, {
          ...late,
          status: 201,
          contentType: "application/json",
          body: new TextEncoder().encode("{}"),
        }),
      ).toBe(false);
      await releaseIdempotencyKey(store, late);
      const replay = await postIntent(secret, "fenced-1", body);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.text).toBe(takeover.text);
      expect(await launchCount()).toBe(before + 1);
    });

    it("creates exactly one intent from 50 concurrent requests with the same key", async () => {
      const key = await newKey();
      const before = await launchCount();
      const results = await Promise.all(
        Array.from({ length: 50 }, () => postIntent(key, "concurrent-1", intentBody({ name: "Fifty" }))),
      );
      const created = results.filter((r) => r.status === 201);
      const busy = results.filter((r) => r.status === 409);
      expect(created.length + busy.length).toBe(50);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((r) => r.text)).size).toBe(1);
      for (const r of busy) expect(r.body.error).toBe("idempotency_in_progress");
      expect(await launchCount()).toBe(before + 1);
      // After completion every retry is a replay of the same bytes.
      const later = await postIntent(key, "concurrent-1", intentBody({ name: "Fifty" }));
      expect(later.text).toBe(created[0]!.text);
      expect(await launchCount()).toBe(before + 1);
    });

    it("refuses forbidden fields with 400 forbidden_field and stores nothing", async () => {
      const key = await newKey();
      const before = await launchCount();
      const privateKey = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
      const cases: Array<[string, Record<string, unknown>]> = [
        ["factory", { factory: deployment.contracts.launchFactory }],
        ["factory_address", { factory_address: deployment.contracts.launchFactory }],
        ["router", { router: deployment.contracts.swapRouter }],
        ["swapRouter", { swapRouter: deployment.contracts.swapRouter }],
        ["pool", { pool: deployment.contracts.weth }],
        ["fee_locker", { fee_locker: deployment.contracts.feeLocker }],
        ["to", { to: deployment.contracts.launchFactory }],
        ["data", { data: "0xdeadbeef" }],
        ["calldata", { calldata: "0xdeadbeef" }],
        ["private key field", { private_key: privateKey }],
        ["private key in description", { description: `my key ${privateKey.slice(2)}` }],
        ["seed phrase", { description: "test test test test test test test test test test test junk" }],
        ["24-word seed phrase", { description: Array(24).fill("abandon").join(" ") }],
        ["mnemonic field", { mnemonic: "anything" }],
        ["nested", { metadata: { factory: deployment.contracts.launchFactory } }],
      ];
      for (const [name, extra] of cases) {
        const res = await postIntent(key, `forbidden-${name.replaceAll(" ", "-")}`, intentBody(extra));
        expect({ name, status: res.status, error: res.body.error }).toEqual({
          name,
          status: 400,
          error: "forbidden_field",
        });
        expect(res.text).not.toContain(privateKey.slice(2));
      }
      expect(await launchCount()).toBe(before);
      const kept = await store.db
        .select()
        .from(idempotencyRecords)
        .where(sql`${idempotencyRecords.idempotencyKey} like 'forbidden-%'`);
      expect(kept).toEqual([]);
    });

    it("validates bounds with field-level messages", async () => {
      const key = await newKey();
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ creator: "0x123" }, "invalid_address", "creator"],
        [{ name: "" }, "invalid_request", "name"],
        [{ name: "x".repeat(33) }, "invalid_request", "name"],
        [{ name: "a\nb" }, "invalid_request", "name"],
        [{ symbol: "TOOLONGSYMBOL" }, "invalid_request", "symbol"],
        [{ symbol: "BAD-1" }, "invalid_request", "symbol"],
        [{ description: "d".repeat(1001) }, "invalid_request", "description"],
        [{ first_buy_wei: "100000000000000000001" }, "invalid_request", "first_buy_wei"],
        [{ first_buy_wei: "-1" }, "invalid_request", "first_buy_wei"],
        [{ first_buy_wei: "1e18" }, "invalid_request", "first_buy_wei"],
        [{ slippage_bps: 5001 }, "invalid_request", "slippage_bps"],
        [{ slippage_bps: 1.5 }, "invalid_request", "slippage_bps"],
        [{ website_url: "http://example.com" }, "invalid_request", "website_url"],
        [{ website_url: `https://example.com/${"a".repeat(250)}` }, "invalid_request", "website_url"],
        [{ twitter_url: "https://evil.example/x" }, "invalid_request", "twitter_url"],
        [{ telegram_url: "https://t.me.evil.example/x" }, "invalid_request", "telegram_url"],
        [{ surprise: 1 }, "invalid_request", "surprise"],
        [
          { image_url: "https://elsewhere.example/media/0123456789abcdef0123456789abcdef.png" },
          "invalid_image_url",
          "image_url",
        ],
        [{ image_url: `${BASE}/media/0123456789abcdef0123456789abcdef.png` }, "invalid_image_url", "image_url"],
      ];
      for (const [extra, error, field] of cases) {
        const res = await postIntent(key, `bounds-${field}-${Math.random()}`, intentBody(extra));
        expect({ extra, status: res.status, error: res.body.error }).toEqual({ extra, status: 400, error });
        expect(res.body.message).toContain(field);
      }
      const notJson = await postIntent(key, "bounds-json", "{not json");
      expect({ status: notJson.status, error: notJson.body.error }).toEqual({ status: 400, error: "invalid_request" });
    });
  });

  describe("media upload", () => {
    function upload(key: string | undefined, file: Uint8Array | string | null, name = "logo.png", type = "image/png") {
      const form = new FormData();
      if (file !== null)
        form.append("image", new File([typeof file === "string" ? file : Buffer.from(file)], name, { type }));
      return call("/api/v1/evmchain/media/upload", { method: "POST", key, body: form });
    }

    it("stores a re-encoded image, serves it immutably, and accepts its URL in an intent", async () => {
      const key = await newKey();
      const png = await fx.png(64, 48);
      const res = await upload(key, png);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ ok: true, content_type: "image/png", width: 64, height: 48 });
      expect(res.body.image_url).toMatch(new RegExp(`^${BASE}/media/[0-9a-f]{32}\\.png$`));
      const served = await app.request(res.body.image_url);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
      expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      const bytes = new Uint8Array(await served.arrayBuffer());
      expect((await sharp(bytes).metadata()).format).toBe("png");
      expect(bytes.byteLength).toBe(res.body.byte_length);
      const wrongExt = await call(new URL(res.body.image_url).pathname.replace(".png", ".gif"));
      expect({ status: wrongExt.status, error: wrongExt.body.error }).toEqual({
        status: 404,
        error: "media_not_found",
      });

      const intent = await postIntent(key, "with-image", intentBody({ image_url: res.body.image_url }));
      expect(intent.status).toBe(201);
      expect(intent.body.intent.metadata.image_url).toBe(res.body.image_url);
    });

    it("bounds the bytes a wallet's keys store per day: over it 429 media_quota_exceeded; another wallet is served", async () => {
      const small = makeApp({ limits: { mediaBytesPerWalletPerDay: 20_000 } });
      const wallet = privateKeyToAccount(generatePrivateKey()).address;
      const [one, two] = [await newKey(wallet), await newKey(wallet)];
      const send = (key: string, png: Uint8Array) => {
        const form = new FormData();
        form.set("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "logo.png");
        return call("/api/v1/evmchain/media/upload", { method: "POST", key, body: form, target: small });
      };
      const first = await send(one, await fx.png(32, 32));
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(first.body.byte_length).toBeLessThan(20_000);
      // The wallet's second key shares the bound; keep uploading distinct images until it is hit.
      let refused: Awaited<ReturnType<typeof send>> | undefined;
      for (let side = 33; side < 200 && !refused; side++) {
        const res = await send(two, await fx.png(side, side));
        if (res.status === 429) refused = res;
        else expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
      expect(refused?.body).toMatchObject({ ok: false, error: "media_quota_exceeded" });
      expect(refused?.headers.get("retry-after")).toBe("3600");
      const other = await send(await newKey(), await fx.png(40, 40));
      expect(other.status).toBe(201);
    });

    it("refuses an upload without a key", async () => {
      const res = await upload(undefined, await fx.png(8, 8));
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 401, error: "missing_api_key" });
    });

    it("refuses every bad image with 400 and the image error code, storing nothing", async () => {
      const key = await newKey();
      const png = await fx.png(32, 32);
      const before = await mediaCount();
      const cases: Array<[string, Uint8Array | string | null, string, string?]> = [
        ["no file field", null, "image_missing"],
        ["empty file", new Uint8Array(), "image_missing"],
        ["text named .png", "hello, I am text", "image_type_unsupported"],
        [
          "SVG",
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
          "image_type_unsupported",
          "image/svg+xml",
        ],
        ["BMP", fx.bmp(), "image_type_unsupported"],
        ["truncated PNG", png.subarray(0, Math.floor(png.length / 2)), "image_corrupt"],
        ["PNG + ZIP polyglot", Buffer.concat([png, fx.zipArchive()]), "image_polyglot"],
        [
          "PNG + HTML polyglot",
          Buffer.concat([png, Buffer.from("<html><script>alert(1)</script></html>")]),
          "image_polyglot",
        ],
        ["decompression bomb (declares 50000x50000)", fx.pngDeclaring(50_000, 50_000), "image_dimensions_exceeded"],
        ["oversize (3 MiB)", Buffer.concat([png, Buffer.alloc(3 * 1024 * 1024)]), "image_too_large"],
      ];
      for (const [name, file, error, type] of cases) {
        const res = await upload(key, file, "logo.png", type);
        expect({ name, status: res.status, error: res.body.error }).toEqual({ name, status: 400, error });
      }
      // Raw bytes are not multipart, so the app's body parser reads them as JSON and refuses them.
      const notMultipart = await call("/api/v1/evmchain/media/upload", {
        method: "POST",
        key,
        headers: { "Content-Type": "image/png" },
        body: Buffer.from(png),
      });
      expect({ status: notMultipart.status, error: notMultipart.body.error }).toEqual({
        status: 400,
        error: "invalid_request",
      });
      const jsonInstead = await call("/api/v1/evmchain/media/upload", {
        method: "POST",
        key,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ image: "iVBORw0KGgo=" }),
      });
      expect({ status: jsonInstead.status, error: jsonInstead.body.error }).toEqual({
        status: 400,
        error: "image_missing",
      });
      expect(await mediaCount()).toBe(before);
    });
  });

  describe("descriptors and health", () => {
    it("serves the v1 descriptor without a key", async () => {
      const res = await call("/api/v1");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        ok: true,
        version: "v1",
        status: "ok",
        base_url: `${BASE}/api/v1`,
        authentication: { type: "bearer", key_prefix: "sk_live_" },
        limits: { default_requests_per_minute: 60, default_coins_per_day: 500, default_finalized_coins_per_day: 500 },
      });
      for (const field of ["name", "docs", "endpoints", "notes", "request_id"]) expect(res.body).toHaveProperty(field);
      expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
      expect(res.body.endpoints.launch_intent).toBe("POST /api/v1/evmchain/launches/intent");
      // Per-wallet limits and who may open an intent are stated (docs/launch.md "Who may open an intent").
      expect(res.body.limits).toMatchObject({ coin_quotas_per: "wallet", active_keys_per_wallet: 10 });
      expect(res.body.notes).toContain(INTENT_CREATOR_RULE);
      const openapi = (await call("/api/openapi.json")).body;
      expect(openapi.paths["/api/v1/evmchain/launches/intent"].post.description).toBe(INTENT_CREATOR_RULE);
      expect(openapi.paths["/api/v1/coins/create-draft"].post.description).toBe(INTENT_CREATOR_RULE);
      expect(Object.values(res.body.endpoints).every((v) => /^(GET|POST) \/api\/v1/.test(v as string))).toBe(true);
    });

    it("serves the public descriptor", async () => {
      const res = await call("/api/public");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: true, version: "public-v1", base_url: `${BASE}/api/public` });
      for (const field of ["name", "docs", "well_known", "authentication", "endpoints", "feeds"])
        expect(res.body).toHaveProperty(field);
      expect(res.body.feeds).toEqual([
        `${BASE}/feed/new-launches.xml`,
        `${BASE}/feed/big-buys.xml`,
        `${BASE}/feed/graduations.xml`,
      ]);
      expect(res.headers.get("ratelimit-policy")).toBe("600;w=60");
    });

    it("never publishes or logs the private RPC URL (status, descriptors, OpenAPI, pages, errors, health)", async () => {
      // A production-style RPC URL with secrets in its path and query, unreachable so every RPC
      // failure path runs; no PUBLIC_RPC_URL is configured in this process.
      expect(process.env.PUBLIC_RPC_URL ?? "").toBe("");
      const secretUrl = "http://127.0.0.1:1/v3/0123456789abcdef?apikey=SECRET-4663";
      const leaky = makeApp({
        deployment: { ...deployment, rpcUrl: secretUrl },
        publicClient: createPublicClient({ transport: http(secretUrl, { retryCount: 0, timeout: 1_000 }) }),
      });
      const logged: string[] = [];
      const spy = vi
        .spyOn(console, "error")
        .mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
      const bodies: string[] = [];
      try {
        const status = await call("/api/evm/evmchain/status", { target: leaky });
        expect(status.status).toBe(200);
        expect(status.body).toMatchObject({
          rpc_urls: [],
          wallet_add_ethereum_chain: null,
          readiness: { rpc: { ok: false } },
        });
        bodies.push(status.text);
        for (const path of [
          "/api/v1",
          "/api/v1/health",
          "/api/public",
          "/api/openapi.json",
          "/api/docs",
          "/launch",
          `/api/evm/evmchain/creator-rewards?wallet=${CREATOR}`,
          "/no/such/route",
        ]) {
          bodies.push((await call(path, { target: leaky })).text);
        }
        // A launch build needs the RPC: it fails with a catalogued error whose message is clean.
        const session = await leaky.request(`${BASE}/api/evm/evmchain/session`);
        const cookie = (session.headers.get("set-cookie") ?? "").split(";")[0]!;
        const token = ((await session.json()) as { csrf_token: string }).csrf_token;
        const build = await call("/api/evm/evmchain/build-direct-v3-launch", {
          target: leaky,
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Origin: new URL(BASE).origin,
            Cookie: cookie,
            "X-CSRF-Token": token,
          },
          body: JSON.stringify({ creator: CREATOR, name: "Leak", symbol: "LEAK", csrf_token: token }),
        });
        expect(build.status).toBeGreaterThanOrEqual(400);
        bodies.push(build.text);
        const intent = await postIntent(await newKey(), "leak-1", intentBody({ name: "Leak" }), leaky);
        bodies.push(intent.text);
      } finally {
        spy.mockRestore();
      }
      for (const text of [...bodies, ...logged]) {
        expect(text).not.toContain("SECRET-4663");
        expect(text).not.toContain("0123456789abcdef");
      }
    });

    it("reports store and RPC state in /api/v1/health (503 when the indexer status is unavailable)", async () => {
      const res = await call("/api/v1/health");
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        ok: false,
        error: "service_unavailable",
        status: "degraded",
        store: { ok: true, kind },
        rpc: { ok: true, chain_id: 4663 },
        indexer: { ok: false },
      });
      expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
    });
  });
});
