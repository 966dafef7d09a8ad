/**
 * The hosted-provider stand-in of the `rpc` benchmark (bench/providerProxy.ts): its round trip,
 * its per-second cap (429 over it) and its response-size cap, in front of a local HTTP JSON-RPC
 * node that answers `eth_chainId` with a short body and `eth_getLogs` with a large one.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type ProviderProxy, startProviderProxy } from "./providerProxy";

let node: Server | undefined;
let proxy: ProviderProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  await new Promise<void>((resolve) => (node ? node.close(() => resolve()) : resolve()));
  node = proxy = undefined;
});

async function startNode(): Promise<string> {
  node = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const { id, method } = JSON.parse(Buffer.concat(chunks).toString()) as { id: number; method: string };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result: method === "eth_getLogs" ? "x".repeat(5_000) : "0x1" }));
    });
  });
  await new Promise<void>((resolve) => node!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(node!.address() as AddressInfo).port}`;
}

const call = (url: string, method: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }),
  });

describe("provider proxy", () => {
  it("adds its round trip to every answer", async () => {
    proxy = await startProviderProxy({ target: await startNode(), roundTripMs: 120 });
    const started = performance.now();
    const answer = await call(proxy.url, "eth_chainId");
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    expect(((await answer.json()) as { result: string }).result).toBe("0x1");
    expect(proxy.counts()).toMatchObject({ served: 1, throttled: 0, calls: { eth_chainId: 1 }, maxInFlight: 1 });
    expect(proxy.counts().busySec).toBeGreaterThanOrEqual(0.115);
  });

  it("answers 429 over its per-second cap, and serves at most the cap in any second", async () => {
    proxy = await startProviderProxy({ target: await startNode(), roundTripMs: 0, capRps: 5 });
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () => call(proxy!.url, "eth_chainId").then((r) => r.status)),
    );
    const counts = proxy.counts();
    expect(statuses.filter((s) => s === 429).length).toBe(counts.throttled);
    expect(counts.throttled).toBeGreaterThanOrEqual(2);
    expect(counts.served + counts.throttled).toBe(30);
    expect(counts.maxServedPerSecond).toBeLessThanOrEqual(5);
    proxy.reset();
    expect(proxy.counts().served).toBe(0);
  });

  it("refuses an answer over its size cap with an error Ponder splits eth_getLogs ranges on", async () => {
    proxy = await startProviderProxy({ target: await startNode(), roundTripMs: 0, maxResponseBytes: 1_000 });
    const body = (await (await call(proxy.url, "eth_getLogs")).json()) as { error?: { message: string } };
    expect(body.error?.message).toMatch(/response size should not greater than 1000 bytes/);
    expect(((await (await call(proxy.url, "eth_chainId")).json()) as { result: string }).result).toBe("0x1");
    expect(proxy.counts()).toMatchObject({ served: 1, oversized: 1 });
  });
});
