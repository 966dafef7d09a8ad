/**
 * Scale benchmark (docs/operations.md "Scale"): does the backfill's cost follow this launchpad's
 * activity or the whole chain's? One run:
 * 1. `--launches` tokens through our factory (batched, `--launches-per-block`), then `--swaps`
 *    swaps in their pools (`--swaps-per-transaction`, one transaction per block); buried under
 *    100 empty blocks. The service backfills it: the **baseline** (no foreign traffic).
 * 2. Then foreign Uniswap V3 pools (`--foreign-pools`, same V3 factory, a look-alike launch factory
 *    the service does not accept) with `--foreign-factor` x our swaps, `--foreign-swaps-per-transaction`
 *    per transaction and one transaction per block; buried again. The service backfills the whole
 *    chain from scratch, patched Ponder (`patches/`), then the variants in `--variants`:
 *    `unpatched` (the patch reversed for that run, then re-applied) and `threshold` (patched, with
 *    `PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD=100000`: address lists, as below 1,000 launches) and
 *    `ponder-floor` (`bench/ponder-floor`: Ponder with our configuration and functions that do
 *    nothing, so the service's own overhead is the ratio of the two on the same chain).
 * Two nodes (unless `--single-node`): anvil 1.7 rebuilds the whole state trie and clones the whole
 * state for every block it mines, so a block costs time and memory in proportion to the state
 * (~0.7 s and ~15 MB per block at 2,000 launches, measured). Our history is built on a first node
 * that keeps its states in memory only (the service reads pool state at launch blocks); a second
 * node forks it at its head and carries everything after it (burying blocks, foreign traffic),
 * where a block costs only the state touched since the fork. Every backfill, baseline included,
 * asks the second node, which answers for blocks up to the fork from the first.
 * Each backfill runs on its own PostgreSQL database through the counting proxy (`test/helpers/rpcProxy.ts`):
 * time from spawn to `/ready` and from Ponder's "Started fetching backfill JSON-RPC data" log line to
 * `/ready` (indexing), calls by method, blocks fetched, response bytes, peak RSS.
 * Targets: with foreign traffic, backfill (indexing) <= 1.2x the baseline and blocks
 * fetched within the history <= 1.2x the blocks that hold our logs.
 * Usage: `npm run bench -- scale [--launches 1010] [--swaps 10000] [--foreign-factor 10] [--variants unpatched,threshold,ponder-floor] [--single-node] [--no-warmup] [--cpu-prof-dir D] [--out name]`.
 * `--cpu-prof-dir` writes the V8 CPU profile of the backfill with foreign traffic (the service, or
 * the floor for the `ponder-floor` variant) there, to see where the time over the floor goes.
 * Results: `bench/results/latest/scale-<launches>.json`, or `bench/results/latest/<name>.json` with `--out`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, http, type Address } from "viem";
import { findFreePort, startAnvil, type AnvilInstance } from "../devnet/anvil";
import { deployStack } from "../devnet/deploy";
import { writeManifest } from "../devnet/manifest";
import { startPonder } from "../scripts/ponderProcess";
import { waitReady } from "../scripts/serviceReadiness";
import { createDevnetDatabase } from "../test/helpers/postgres";
import { startRpcProxy, type RpcTraffic } from "../test/helpers/rpcProxy";
import {
  cpuProfileArgs,
  HISTORY_STATES,
  launchForeignPools,
  launchOurTokens,
  nodesPeakRss,
  parseBenchFlags,
  sampleMachineLoad,
  scaleGasLimit,
  scaleHistoryFlags,
  scaleOptions,
  startHistoryNode,
  writeBenchResult,
} from "./harness";
import { logTimeMs, rssBytes } from "./indexing";
import { blocksWithLogs, swapMany } from "./scaleHistory";

const values = parseBenchFlags("scale", scaleOptions);
const history = scaleHistoryFlags(values);
const { launches, launchesPerBlock, swaps, swapsPerTransaction, foreignSwapsPerTransaction } = history;
const foreignSwaps = swaps * Number(values["foreign-factor"]);
const variants = (values.variants ?? "").split(",").filter(Boolean);

/** One backfill: times, traffic through the proxy, peak RSS. */
type Backfill = {
  name: string;
  seconds: number;
  indexingSeconds: number | null;
  peakRssBytes: number | null;
  calls: Record<string, number>;
  requests: number;
  getLogsWithoutAddress: number;
  responseBytes: number;
  responseBytesByMethod: Record<string, number>;
  blocksFetched: number;
  /** Distinct blocks fetched within the history (after the start block, up to its last block). */
  blocksFetchedInHistory: number;
};

// The machine is shared: the load average (start, end, sampled every 10 s) goes into the results,
// with the nodes' peak RSS.
const gasLimit = scaleGasLimit(launchesPerBlock);
const nodes: AnvilInstance[] = [await startHistoryNode(launchesPerBlock)];
const nodesRss = nodesPeakRss(nodes);
const load = sampleMachineLoad(nodesRss.sample);
const dataDir = mkdtempSync(join(tmpdir(), "bench-scale-"));
try {
  let manifest = await deployStack({ rpcUrl: nodes[0]!.rpcUrl });
  const manifestPath = join(dataDir, "manifest.json");
  writeManifest(manifestPath, manifest);
  let client = createPublicClient({ transport: http(nodes[0]!.rpcUrl, { timeout: 300_000 }) });
  const bury = () => client.request({ method: "anvil_mine" as never, params: ["0x64"] as never });
  const head = () => client.getBlockNumber({ cacheTime: 0 });

  let t = performance.now();
  const ours = await launchOurTokens(manifest, client, { count: launches, perBlock: launchesPerBlock });
  await swapMany(manifest, client, ours, { swaps, swapsPerTransaction, transactionsPerBlock: 1 });
  const ourHistoryEnd = await head();
  const ourBuildSec = (performance.now() - t) / 1000;
  console.log(`our history built in ${ourBuildSec.toFixed(0)} s (head ${ourHistoryEnd})`);
  if (!values["single-node"]) {
    const fork = await startAnvil({ port: 0, gasLimit, historyStates: HISTORY_STATES, forkUrl: nodes[0]!.rpcUrl });
    nodes.push(fork);
    manifest = { ...manifest, rpcUrl: fork.rpcUrl };
    writeManifest(manifestPath, manifest);
    client = createPublicClient({ transport: http(fork.rpcUrl, { timeout: 300_000 }) });
    console.log(`forked at ${await head()} for the rest of the history`);
  }
  const rpcUrl = manifest.rpcUrl;
  await bury();

  const ourAddresses: Address[] = [...manifest.acceptedFactories, manifest.contracts.feeLocker, ...ours.pools];
  const start = BigInt(manifest.startBlock);

  /** Backfills the chain from scratch on a fresh database through a fresh counting proxy. */
  async function backfill(
    name: string,
    historyEnd: bigint,
    env: NodeJS.ProcessEnv = {},
    appDir?: string,
    nodeArgs: string[] = [],
  ): Promise<Backfill> {
    const database = await createDevnetDatabase(`bench_scale_${name}`);
    const proxy = await startRpcProxy({ target: rpcUrl });
    const started = performance.now();
    const service = await startPonder({
      port: await findFreePort(),
      schema: `bench_scale_${name}`,
      cwd: appDir,
      nodeArgs,
      env: {
        DEPLOYMENT_MANIFEST: manifestPath,
        DATABASE_URL: database.url,
        STORE_SCHEMA: `bench_scale_store_${name}`,
        INDEXER_RPC_URLS: proxy.url,
        ...env,
      },
    });
    try {
      let peak: number | null = null;
      let readyWallMs: number | null = null;
      const sampler = setInterval(() => {
        const rss = rssBytes(service.child.pid!);
        if (rss) peak = Math.max(peak ?? 0, rss.peak, rss.current);
      }, 200);
      try {
        await waitReady(service.url, 900_000, { path: "/ready" });
        readyWallMs = Date.now();
      } finally {
        clearInterval(sampler);
      }
      const seconds = (performance.now() - started) / 1000;
      const final = rssBytes(service.child.pid!);
      if (final) peak = Math.max(peak ?? 0, final.peak);
      const fetchStartMs = logTimeMs(service.output(), "Started fetching backfill JSON-RPC data");
      // /ready is the service's own route (no Ponder log line): the wall clock when it answered.
      const readyMs = readyWallMs;
      const traffic: RpcTraffic = proxy.traffic();
      const inHistory = new Set(traffic.fetchedBlockNumbers.filter((b) => b > Number(start) && b <= historyEnd));
      const run: Backfill = {
        name,
        seconds,
        indexingSeconds: fetchStartMs !== null && readyMs !== null ? (readyMs - fetchStartMs) / 1000 : null,
        peakRssBytes: peak,
        calls: traffic.calls,
        requests: Object.values(traffic.calls).reduce((a, b) => a + b, 0),
        getLogsWithoutAddress: traffic.getLogsWithoutAddress,
        responseBytes: traffic.responseBytes,
        responseBytesByMethod: traffic.responseBytesByMethod,
        blocksFetched: traffic.blocksFetched,
        blocksFetchedInHistory: inHistory.size,
      };
      console.log(
        `${name}: ready after ${seconds.toFixed(1)} s (indexing ${run.indexingSeconds?.toFixed(1)} s), ${run.requests} requests, ${run.blocksFetchedInHistory} blocks fetched in history, ${(run.responseBytes / 1e6).toFixed(1)} MB, peak RSS ${((peak ?? 0) / 2 ** 20).toFixed(0)} MB; calls ${JSON.stringify(run.calls)}, bytes ${JSON.stringify(run.responseBytesByMethod)}`,
      );
      return run;
    } finally {
      await service.stop();
      await proxy.stop();
      await database.drop();
    }
  }

  // The first backfill meets cold caches (the fork node fetching blocks and logs from the first
  // node, PostgreSQL): two 5,000-launch runs measured the later backfills 0.68x the first. A
  // warm-up backfill, discarded from the ratios, puts every measured one on the same footing.
  const warmup = values["no-warmup"] ? null : await backfill("warmup", ourHistoryEnd);
  const baseline = await backfill("baseline", ourHistoryEnd);

  t = performance.now();
  const foreign = await launchForeignPools(manifest, client, {
    count: history.foreignPools,
    perBlock: launchesPerBlock,
  });
  const foreignSwapped = await swapMany(manifest, client, foreign, {
    swaps: foreignSwaps,
    swapsPerTransaction: foreignSwapsPerTransaction,
    transactionsPerBlock: 1,
    senderIndex: 3,
  });
  const historyEnd = await head();
  const foreignBuildSec = (performance.now() - t) / 1000;
  console.log(
    `foreign traffic built in ${foreignBuildSec.toFixed(0)} s: ${foreignSwaps} swaps in ${foreignSwapped.blocks} blocks (head ${historyEnd})`,
  );
  await bury();
  const ourBlocks = await blocksWithLogs(client, ourAddresses, start + 1n, historyEnd);
  const foreignBlocks = await blocksWithLogs(client, foreign.pools, start + 1n, historyEnd);

  const withForeign = await backfill("foreign", historyEnd, {}, undefined, cpuProfileArgs(values["cpu-prof-dir"]));
  const extra: Backfill[] = [];
  for (const variant of variants) {
    if (variant === "threshold")
      extra.push(await backfill("foreign_threshold", historyEnd, { PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD: "100000" }));
    else if (variant === "unpatched") {
      execFileSync("npx", ["patch-package", "--reverse"], { stdio: "inherit" });
      try {
        extra.push(await backfill("foreign_unpatched", historyEnd));
      } finally {
        execFileSync("npx", ["patch-package"], { stdio: "inherit" });
      }
    } else if (variant === "ponder-floor")
      extra.push(
        await backfill(
          "foreign_ponder_floor",
          historyEnd,
          {},
          join(process.cwd(), "bench", "ponder-floor"),
          cpuProfileArgs(values["cpu-prof-dir"] && join(values["cpu-prof-dir"], "floor")),
        ),
      );
    else throw new Error(`unknown variant ${variant}`);
  }

  const ratio = (a: number | null, b: number | null) => (a !== null && b !== null && b > 0 ? a / b : null);
  const backfillRatio = ratio(withForeign.indexingSeconds, baseline.indexingSeconds);
  const blocksRatio = ratio(withForeign.blocksFetchedInHistory, ourBlocks.length);
  const ponderFloor = extra.find((v) => v.name === "foreign_ponder_floor");
  const floorRatio = ponderFloor ? ratio(withForeign.indexingSeconds, ponderFloor.indexingSeconds) : null;
  const result = {
    benchmark: "scale",
    measuredAt: new Date().toISOString(),
    machine: load.machine(),
    nodes: {
      count: nodes.length,
      forkedAtBlock: nodes.length > 1 ? Number(ourHistoryEnd) : null,
      historyStatesInMemoryOnly: HISTORY_STATES,
      peakRssBytes: nodesRss.peakBytes,
    },
    database: "postgres",
    indexerRpcUrls: 1,
    history: {
      launches,
      launchesPerBlock,
      swaps,
      swapsPerTransaction,
      ourHistoryBlocks: Number(ourHistoryEnd - start),
      blocksWithOurLogs: ourBlocks.length,
      foreignPools: foreign.pools.length,
      foreignSwaps,
      foreignSwapsPerTransaction,
      foreignBlocks: foreignBlocks.length,
      historyBlocks: Number(historyEnd - start),
      buildSeconds: { ours: ourBuildSec, foreign: foreignBuildSec },
    },
    warmup,
    baseline,
    withForeign,
    variants: extra,
    ratios: {
      backfillWithForeignToBaseline: backfillRatio,
      blocksFetchedToBlocksWithOurLogs: blocksRatio,
      bytesWithForeignToBaseline: ratio(withForeign.responseBytes, baseline.responseBytes),
      requestsWithForeignToBaseline: ratio(withForeign.requests, baseline.requests),
      ...Object.fromEntries(
        extra.flatMap((v) => [
          [`backfill_${v.name}_ToBaseline`, ratio(v.indexingSeconds, baseline.indexingSeconds)],
          [`blocksFetched_${v.name}_ToBlocksWithOurLogs`, ratio(v.blocksFetchedInHistory, ourBlocks.length)],
        ]),
      ),
    },
    targets: {
      backfill: {
        target: "indexing with foreign traffic <= 1.2x the baseline (same launches and swaps, no foreign traffic)",
        value: backfillRatio,
        met: backfillRatio !== null && backfillRatio <= 1.2,
      },
      blocksFetched: {
        target: "blocks fetched within the history <= 1.2x the blocks holding our logs",
        value: blocksRatio,
        met: blocksRatio !== null && blocksRatio <= 1.2,
      },
      ...(ponderFloor
        ? {
            serviceToPonderFloor: {
              target:
                "service indexing with foreign traffic <= 1.1x the Ponder floor (bench/ponder-floor) on the same chain",
              value: floorRatio,
              met: floorRatio !== null && floorRatio <= 1.1,
            },
          }
        : {}),
    },
  };
  writeBenchResult(values.out ?? `scale-${launches}`, result);
} finally {
  load.stop();
  for (const node of nodes.reverse()) await node.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
