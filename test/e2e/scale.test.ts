/**
 * Small-scale regression test of the scale benchmark (docs/operations.md "Scale"): indexing cost
 * follows this launchpad's activity, not the chain's. The real service backfills, through the
 * counting proxy (`test/helpers/rpcProxy.ts`), a history with our launches and swaps followed by foreign
 * Uniswap V3 pools (same V3 factory, a look-alike launch factory the service does not accept)
 * trading in blocks of their own. `PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD=3` (read by the patched
 * Ponder, `patches/`) crosses Ponder's child-address threshold with 4 launches, so its `eth_getLogs`
 * for the pools go without addresses and return the foreign logs too, as on the real chain past
 * 1,000 launches. Asserted: request counts and blocks fetched, never time.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, http, type PublicClient } from "viem";
import { blocksWithLogs, launchMany, swapMany, type Launched } from "../../bench/scaleHistory";
import { findFreePort, startAnvil, type AnvilInstance } from "../../devnet/anvil";
import { createDevnetClients, devAccount } from "../../devnet/clients";
import { deployLookAlikeFactory, deployStack } from "../../devnet/deploy";
import { writeManifest, type DeploymentManifest } from "../../devnet/manifest";
import { startPonder, type PonderProcess } from "../../scripts/ponderProcess";
import { waitReady } from "../../scripts/serviceReadiness";
import { startRpcProxy, type RpcProxy } from "../helpers/rpcProxy";

const OUR_LAUNCHES = 4;
const OUR_SWAPS = 20;
const FOREIGN_SWAPS = 10 * OUR_SWAPS;

let anvil: AnvilInstance;
let proxy: RpcProxy;
let service: PonderProcess | undefined;
let dataDir: string;
let manifest: DeploymentManifest;
let publicClient: PublicClient;
let ours: Launched;
let foreign: Launched;
/** Last block of the built history (empty blocks are mined after it). */
let historyEnd: bigint;

beforeAll(async () => {
  anvil = await startAnvil({ gasLimit: 100_000_000n });
  dataDir = mkdtempSync(join(tmpdir(), "e2e-scale-"));
  manifest = await deployStack({ rpcUrl: anvil.rpcUrl });
  const manifestPath = join(dataDir, "manifest.json");
  writeManifest(manifestPath, manifest);
  publicClient = createPublicClient({ transport: http(anvil.rpcUrl) });
  const deployer = createDevnetClients(anvil.rpcUrl, manifest.chainId, devAccount(0));
  const lookAlike = await deployLookAlikeFactory(deployer.walletClient, deployer.publicClient, manifest);

  ours = await launchMany(manifest, publicClient, {
    factory: manifest.contracts.launchFactory,
    count: OUR_LAUNCHES,
    perBlock: 2,
    namePrefix: "Ours",
  });
  foreign = await launchMany(manifest, publicClient, {
    factory: lookAlike,
    count: 2,
    perBlock: 2,
    namePrefix: "Foreign",
    senderIndex: 2,
  });
  await swapMany(manifest, publicClient, ours, { swaps: OUR_SWAPS, swapsPerTransaction: 5, transactionsPerBlock: 2 });
  // Ten times our swaps, one small transaction per block: most blocks hold only foreign logs.
  await swapMany(manifest, publicClient, foreign, {
    swaps: FOREIGN_SWAPS,
    swapsPerTransaction: 8,
    transactionsPerBlock: 1,
    senderIndex: 3,
  });
  historyEnd = await publicClient.getBlockNumber({ cacheTime: 0 });
  // Bury the history under the finality depth (30 blocks for an unknown chain in Ponder 0.17):
  // Ponder backfills it (historical sync).
  await publicClient.request({ method: "anvil_mine" as never, params: ["0x64"] as never });

  proxy = await startRpcProxy({ target: anvil.rpcUrl });
  service = await startPonder({
    port: await findFreePort(),
    schema: "e2e_scale",
    env: {
      DEPLOYMENT_MANIFEST: manifestPath,
      PONDER_PGLITE_DIR: join(dataDir, "pglite"),
      STORE_PGLITE_DIR: join(dataDir, "store"),
      DATABASE_URL: "",
      INDEXER_RPC_URLS: proxy.url,
      PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD: "3",
    },
  });
  await waitReady(service.url);
});

afterAll(async () => {
  await service?.stop();
  await proxy?.stop();
  await anvil?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("backfill past the factory child-address threshold, among foreign V3 pools", () => {
  it("asks eth_getLogs without addresses (the threshold is crossed, foreign logs come back)", () => {
    expect(proxy.traffic().getLogsWithoutAddress).toBeGreaterThan(0);
  });

  it("fetches no block that holds only foreign pools' logs", async () => {
    const start = BigInt(manifest.startBlock);
    const ourBlocks = new Set(
      await blocksWithLogs(
        publicClient,
        [
          ...manifest.acceptedFactories,
          manifest.contracts.feeLocker,
          ...ours.pools,
          // The ETH/USD reference pool is indexed too (one address).
          ...(manifest.ethUsdPool ? [manifest.ethUsdPool] : []),
        ],
        start,
        historyEnd,
      ),
    );
    const foreignOnly = (await blocksWithLogs(publicClient, foreign.pools, start, historyEnd)).filter(
      (b) => !ourBlocks.has(b),
    );
    // The history is what the test means: most blocks hold only foreign logs.
    expect(foreignOnly.length).toBeGreaterThanOrEqual(FOREIGN_SWAPS / 8);
    const fetched = new Set(proxy.traffic().fetchedBlockNumbers);
    expect(foreignOnly.filter((b) => fetched.has(b))).toEqual([]);
    // After the start block, every block fetched within the history holds one of our logs (the
    // other fetches are the start, finalized and head blocks Ponder reads to plan the sync).
    const fetchedInHistory = [...fetched].filter((b) => b > Number(start) && b <= Number(historyEnd));
    expect(fetchedInHistory.filter((b) => !ourBlocks.has(b))).toEqual([]);
    expect(fetchedInHistory.length).toBeGreaterThan(0);
  });

  it("still indexes every one of our launches and trades", async () => {
    const res = await fetch(`${service!.url}/api/public/tokens/new?limit=100`);
    const body = (await res.json()) as { tokens: Array<{ address: string; trade_count: number }> };
    expect(body.tokens.map((t) => t.address.toLowerCase()).sort()).toEqual(
      ours.tokens.map((t) => t.toLowerCase()).sort(),
    );
    expect(body.tokens.reduce((sum, t) => sum + t.trade_count, 0)).toBe(OUR_SWAPS);
  });
});
