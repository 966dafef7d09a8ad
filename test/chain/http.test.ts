/**
 * HTTP conventions a client and a CDN expect (docs/public.md "Caching", docs/operations.md "CDN"):
 * compression (gzip, br) above 1 KB with `Vary: Accept-Encoding`, never on event streams or
 * images; `ETag` + `If-None-Match` -> 304 on public JSON reads; `Cache-Control` per endpoint;
 * HEAD = GET without a body (same headers, `Content-Length` included); the home page for any
 * client that does not ask for JSON; one frame policy and a Permissions-Policy on pages;
 * fingerprinted, immutable asset URLs. The real app (`createApp`, `app.request()`) on a real anvil,
 * Ponder's tables pushed into an empty PGlite (with a checkpoint row, so market reads answer).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appFixture, type TestApp } from "../helpers/appFixture";
import type { MarketDb } from "../../market/db";
import { deploymentSchema } from "../../config/deployment";
import type { AnvilInstance } from "../../devnet/anvil";
import { startDeployedDevnet } from "../helpers/chainDevnet";
import * as ponderSchema from "../../ponder.schema";
import { openStore, type Store } from "../../store/index";

const { pushSchema } = createRequire(import.meta.url)("drizzle-kit/api") as typeof import("drizzle-kit/api");

const BASE = "http://localhost:42069";

let anvil: AnvilInstance;
let marketClient: PGlite;
let store: Store;
let dir: string;
let app: TestApp;

beforeAll(async () => {
  const devnet = await startDeployedDevnet();
  anvil = devnet.anvil;
  const deployment = deploymentSchema.parse(devnet.manifest);
  marketClient = new PGlite();
  const marketDb = drizzle(marketClient);
  await (await pushSchema(ponderSchema as unknown as Record<string, unknown>, marketDb as never)).apply();
  // Ponder's checkpoint table (not in ponder.schema.ts): market reads answer once a row exists.
  await marketDb.execute(
    sql`CREATE TABLE "_ponder_checkpoint" (chain_name text, latest_checkpoint text, finalized_checkpoint text)`,
  );
  await marketDb.execute(
    sql`INSERT INTO "_ponder_checkpoint" VALUES ('evmchain', ${"0".repeat(75)}, ${"0".repeat(75)})`,
  );
  dir = mkdtempSync(join(tmpdir(), "http-routes-"));
  store = await openStore({ kind: "pglite", dir, schema: "http_store" });
  app = appFixture(
    {
      db: marketDb as unknown as MarketDb,
      publicBaseUrl: BASE,
      store,
      deployment,
      publicClient: createPublicClient({ transport: http(anvil.rpcUrl) }),
    },
    { readCacheTtlMs: 60_000 },
  );
});

afterAll(async () => {
  await store?.close();
  await marketClient?.close();
  await anvil?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  app.request(`${BASE}${path}`, { method, headers });

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe("compression", () => {
  it("compresses a large JSON answer with br or gzip as asked, with Vary: Accept-Encoding, to the same bytes", async () => {
    const plain = await bytesOf(await get("/api/openapi.json"));
    expect(plain.length).toBeGreaterThan(100_000);
    const br = await get("/api/openapi.json", { "Accept-Encoding": "gzip, deflate, br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toMatch(/accept-encoding/i);
    const brBytes = await bytesOf(br);
    expect(brBytes.length).toBeLessThan(plain.length / 4);
    expect(brotliDecompressSync(brBytes)).toEqual(Buffer.from(plain));
    const gz = await get("/api/openapi.json", { "Accept-Encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(await bytesOf(gz))).toEqual(Buffer.from(plain));
    const none = await get("/api/openapi.json", { "Accept-Encoding": "identity" });
    expect(none.headers.get("content-encoding")).toBeNull();
    expect(none.headers.get("vary")).toMatch(/accept-encoding/i);
  });

  it("compresses the pages' scripts and the chart library", async () => {
    const res = await get("/assets/vendor/lightweight-charts.mjs", { "Accept-Encoding": "br" });
    expect(res.headers.get("content-encoding")).toBe("br");
  });

  it("leaves answers under 1 KB, images and event streams uncompressed", async () => {
    const small = await get("/api/public/udf/time", { "Accept-Encoding": "gzip, br" });
    expect(small.status).toBe(200);
    expect(small.headers.get("content-encoding")).toBeNull();
    const png = await get("/static/token-default.png", { "Accept-Encoding": "gzip, br" });
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(png.headers.get("content-encoding")).toBeNull();
    const stream = await get("/api/public/stream/trades", { "Accept-Encoding": "gzip, br" });
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.headers.get("content-encoding")).toBeNull();
    await stream.body?.cancel();
  });
});

describe("validators and caching", () => {
  it("answers If-None-Match with 304 on public JSON reads, the ETag computed on the uncompressed body", async () => {
    for (const path of [
      "/api/public/tokens/new",
      "/api/public/trades/recent?limit=100",
      "/api/public/events",
      "/api/public/udf/config",
      "/api/public/integrations/evmchain/factories",
      "/api/openapi.json",
    ]) {
      const first = await get(path);
      expect(first.status, path).toBe(200);
      const etag = first.headers.get("etag");
      expect(etag, path).toMatch(/^"[^"]+"$/);
      const again = await get(path, { "If-None-Match": etag!, "Accept-Encoding": "gzip, br" });
      expect(again.status, path).toBe(304);
      expect(await again.text(), path).toBe("");
      expect(again.headers.get("cache-control"), path).toBe(first.headers.get("cache-control"));
      // A compressed answer names the same entity, weakly (RFC 9110 §8.8.1).
      const compressed = await get(path, { "Accept-Encoding": "gzip" });
      if (compressed.headers.get("content-encoding")) expect(compressed.headers.get("etag"), path).toBe(`W/${etag}`);
    }
  });

  it("sends the documented Cache-Control per endpoint", async () => {
    const expected: [string, string][] = [
      ["/api/public/tokens/new", "public, no-cache"],
      ["/api/public/trades/recent", "public, no-cache"],
      ["/api/public/udf/config", "public, max-age=300"],
      ["/api/public/udf/time", "no-store"],
      ["/api/public/stream/trades", "no-store"],
      ["/api/openapi.json", "public, max-age=300"],
      ["/api/v1/evmchain/launches", "no-store"],
      ["/api/evm/evmchain/session", "no-store"],
    ];
    for (const [path, cacheControl] of expected) {
      const res = await get(path);
      expect(res.headers.get("cache-control"), path).toBe(cacheControl);
      await res.body?.cancel();
    }
  });

  it("links fingerprinted asset URLs from the pages and serves them immutable", async () => {
    const page = await (await get("/launch", { Accept: "text/html" })).text();
    const urls = [...page.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(1);
    for (const url of urls) {
      expect(url, url).toMatch(/\?v=[A-Za-z0-9_-]{12,}$/);
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("cache-control"), url).toBe("public, max-age=31536000, immutable");
      // Imports inside a module name fingerprinted URLs too (one module instance per file).
      const text = await res.text();
      for (const m of text.matchAll(/from\s+["'](\/assets\/[^"']+)["']/g)) expect(m[1], url).toMatch(/\?v=/);
    }
    const stale = await get("/assets/site.css?v=not-the-hash");
    expect(stale.headers.get("cache-control")).toBe("public, max-age=300");
  });
});

describe("OpenAPI document", () => {
  it("documents Cache-Control, ETag, Vary and the 304 answer where they are sent", async () => {
    type Op = { responses: Record<string, { headers?: Record<string, unknown> }>; parameters?: { name: string }[] };
    const doc = (await (await get("/api/openapi.json")).json()) as { paths: Record<string, { get?: Op }> };
    for (const path of ["/api/public/tokens/new", "/api/public/token/{address_or_slug}", "/api/openapi.json"]) {
      const op = doc.paths[path]!.get!;
      expect(Object.keys(op.responses["200"]!.headers ?? {}), path).toEqual(
        expect.arrayContaining(["Cache-Control", "ETag", "Vary"]),
      );
      expect(op.responses["304"], path).toBeDefined();
      expect(
        op.parameters?.map((p) => p.name),
        path,
      ).toContain("If-None-Match");
    }
    // An event stream has no validators and is never compressed.
    const stream = Object.keys(doc.paths["/api/public/stream/trades"]!.get!.responses["200"]!.headers ?? {});
    expect(stream).toContain("Cache-Control");
    for (const header of ["ETag", "Last-Modified", "Vary", "X-Cache"]) expect(stream).not.toContain(header);
  });
});

describe("HEAD", () => {
  it("answers HEAD with the GET's status and headers, Content-Length included, and no body", async () => {
    for (const path of ["/api/openapi.json", "/api/public/tokens/new", "/assets/site.css", "/launch"]) {
      const getRes = await get(path);
      const body = await bytesOf(getRes);
      const head = await get(path, {}, "HEAD");
      expect(head.status, path).toBe(getRes.status);
      expect(head.headers.get("content-length"), path).toBe(String(body.length));
      expect((await bytesOf(head)).length, path).toBe(0);
      for (const name of ["content-type", "cache-control", "etag", "vary"])
        expect(head.headers.get(name), `${path} ${name}`).toBe(getRes.headers.get(name));
    }
  });
});

describe("pages", () => {
  it("serves the home page to any client that does not ask for JSON, with Vary: Accept", async () => {
    for (const accept of [undefined, "*/*", "text/html"]) {
      const res = await get("/", accept ? { Accept: accept } : {});
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers.get("content-type"), String(accept)).toMatch(/^text\/html/);
      expect(res.headers.get("vary"), String(accept)).toMatch(/\baccept\b/i);
    }
    const json = await get("/", { Accept: "application/json" });
    expect(json.status).toBe(404);
    expect(((await json.json()) as { error: string }).error).toBe("not_found");
    expect(json.headers.get("vary")).toMatch(/\baccept\b/i);
  });

  it("keeps one frame policy (CSP frame-ancestors 'none', X-Frame-Options DENY) and a Permissions-Policy", async () => {
    for (const path of ["/", "/launch", "/api/docs"]) {
      const res = await get(path, { Accept: "text/html" });
      expect(res.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("permissions-policy"), path).toContain("camera=()");
    }
  });

  it("describes the home and launch pages with a meta description", async () => {
    for (const path of ["/", "/launch"]) {
      const html = await (await get(path, { Accept: "text/html" })).text();
      expect(html, path).toMatch(/<meta name="description" content="[^"]{20,}"/);
    }
  });
});
