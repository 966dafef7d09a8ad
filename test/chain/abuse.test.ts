/**
 * Abuse limits of the unauthenticated and upload endpoints (rows of
 * docs/security.md): the real app (`createApp`, `app.request()`), a real PGlite store in a
 * temporary folder, a real anvil with the stack deployed, behind the counting RPC proxy
 * (`test/helpers/rpcProxy.ts`) so every JSON-RPC request the app makes is counted. No mocks: the decode
 * queue is the real one with small bounds, and a slot is held by a task the test releases.
 */
import { count } from "drizzle-orm";
import sharp from "sharp";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { appFixture, type AppFixtureOverrides, type TestApp } from "../helpers/appFixture";
import { chainProbe } from "../../ops/chainProbe";
import { decodeQueue } from "../../media/decodeQueue";
import { routeTestHandles } from "../helpers/routeTestHandles";
import { devAccount } from "../../devnet/clients";
import { createApiKey } from "../../store/keys";
import { media } from "../../store/schema";
import { diffCounts, startRpcProxy } from "../helpers/rpcProxy";
import { answer } from "../helpers/session";
import { request as httpRequest } from "node:http";
import { serve, type ServerType } from "@hono/node-server";
import { compileProxyTrust } from "../../config/proxyTrust";
import { scaledMs } from "../helpers/deadlines";

const BASE = "http://localhost:42069";
/** anvil on the saved devnet, the app's RPC through a counting proxy, an empty market database and a PGlite store. */
const h = routeTestHandles({ storePrefix: "abuse-store-", rpcProxy: true });
/** The counting proxy between the app and anvil. */
const rpcProxy = () => {
  if (!h.proxy) throw new Error("the RPC proxy starts in beforeAll");
  return h.proxy;
};

function makeApp(overrides: AppFixtureOverrides = {}) {
  return appFixture(h.app(BASE), { trustProxy: true, ...overrides });
}

/**
 * A request as Ponder's node server passes it: the socket's peer (the one trusted proxy, loopback)
 * in `c.env.incoming`, so `X-Forwarded-For` names the client.
 */
async function call(app: TestApp, path: string, init: RequestInit = {}) {
  return answer(await app.request(`${BASE}${path}`, init, { incoming: { socket: { remoteAddress: "127.0.0.1" } } }));
}

/** A client address unique to this call (per-IP limits are per process and per app). */
const clientIp = (() => {
  let n = 0;
  return () => `198.51.100.${++n}`;
})();

/** Waits while the current minute is about to roll over, so a fixed window holds the whole test. */
async function awayFromMinuteEdge(needMs = 10_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs)
    await vi.waitFor(() => expect(60_000 - (Date.now() % 60_000)).toBeGreaterThan(needMs), {
      timeout: left + 1_000,
      interval: 100,
    });
}

describe("unauthenticated pages and health are rate-limited per client IP", () => {
  it("answers page views over PAGES limit with 429 rate_limited, Retry-After and the JSON body, without touching the public API's budget", async () => {
    await awayFromMinuteEdge();
    const app = makeApp({ limits: { pagesRequestsPerMinute: 2, publicRequestsPerMinute: 5 } });
    const ip = clientIp();
    const headers = { "X-Forwarded-For": ip, Accept: "text/html" };
    const pages = [];
    for (let i = 0; i < 2; i++) pages.push(await call(app, "/launch", { headers }));
    expect(pages.map((p) => p.status)).toEqual([200, 200]);
    expect(pages[0]!.headers.get("ratelimit-policy")).toBe("2;w=60");
    // The third page view, whichever page: 429 before any database or RPC work.
    for (const path of ["/launch", "/token/0x0000000000000000000000000000000000000001", "/t/some-slug"]) {
      const limited = await call(app, path, { headers });
      expect({ path, status: limited.status, error: limited.body.error }).toEqual({
        path,
        status: 429,
        error: "rate_limited",
      });
      expect(limited.body).toMatchObject({ ok: false, message: expect.stringContaining("Retry-After") });
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(limited.headers.get("content-type")).toContain("application/json");
    }
    // The public API keeps its own budget for the same client, and other clients are unaffected.
    expect((await call(app, "/api/public", { headers })).status).toBe(200);
    expect((await call(app, "/launch", { headers: { "X-Forwarded-For": clientIp() } })).status).toBe(200);
  });

  it("answers /api/v1/health over HEALTH limit with 429 and Retry-After", async () => {
    await awayFromMinuteEdge();
    const app = makeApp({ limits: { healthRequestsPerMinute: 2 } });
    const headers = { "X-Forwarded-For": clientIp() };
    const statuses = [];
    // 503: this app has no indexer status URL (health is "degraded"), which is fine here.
    for (let i = 0; i < 3; i++) statuses.push(await call(app, "/api/v1/health", { headers }));
    expect(statuses.map((s) => s.status)).toEqual([503, 503, 429]);
    expect(statuses[2]!.body).toMatchObject({ ok: false, error: "rate_limited" });
    expect(Number(statuses[2]!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await call(app, "/api/v1/health", { headers: { "X-Forwarded-For": clientIp() } })).status).toBe(503);
  });
});

describe("every GET route has a per-IP budget (the open ones included)", () => {
  /** A concrete path for a route pattern: parameters get a plausible value, optional ones are dropped. */
  const concrete = (pattern: string) =>
    pattern
      .replace(/\/:[A-Za-z_]+(\{[^}]*\})?\?/g, "")
      .replace(/:address(\{[^}]*\})?/g, "0x0000000000000000000000000000000000000001")
      .replace(/:[A-Za-z_]+(\{[^}]*\})?/g, "x");

  it("answers /api/v1/ready over READY limit with 429 and Retry-After; another client keeps its budget", async () => {
    await awayFromMinuteEdge();
    const app = makeApp({ limits: { readyRequestsPerMinute: 2 } });
    const headers = { "X-Forwarded-For": clientIp() };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await call(app, "/api/v1/ready", { headers }));
    // 503: nothing is indexed in this app's empty database (degraded), which is fine here.
    expect(statuses.map((s) => s.status)).toEqual([503, 503, 429]);
    expect(statuses[2]!.body).toMatchObject({ ok: false, error: "rate_limited" });
    expect(Number(statuses[2]!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(statuses[0]!.headers.get("ratelimit-policy")).toBe("2;w=60");
    expect((await call(app, "/api/v1/ready", { headers: { "X-Forwarded-For": clientIp() } })).status).toBe(503);
  });

  it("answers the second request of one client to every GET route in the app's route table with 429 when every budget is 1", async () => {
    await awayFromMinuteEdge(20_000);
    const one = {
      v1RequestsPerMinute: 1,
      publicRequestsPerMinute: 1,
      sessionRequestsPerMinute: 1,
      pagesRequestsPerMinute: 1,
      healthRequestsPerMinute: 1,
      readyRequestsPerMinute: 1,
      openV1RequestsPerMinute: 1,
    };
    const app = makeApp({ limits: one });
    const routes = [...new Set(app.routes.filter((r) => r.method === "GET").map((r) => r.path))]
      // "*" patterns are middleware and the not-found catch-all (no database or RPC work).
      .filter((path) => !path.includes("*"))
      .sort();
    expect(routes).toEqual(expect.arrayContaining(["/api/v1", "/api/v1/health", "/api/v1/ready", "/launch"]));
    expect(routes.length).toBeGreaterThan(30);
    const unlimited: string[] = [];
    for (const route of routes) {
      const headers = { "X-Forwarded-For": clientIp(), Accept: "application/json" };
      const path = concrete(route);
      await call(app, path, { headers });
      const second = await call(app, path, { headers });
      if (second.status !== 429 || !second.headers.get("retry-after")) unlimited.push(`${route} -> ${second.status}`);
    }
    expect(unlimited).toEqual([]);
  });
});

/**
 * The per-IP limits through the real server (`@hono/node-server`, the adapter Ponder serves the app
 * with), not `app.request()`: the client address comes from the TCP socket. Two clients are two
 * loopback addresses (127.0.0.1 and 127.0.0.2, both local on Linux), chosen with `localAddress`.
 */
describe("per-IP limits read the client from the socket (a real server)", () => {
  let server: ServerType;
  let port: number;
  const LIMIT = 3;

  beforeAll(async () => {
    const app = makeApp({ trustProxy: compileProxyTrust("1"), limits: { publicRequestsPerMinute: LIMIT } });
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
        port = info.port;
        resolve();
      });
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** GET /api/public from a given local (client) address; the status. */
  const get = (localAddress: string, headers: Record<string, string> = {}) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port, path: "/api/public", localAddress, headers, agent: false },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.end();
    });

  it("counts two socket addresses as two clients, and a spoofed first X-Forwarded-For entry does not bypass the limit (TRUST_PROXY=1)", async () => {
    await awayFromMinuteEdge();
    // Client A (127.0.0.2) behind the one trusted hop: the proxy appends A's address, the
    // client wrote the first entry itself, a new one on every request.
    const spoofed = [];
    for (let i = 0; i < LIMIT + 4; i++)
      spoofed.push(await get("127.0.0.1", { "X-Forwarded-For": `10.0.0.${i}, 127.0.0.2` }));
    expect(spoofed).toEqual([...Array(LIMIT).fill(200), ...Array(4).fill(429)]);
    // Client B, another socket address without a proxy header, has its own budget ...
    const other = [];
    for (let i = 0; i < LIMIT + 1; i++) other.push(await get("127.0.0.3"));
    expect(other).toEqual([...Array(LIMIT).fill(200), 429]);
    // ... and client A, connecting directly from its own address, is the same bucket as through the proxy.
    expect(await get("127.0.0.2")).toBe(429);
  });
});

describe("the RPC part of health and the session status is one shared probe per second", () => {
  it("makes one eth_chainId and one eth_blockNumber for 20 concurrent health calls and 5 status calls, none more within the second, one more after it", async () => {
    let nowMs = 1_000_000;
    // The probe's own deadline is not under test here: generous, so a loaded machine cannot turn a
    // slow answer into a failed probe.
    const probe = chainProbe({
      client: h.publicClient,
      expectedChainId: h.deployment.chainId,
      nowMs: () => nowMs,
      timeoutMs: 30_000,
    });
    const app = makeApp({
      chainProbe: probe,
      limits: { healthRequestsPerMinute: 1_000, sessionRequestsPerMinute: 1_000 },
    });
    const probes = (counts: Record<string, number>) => ({
      eth_chainId: counts.eth_chainId ?? 0,
      eth_blockNumber: counts.eth_blockNumber ?? 0,
    });
    const headers = { "X-Forwarded-For": clientIp() };

    const before = { ...rpcProxy().counts().pass };
    const burst = await Promise.all([
      ...Array.from({ length: 20 }, () => call(app, "/api/v1/health", { headers })),
      ...Array.from({ length: 5 }, () => call(app, "/api/evm/evmchain/status", { headers })),
    ]);
    for (const res of burst.slice(0, 20))
      expect(res.body.rpc).toMatchObject({ ok: true, chain_id: h.deployment.chainId });
    for (const res of burst.slice(20))
      expect(res.body.readiness.rpc).toMatchObject({ ok: true, chain_id: h.deployment.chainId });
    const afterBurst = { ...rpcProxy().counts().pass };
    expect(probes(diffCounts(before, afterBurst))).toEqual({ eth_chainId: 1, eth_blockNumber: 1 });

    // Within the second: sequential calls are answered from the probe, no RPC request.
    nowMs += 999;
    for (let i = 0; i < 5; i++) await call(app, i % 2 ? "/api/evm/evmchain/status" : "/api/v1/health", { headers });
    const within = { ...rpcProxy().counts().pass };
    expect(probes(diffCounts(afterBurst, within))).toEqual({ eth_chainId: 0, eth_blockNumber: 0 });

    // After it: one new probe, shared again; it sees the newest block.
    nowMs += 2;
    const direct = createPublicClient({ transport: http(h.anvil.rpcUrl) });
    await direct.request({ method: "evm_mine" } as never);
    const head = Number(await direct.getBlockNumber({ cacheTime: 0 }));
    const fresh = await Promise.all(Array.from({ length: 5 }, () => call(app, "/api/v1/health", { headers })));
    expect(probes(diffCounts(within, { ...rpcProxy().counts().pass }))).toEqual({ eth_chainId: 1, eth_blockNumber: 1 });
    for (const res of fresh) expect(res.body.rpc.block_number).toBe(head);
  });

  it("caches a failed probe too: an RPC outage costs one request per second, not one per call", async () => {
    let nowMs = 5_000_000;
    // A node that answers 503 (the connection closes after each answer), and a client without
    // transport retries: one probe is exactly one request per method, counted where it is sent
    // (viem's transport hook) and where it arrives (the proxy).
    const down = await startRpcProxy({ target: h.anvil.rpcUrl, mode: "refuse", refuseWith: 503 });
    const sent: string[] = [];
    const client = createPublicClient({
      transport: http(down.url, {
        retryCount: 0,
        onFetchRequest: (_request, init) =>
          void sent.push((JSON.parse(String(init.body)) as { method: string }).method),
      }),
    });
    const probe = chainProbe({ client, expectedChainId: h.deployment.chainId, nowMs: () => nowMs });
    const app = makeApp({ chainProbe: probe, limits: { healthRequestsPerMinute: 1_000 } });
    const headers = { "X-Forwarded-For": clientIp() };
    const tally = () => ({ sent: [...sent].sort(), arrived: { ...down.counts().refuse } });
    try {
      const answers = await Promise.all(Array.from({ length: 10 }, () => call(app, "/api/v1/health", { headers })));
      for (const res of answers) expect(res.body.rpc).toMatchObject({ ok: false, error: expect.any(String) });
      nowMs += 500;
      await call(app, "/api/v1/health", { headers });
      // One probe for the 11 calls of this second.
      expect(tally()).toEqual({
        sent: ["eth_blockNumber", "eth_chainId"],
        arrived: { eth_chainId: 1, eth_blockNumber: 1 },
      });
      nowMs += 600;
      await call(app, "/api/v1/health", { headers });
      expect(tally()).toEqual({
        sent: ["eth_blockNumber", "eth_blockNumber", "eth_chainId", "eth_chainId"],
        arrived: { eth_chainId: 2, eth_blockNumber: 2 },
      });
    } finally {
      await down.stop();
    }
  });
});

describe("image decodes are bounded: overload is 503 with Retry-After, never the image's fault", () => {
  // Large enough that decodes pin a core, small enough that one decode stays well inside the
  // 10 s decode timeout on a loaded 2-core machine (4096x4096 did not: 503 decode_timeout).
  const SIDE = 2048;
  async function largeWebp(red: number): Promise<Buffer> {
    return sharp({ create: { width: SIDE, height: SIDE, channels: 3, background: { r: red, g: 120, b: 200 } } })
      .webp({ quality: 80 })
      .toBuffer();
  }

  it(
    "answers 6 concurrent 2048x2048 WebP uploads with 201 (the 2 that fit the queue, correct images) or 503 image_processing_busy + Retry-After, never 400",
    async () => {
      const queue = decodeQueue({ concurrency: 1, maxQueued: 2, maxWaitMs: 120_000, retryAfterSec: 2 });
      const app = makeApp({ imageQueue: queue });
      const key = (await createApiKey(h.store, { wallet: devAccount(1).address, createdVia: "cli" })).secret;
      const images = [await largeWebp(10), await largeWebp(200)];
      const rows = async () => (await h.store.db.select({ n: count() }).from(media))[0]!.n;
      const rowsBefore = await rows();

      // Hold the only decode slot, so exactly `maxQueued` uploads can wait and the rest overflow.
      let release!: () => void;
      const held = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
      const answered: Array<{ status: number; headers: Headers; body: any }> = [];
      const uploads = Array.from({ length: 6 }, (_, i) => {
        const form = new FormData();
        form.append("image", new File([images[i % 2]!], `logo-${i}.webp`, { type: "image/webp" }));
        return call(app, "/api/v1/evmchain/media/upload", {
          method: "POST",
          headers: { Authorization: `Bearer ${key}` },
          body: form,
        }).then((res) => (answered.push(res), res));
      });
      await vi.waitFor(
        () => expect({ answered: answered.length, queued: queue.queued() }).toEqual({ answered: 4, queued: 2 }),
        { timeout: 30_000, interval: 20 },
      );
      for (const res of answered) {
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 503, error: "image_processing_busy" });
        expect(res.headers.get("retry-after")).toBe("2");
      }
      expect(await rows()).toBe(rowsBefore);
      release();
      await held;
      const all = await Promise.all(uploads);
      expect(all.filter((r) => r.status === 400)).toEqual([]);
      const accepted = all.filter((r) => r.status === 201);
      expect(accepted).toHaveLength(2);
      expect(all.filter((r) => r.status === 503 && r.headers.get("retry-after") === "2")).toHaveLength(4);
      for (const res of accepted) {
        expect(res.body).toMatchObject({ ok: true, content_type: "image/webp", width: SIDE, height: SIDE });
        const served = await app.request(res.body.image_url);
        expect(served.status).toBe(200);
        const meta = await sharp(new Uint8Array(await served.arrayBuffer())).metadata();
        expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
          format: "webp",
          width: SIDE,
          height: SIDE,
        });
      }
      expect(await rows()).toBe(rowsBefore + new Set(accepted.map((r) => r.body.image_url)).size);
      expect({ active: queue.active(), queued: queue.queued() }).toEqual({ active: 0, queued: 0 });
    },
    scaledMs(120_000),
  );

  it("answers an upload that waited longer than the queue's wait with 503 image_processing_busy, and still 400 for a corrupt image", async () => {
    const queue = decodeQueue({ concurrency: 1, maxQueued: 1, maxWaitMs: 25, retryAfterSec: 2 });
    const app = makeApp({ imageQueue: queue });
    const key = (await createApiKey(h.store, { wallet: devAccount(1).address, createdVia: "cli" })).secret;
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    const post = (bytes: Uint8Array) => {
      const form = new FormData();
      form.append("image", new File([Buffer.from(bytes)], "logo.png", { type: "image/png" }));
      return call(app, "/api/v1/evmchain/media/upload", {
        method: "POST",
        headers: { Authorization: `Bearer ${key}` },
        body: form,
      });
    };
    let release!: () => void;
    const held = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const waited = await post(png);
    expect({ status: waited.status, error: waited.body.error, retryAfter: waited.headers.get("retry-after") }).toEqual({
      status: 503,
      error: "image_processing_busy",
      retryAfter: "2",
    });
    // A truncated image is refused by the byte checks before it would wait: still the client's 400.
    const corrupt = await post(png.subarray(0, png.length >> 1));
    expect({ status: corrupt.status, error: corrupt.body.error }).toEqual({ status: 400, error: "image_corrupt" });
    release();
    await held;
    expect((await post(png)).status).toBe(201);
  });
});
