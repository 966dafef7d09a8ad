import { describe, expect, it } from "vitest";
import { createPublicClient, http } from "viem";
import { startAnvil } from "../../devnet/anvil.js";

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

  it("keeps only historyStates states, in memory: a read at an older block fails, the head answers", async () => {
    const node = await startAnvil({ historyStates: 2 });
    try {
      const client = createPublicClient({ transport: http(node.rpcUrl, { retryCount: 0 }) });
      await client.request({ method: "anvil_mine" as never, params: ["0x6"] as never });
      const address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
      expect(await client.getBalance({ address })).toBeGreaterThan(0n);
      await expect(client.getBalance({ address, blockNumber: 1n })).rejects.toThrow();
    } finally {
      await node.stop();
    }
  });

  it("forks another node at its head: same blocks up to the fork, new blocks mined on top", async () => {
    const origin = await startAnvil();
    let fork: Awaited<ReturnType<typeof startAnvil>> | undefined;
    try {
      const originClient = createPublicClient({ transport: http(origin.rpcUrl) });
      await originClient.request({ method: "anvil_mine" as never, params: ["0x3"] as never });
      fork = await startAnvil({ forkUrl: origin.rpcUrl });
      const forkClient = createPublicClient({ transport: http(fork.rpcUrl) });
      expect(await forkClient.getBlockNumber({ cacheTime: 0 })).toBe(3n);
      expect((await forkClient.getBlock({ blockNumber: 2n })).hash).toBe(
        (await originClient.getBlock({ blockNumber: 2n })).hash,
      );
      await forkClient.request({ method: "anvil_mine" as never, params: ["0x2"] as never });
      expect(await forkClient.getBlockNumber({ cacheTime: 0 })).toBe(5n);
      expect(await originClient.getBlockNumber({ cacheTime: 0 })).toBe(3n);
    } finally {
      await fork?.stop();
      await origin.stop();
    }
  });
});
