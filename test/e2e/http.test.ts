/**
 * HTTP conventions through the real service (`ponder start`, whose own server wraps the app):
 * what reaches a client on the wire. Compressed bytes decode to the same JSON, an event stream is
 * not compressed and still delivers each event as it happens, `If-None-Match` answers 304, and a
 * HEAD answer's `Content-Length` is the GET body's length (docs/public.md "Caching").
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { getAddress, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buyToken, launchToken } from "../../devnet/actions";
import { startStack, until, type Stack } from "../helpers/harness";

let stack: Stack;
let token: `0x${string}`;

/** One raw HTTP exchange (no decoding: node:http hands over the bytes as sent). */
function raw(
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${stack.service.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  stack = await startStack({
    schema: "e2e_http",
    env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000", STREAM_POLL_INTERVAL_MS: "20" },
  });
  const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
    name: "Wire",
    symbol: "WIRE",
    firstBuyWei: parseEther("0.01"),
  });
  token = getAddress(launched.event.token);
  for (let i = 0; i < 3; i++)
    await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("0.001"));
  // Every trade indexed, so answers compared below do not move between requests.
  await until("four trades indexed", async () => {
    const { body } = await stack.request(`/api/public/token/${token}/trades`);
    return ((body as { trades?: unknown[] }).trades?.length ?? 0) >= 4 ? true : undefined;
  });
});

afterAll(async () => {
  await stack?.stop();
});

describe("HTTP conventions on the wire", () => {
  it("sends br and gzip bodies that decode to the identity JSON, with Vary: Accept-Encoding", async () => {
    for (const path of ["/api/openapi.json", "/api/public/trades/recent?limit=100"]) {
      const plain = await raw(path, { "Accept-Encoding": "identity" });
      expect(plain.status, path).toBe(200);
      const br = await raw(path, { "Accept-Encoding": "gzip, br" });
      const gz = await raw(path, { "Accept-Encoding": "gzip" });
      if (plain.body.length < 1024) continue; // below the threshold: sent as is
      expect(br.headers["content-encoding"], path).toBe("br");
      expect(br.headers.vary, path).toMatch(/accept-encoding/i);
      expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));
      expect(gz.headers["content-encoding"], path).toBe("gzip");
      expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    }
  });

  it("answers If-None-Match with 304 and HEAD with the GET body's Content-Length", async () => {
    const path = `/api/public/token/${token}/trades`;
    const first = await raw(path);
    expect(first.status).toBe(200);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"/);
    const again = await raw(path, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await raw(path, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(first.body.length));
    expect(head.headers.etag).toBe(etag);
    expect(head.body.length).toBe(0);
  });

  it("does not compress an event stream, which still delivers each event as it happens", async () => {
    const received: string[] = [];
    let headers: IncomingHttpHeaders | undefined;
    const req = httpRequest(`${stack.service.url}/api/public/stream/trades?token=${token}`, {
      headers: { "Accept-Encoding": "gzip, br", Accept: "text/event-stream" },
    });
    req.on("response", (res) => {
      headers = res.headers;
      res.on("data", (chunk: Buffer) => received.push(chunk.toString()));
    });
    req.end();
    try {
      await expect.poll(() => headers, { timeout: 10_000 }).toBeDefined();
      expect(headers!["content-type"]).toMatch(/^text\/event-stream/);
      expect(headers!["content-encoding"]).toBeUndefined();
      const buy = await buyToken(stack.wallet(3), stack.publicClient, stack.manifest, token, parseEther("0.001"));
      // The event arrives while the stream stays open: it was flushed, not held in a compressor.
      await expect.poll(() => received.join("").includes(buy.hash), { timeout: 15_000 }).toBe(true);
    } finally {
      req.destroy();
    }
  });
});
