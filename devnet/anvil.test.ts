import { describe, expect, it } from "vitest";
import { createPublicClient, http } from "viem";
import { startAnvil } from "./anvil.js";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("startAnvil", () => {
  it("starts several nodes in parallel on free ports with chain id 4663 and stops them", async () => {
    const nodes = await Promise.all([startAnvil(), startAnvil(), startAnvil()]);
    try {
      expect(new Set(nodes.map((n) => n.port)).size).toBe(3);
      for (const node of nodes) {
        expect(isAlive(node.pid)).toBe(true);
        const client = createPublicClient({ transport: http(node.rpcUrl) });
        expect(await client.getChainId()).toBe(4663);
      }
    } finally {
      await Promise.all(nodes.map((n) => n.stop()));
    }
    for (const node of nodes) expect(isAlive(node.pid)).toBe(false);
  });

  it("honours chainId and blockTimeSec", async () => {
    const node = await startAnvil({ chainId: 31337, blockTimeSec: 1 });
    try {
      const client = createPublicClient({ transport: http(node.rpcUrl) });
      expect(await client.getChainId()).toBe(31337);
      const first = await client.getBlockNumber({ cacheTime: 0 });
      // Interval mining: a new block appears within a few seconds without any transaction.
      await expect
        .poll(() => client.getBlockNumber({ cacheTime: 0 }), { timeout: 10_000, interval: 200 })
        .toBeGreaterThan(first);
    } finally {
      await node.stop();
    }
  });
});
