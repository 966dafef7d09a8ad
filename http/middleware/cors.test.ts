/**
 * CORS helpers (http/middleware/cors.ts, ops/corsSeam.ts): which paths are public, and the app- and transport-level
 * stripping, on a real Node HTTP server built the way Ponder 0.17 builds its own (an outer Hono app
 * with `cors({ origin: "*" })` that mounts the service's app with `route("/", app)`). The running
 * service itself is covered by test/e2e/launch.session.test.ts "CORS only on the public read surface".
 */
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripPonderCorsOutsidePublic } from "../../ops/corsSeam";
import { corsOnlyOnPublic, isPublicCorsPath, PUBLIC_CORS_PATHS, publicCors } from "./cors";

describe("isPublicCorsPath", () => {
  it("matches the public read surface only", () => {
    for (const path of [
      "/api/public",
      "/api/public/tokens/new",
      "/token-list/evmchain.json",
      "/feed/big-buys.xml",
      "/media/ab.png",
      "/api/openapi.json",
    ])
      expect(isPublicCorsPath(path), path).toBe(true);
    for (const path of [
      "/api/publicity",
      "/api/v1",
      "/api/v1/evmchain/launches/intent",
      "/api/evm/evmchain/session",
      "/launch",
      "/token/0xabc",
      "/metrics",
      "/status",
      "/api/docs",
      "/",
    ])
      expect(isPublicCorsPath(path), path).toBe(false);
  });
});

describe("behind a server that wraps the app in cors({ origin: '*' }) (Ponder's shape)", () => {
  let server: ServerType;
  let base: string;
  const seam = { port: 0 };

  beforeAll(async () => {
    const app = new Hono();
    app.use("*", corsOnlyOnPublic());
    for (const path of PUBLIC_CORS_PATHS) if (path !== "/api/public") app.use(path, publicCors());
    app.all("*", (c) => c.json({ ok: true }));
    const outer = new Hono()
      .use(cors({ origin: "*", maxAge: 86400 }))
      .get("/status", (c) => c.json({}))
      .route("/", app);
    await new Promise<void>((resolve) => {
      server = serve({ fetch: outer.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
        base = `http://127.0.0.1:${info.port}`;
        seam.port = info.port;
        resolve();
      });
    });
    stripPonderCorsOutsidePublic(() => seam.port, isPublicCorsPath);
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  const corsOf = (res: Response) => [...res.headers.keys()].filter((name) => name.startsWith("access-control-"));
  const preflight = (path: string) =>
    fetch(`${base}${path}`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://evil.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-csrf-token",
      },
    });

  it("keeps Allow-Origin * on public reads and their preflights", async () => {
    expect(
      (await fetch(`${base}/api/public/tokens/new`, { headers: { Origin: "https://evil.example" } })).headers.get(
        "access-control-allow-origin",
      ),
    ).toBe("*");
    expect((await preflight("/token-list/evmchain.json")).headers.get("access-control-allow-origin")).toBe("*");
  });

  it("strips every Access-Control-* header elsewhere: app responses, the wrapper's preflights and its own routes", async () => {
    for (const res of [
      await fetch(`${base}/api/v1/evmchain/tokens/0x1`, { headers: { Origin: "https://evil.example" } }),
      await fetch(`${base}/api/evm/evmchain/session`, { headers: { Origin: "https://evil.example" } }),
      await preflight("/api/evm/evmchain/build-direct-v3-launch"),
      await preflight("/api/v1/evmchain/launches/intent"),
      await fetch(`${base}/status`, { headers: { Origin: "https://evil.example" } }),
    ]) {
      expect(corsOf(res)).toEqual([]);
    }
  });

  it("leaves other servers of the process alone", async () => {
    seam.port = -1; // the seam now watches no server
    try {
      expect((await preflight("/api/v1/evmchain/launches/intent")).headers.get("access-control-allow-origin")).toBe(
        "*",
      );
    } finally {
      seam.port = Number(new URL(base).port);
    }
  });
});
