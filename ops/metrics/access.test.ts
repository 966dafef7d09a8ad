/**
 * The `/metrics` guard on a real Node HTTP server (the install into Ponder's server is tested
 * against the real service in test/e2e/ops.test.ts).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardMetricsListener, isIndexerProcess, isMetricsPath, metricsDecision } from "./access";

const TOKEN = "0123456789abcdefghijklmnopqrstuvwxyzABCD";

describe("metricsDecision", () => {
  it("matches every spelling of /metrics a router could map to it, and nothing else", () => {
    for (const path of [
      "/metrics",
      "/metrics?x=1",
      "/metrics/",
      "//metrics",
      "/METRICS",
      "/%6Detrics",
      "/%6d%65trics",
      "http://h.example/metrics",
    ])
      expect(isMetricsPath(path), path).toBe(true);
    for (const path of ["/", "/metrics2", "/api/metrics", "/metrics/x", "/api/public", "/%E0%A4%A", undefined])
      expect(isMetricsPath(path), String(path)).toBe(false);
  });

  it("allows only the exact bearer token; without a configured token /metrics is disabled", () => {
    expect(metricsDecision("/api/public", undefined, TOKEN)).toBe("pass");
    expect(metricsDecision("/metrics", `Bearer ${TOKEN}`, TOKEN)).toBe("allow");
    expect(metricsDecision("/metrics", `bearer ${TOKEN}`, TOKEN)).toBe("allow");
    for (const auth of [
      undefined,
      "",
      TOKEN,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN} extra`,
    ]) {
      expect(metricsDecision("/metrics", auth, TOKEN), String(auth)).toBe("unauthorized");
    }
    expect(metricsDecision("/metrics", `Bearer ${TOKEN}`, undefined)).toBe("disabled");
    expect(metricsDecision("/metrics", `Bearer ${TOKEN}`, "")).toBe("disabled");
  });
});

/**
 * Serves `guardMetricsListener(...guardArgs)` on a free local port for the enclosing `describe`
 * block, closed after it.
 * @returns the server's base URL (`http://127.0.0.1:<port>`), known once the block's tests run
 */
function serveGuardedListener(...guardArgs: Parameters<typeof guardMetricsListener>): () => string {
  let server: Server;
  let url = "";
  beforeAll(async () => {
    server = createServer(guardMetricsListener(...guardArgs));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return () => url;
}

describe("guardMetricsListener on a real server", () => {
  let token: string | undefined = TOKEN;
  const reached: string[] = [];
  const url = serveGuardedListener(
    (req, res) => {
      reached.push(req.url ?? "");
      res.end("inner");
    },
    () => token,
  );

  it("answers 401 with the error body and WWW-Authenticate before the inner handler, 200 through it with the token", async () => {
    reached.length = 0;
    const refused = await fetch(`${url()}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect(await refused.json()).toEqual({
      ok: false,
      error: "metrics_unauthorized",
      message: "send Authorization: Bearer <METRICS_TOKEN>",
    });
    const head = await fetch(`${url()}/metrics`, { method: "HEAD" });
    expect(head.status).toBe(401);
    expect(reached).toEqual([]);
    const allowed = await fetch(`${url()}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect({ status: allowed.status, text: await allowed.text() }).toEqual({ status: 200, text: "inner" });
    expect(await (await fetch(`${url()}/api/public`)).text()).toBe("inner");
    expect(reached).toEqual(["/metrics", "/api/public"]);
  });

  it("answers 404 not_found when no token is configured (read per request)", async () => {
    token = undefined;
    try {
      const res = await fetch(`${url()}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ ok: false, error: "not_found" });
    } finally {
      token = TOKEN;
    }
  });
});

describe("/ready on the indexer answers as GET /api/v1/ready", () => {
  let indexer = true;
  const reached: string[] = [];
  const url = serveGuardedListener(
    (req, res) => {
      reached.push(req.url ?? "");
      res.end(req.url);
    },
    () => TOKEN,
    () => indexer,
  );

  it("routes every spelling of /ready to the service's readiness on the indexer, and leaves it to Ponder on a replica", async () => {
    reached.length = 0;
    for (const path of ["/ready", "/ready/", "/READY", "//ready", "/%72eady", "/ready?verbose=1"])
      await (await fetch(`${url()}${path}`)).text();
    expect(reached).toEqual([
      "/api/v1/ready",
      "/api/v1/ready",
      "/api/v1/ready",
      "/api/v1/ready",
      "/api/v1/ready",
      "/api/v1/ready?verbose=1",
    ]);
    reached.length = 0;
    for (const path of ["/readyz", "/api/ready", "/health"]) await (await fetch(`${url()}${path}`)).text();
    expect(reached).toEqual(["/readyz", "/api/ready", "/health"]);
    indexer = false;
    try {
      reached.length = 0;
      await (await fetch(`${url()}/ready`)).text();
      expect(reached).toEqual(["/ready"]);
    } finally {
      indexer = true;
    }
  });

  it("tells the indexer (ponder start, ponder dev) from a replica (ponder serve) by the command word", () => {
    expect(isIndexerProcess(["node", "ponder.js", "start", "--schema", "s"])).toBe(true);
    expect(isIndexerProcess(["node", "ponder.js", "--root", ".", "dev"])).toBe(true);
    expect(isIndexerProcess(["node", "ponder.js", "serve", "--schema", "start"])).toBe(false);
    expect(isIndexerProcess(["node", "vitest"])).toBe(false);
  });
});
