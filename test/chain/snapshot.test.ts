import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, createWalletClient, http, parseEther, type PublicClient } from "viem";
import { launchToken } from "../../devnet/actions";
import type { AnvilInstance } from "../../devnet/anvil";
import { devAccount } from "../../devnet/clients";
import { readSnapshot, saveDeployedDevnet, startSavedDevnet, type DevnetSnapshot } from "../../devnet/snapshot";

const dir = mkdtempSync(join(tmpdir(), "devnet-snapshot-"));
let saved: DevnetSnapshot;
const nodes: AnvilInstance[] = [];

beforeAll(async () => {
  saved = await saveDeployedDevnet(dir);
});

afterAll(async () => {
  for (const node of nodes) await node.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A node restored from the saved folder, and a client of it. */
async function restore(): Promise<{ client: PublicClient; rpcUrl: string; manifest: DevnetSnapshot["manifest"] }> {
  const { anvil, manifest } = await startSavedDevnet(readSnapshot(dir));
  nodes.push(anvil);
  return { client: createPublicClient({ transport: http(anvil.rpcUrl) }), rpcUrl: anvil.rpcUrl, manifest };
}

describe("a saved deployed devnet (anvil --dump-state / --load-state)", () => {
  it("describes itself: the deployment without an RPC URL, and the saved head", () => {
    const read = readSnapshot(dir);
    expect(read).toEqual(saved);
    expect(read.manifest.rpcUrl).toBe("");
    expect(read.head.number).toBeGreaterThan(read.manifest.startBlock);
  });

  it("restores as the same chain on every start: head, blocks and logs", async () => {
    const [a, b] = await Promise.all([restore(), restore()]);
    expect(a.rpcUrl).not.toBe(b.rpcUrl);
    expect(a.manifest.rpcUrl).toBe(a.rpcUrl);
    for (const { client } of [a, b]) {
      const head = await client.getBlock({ blockTag: "latest" });
      expect({ number: Number(head.number), hash: head.hash }).toEqual(saved.head);
    }
    const range = { fromBlock: BigInt(saved.manifest.startBlock), toBlock: BigInt(saved.head.number) };
    const [logsA, logsB] = await Promise.all([a.client.getLogs(range), b.client.getLogs(range)]);
    expect(logsA.length).toBeGreaterThan(0);
    expect(logsB).toEqual(logsA);
    const factoryDeployBlock = await a.client.getBlock({ blockNumber: BigInt(saved.manifest.startBlock) });
    expect(factoryDeployBlock.hash).toBe((await b.client.getBlock({ blockNumber: factoryDeployBlock.number })).hash);
  });

  it("answers calls at the saved past blocks (the historical states are kept)", async () => {
    const { client, manifest } = await restore();
    const factory = manifest.contracts.launchFactory;
    // The factory has no code before the deployment began and has it at the saved head: both
    // answers come from states at past blocks, which a dump without them cannot give.
    const before = await client.getCode({ address: factory, blockNumber: BigInt(manifest.startBlock - 1) });
    expect(before ?? "0x").toBe("0x");
    const atHead = await client.getCode({ address: factory, blockNumber: BigInt(saved.head.number) });
    expect((atHead ?? "0x").length).toBeGreaterThan(2);
    const middle = BigInt(Math.floor((manifest.startBlock + saved.head.number) / 2));
    expect(await client.getBalance({ address: devAccount(0).address, blockNumber: middle })).toBeGreaterThan(0n);
  });

  it("goes on from the saved head at the wall clock's time, and launches work on it", async () => {
    const { client, rpcUrl, manifest } = await restore();
    const wallet = createWalletClient({ account: devAccount(1), transport: http(rpcUrl) });
    const launched = await launchToken(wallet, client, manifest, {
      name: "Saved",
      symbol: "SAVED",
      firstBuyWei: parseEther("0.01"),
    });
    expect(launched.receipt.status).toBe("success");
    const block = await client.getBlock({ blockNumber: launched.receipt.blockNumber });
    expect(Number(block.number)).toBe(saved.head.number + 1);
    expect(block.parentHash).toBe(saved.head.hash);
    expect(Math.abs(Number(block.timestamp) - Date.now() / 1000)).toBeLessThan(60);
  });
});
