/**
 * Backfill benchmark: how long the service takes to index a history from scratch (every table, all
 * six candle resolutions), against two floors measured in the same run:
 * - the **getLogs floor** (the issue's target, <= 2x): the same logs fetched and decoded by viem
 *   `getLogs` alone, measured before and after the services (mean of the two);
 * - the **Ponder pipeline floor**: Ponder indexing the same events with functions that do nothing
 *   (`bench/ponder-floor/`), which splits the service's time into Ponder's part and ours.
 * Each service is timed from its spawn to `/ready` (whole) and, from its JSON log, from "Started
 * fetching backfill JSON-RPC data" to "Started returning 200 responses" (indexing, without
 * Ponder's start-up). The service must then serve every trade. Reports ratios, swaps/s and peak RSS.
 * Usage: `npm run bench -- backfill [--launches 100] [--swaps 100000] [--swaps-per-transaction 150]
 * [--database pglite|postgres] [--rpc-urls N] [--heap-mb N] [--service-heaps none,N,...] [--skip-service] [--log-dir D]
 * [--cpu-prof-dir D] [--trade-rows-floor]`.
 * `--rpc-urls N` gives both indexers the anvil URL N times (`INDEXER_RPC_URLS`: Ponder rate-limits
 * each URL on its own, starting at 20 requests/s), `--heap-mb` caps their V8 heap,
 * `--service-heaps none,448` indexes the same history with the service once per heap setting
 * (`none`: Node's default, unbounded in practice; N: `--max-old-space-size=N`), one after the
 * other in the same run, so a bound's peak RSS and time compare with the unbounded run's (the
 * first entry is the reference; the floors keep `--heap-mb`),
 * `--skip-service` measures only the floors (e.g. Ponder's own memory at 1,000,000 swaps), and
 * `--log-dir` keeps each indexer's JSON log (its per-range "Indexed block range" lines), and
 * `--cpu-prof-dir` writes the service's V8 CPU profile there (it includes Ponder's start-up), and
 * `--trade-rows-floor` adds a third floor: Ponder writing one trade row per swap and nothing else
 * (`PONDER_FLOOR_WRITES=trades`, bench/ponder-floor), the least any service that serves trades
 * writes, so its ratio to the plain floor bounds how close to it a service can come.
 * Results: `bench/results/latest/backfill[-postgres][-Nrpc][-ponder-floor][-swaps].json`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, http, numberToHex } from "viem";
import { findFreePort, startAnvil } from "../devnet/anvil";
import { deployStack } from "../devnet/deploy";
import { writeManifest } from "../devnet/manifest";
import { startPonder } from "../scripts/ponderProcess";
import { createDevnetDatabase } from "../test/helpers/postgres";
import { buildHistory } from "./history";
import { logTimeMs, measureLogFloor, rssBytes, waitForIndexedTrades } from "./indexing";
import { cpuProfileArgs, parseBenchFlags, sampleMachineLoad, writeBenchResult } from "./harness";
import type { Target } from "./latest";

const values = parseBenchFlags("backfill", {
  launches: { type: "string", default: "100" },
  swaps: { type: "string", default: "100000" },
  database: { type: "string", default: "pglite" },
  "log-dir": { type: "string" },
  "rpc-urls": { type: "string", default: "1" },
  "swaps-per-transaction": { type: "string", default: "150" },
  "heap-mb": { type: "string" },
  "service-heaps": { type: "string" },
  "skip-service": { type: "boolean", default: false },
  "cpu-prof-dir": { type: "string" },
  "trade-rows-floor": { type: "boolean", default: false },
  "rpc-max-rps": { type: "string" },
});
const launches = Number(values.launches);
const swaps = Number(values.swaps);
const onPostgres = values.database === "postgres";
/** How many RPC URLs the indexers get (`INDEXER_RPC_URLS`; the same anvil, standing in for N providers). */
const rpcUrls = Number(values["rpc-urls"]);
/**
 * The provider budget both indexers get (`--rpc-max-rps`: `INDEXER_RPC_MAX_RPS` and
 * `INDEXER_RPC_START_RPS`, docs/operations.md "Provider budget"), null for Ponder's default limiter.
 */
const rpcMaxRps = values["rpc-max-rps"] ? Number(values["rpc-max-rps"]) : null;
const swapsPerTransaction = Number(values["swaps-per-transaction"]);
/** Room for a batch of `swapsPerTransaction` swaps (~80k gas each) in one block. */
const blockGasLimit = BigInt(Math.max(30_000_000, swapsPerTransaction * 150_000));
/** The floors' heap cap in MB (`--heap-mb`), null for Node's default. */
const floorHeapMb = values["heap-mb"] ? Number(values["heap-mb"]) : null;
/** The service's heap caps, one run each on the same history (`--service-heaps`; null: Node's default). */
const serviceHeaps: (number | null)[] = values["service-heaps"]
  ? values["service-heaps"].split(",").map((h) => (h.trim() === "none" ? null : Number(h)))
  : [floorHeapMb];
/** The issue's memory bound for the 1,000,000-swap backfill: peak RSS (MB) and time against an unbounded run. */
const RSS_BOUND_MB = 600;
const BOUNDED_TIME_RATIO = 1.1;
const heapEnv = (heapMb: number | null) => (heapMb === null ? {} : { NODE_OPTIONS: `--max-old-space-size=${heapMb}` });

/** One indexer run: whole time (spawn to `/ready`), indexing time (from its log), peak RSS. */
type IndexerRun = {
  seconds: number;
  indexingSeconds: number | null;
  startupSeconds: number | null;
  peakRssBytes: number | null;
};

const load = sampleMachineLoad();
const anvil = await startAnvil({ port: 0, gasLimit: blockGasLimit });
const dataDir = mkdtempSync(join(tmpdir(), "bench-backfill-"));
try {
  const manifest = await deployStack({ rpcUrl: anvil.rpcUrl });
  const manifestPath = join(dataDir, "manifest.json");
  writeManifest(manifestPath, manifest);
  console.log(`building history: ${launches} launches, ${swaps} swaps`);
  const generationStart = performance.now();
  const history = await buildHistory(manifest, { launches, swaps, swapsPerTransaction });
  const client = createPublicClient({ transport: http(anvil.rpcUrl, { timeout: 300_000 }) });
  const generationSec = (performance.now() - generationStart) / 1000;
  console.log(
    `history built in ${generationSec.toFixed(1)} s (${history.swapTransactions} swap transactions, head ${history.lastBlock})`,
  );

  // A backfill indexes history older than the finality depth: bury it under empty blocks so the
  // service indexes it in its historical (batched) mode, as it would after a real outage or deploy.
  for (let i = 0; i < 10; i++)
    await client.request({ method: "anvil_mine" as never, params: [numberToHex(100)] as never });

  // Requests of ~6,000 logs each (viem caps a response at 10 MB).
  const floorBlocksPerRequest = Math.max(1, Math.floor(6_000 / swapsPerTransaction));
  const floorBefore = await measureLogFloor(client, manifest, history.pools, history.lastBlock, floorBlocksPerRequest);
  console.log(`getLogs floor: ${floorBefore.logs} logs fetched and decoded in ${floorBefore.seconds.toFixed(2)} s`);

  /**
   * Indexes the history from scratch with the Ponder app in `cwd` (the service when undefined),
   * on a database of its own, until `/ready`; `check` then runs against the live service.
   */
  async function indexFromScratch(
    name: string,
    cwd: string | undefined,
    check?: (url: string, pid: number) => Promise<unknown>,
    nodeArgs: string[] = [],
    extraEnv: NodeJS.ProcessEnv = {},
  ): Promise<IndexerRun> {
    // A database of this run's own (Ponder's raw-data cache is per database, keyed by chain id).
    const database = onPostgres ? await createDevnetDatabase(`bench_backfill_${name}`) : null;
    const started = performance.now();
    const service = await startPonder({
      port: await findFreePort(),
      schema: `bench_backfill_${name}`,
      cwd,
      nodeArgs,
      env: {
        DEPLOYMENT_MANIFEST: manifestPath,
        // Ponder's own /ready on the indexer, as the floor (bench/ponder-floor) answers it.
        PONDER_READY_ON_INDEXER: "1",
        PONDER_PGLITE_DIR: join(dataDir, `pglite-${name}`),
        DATABASE_URL: database?.url ?? "",
        INDEXER_RPC_URLS: rpcUrls > 1 ? Array(rpcUrls).fill(anvil.rpcUrl).join(",") : "",
        ...(rpcMaxRps ? { INDEXER_RPC_MAX_RPS: String(rpcMaxRps), INDEXER_RPC_START_RPS: String(rpcMaxRps) } : {}),
        ...heapEnv(floorHeapMb),
        ...extraEnv,
      },
    });
    try {
      let peak: number | null = null;
      for (;;) {
        if (service.child.exitCode !== null)
          throw new Error(`${name} exited while indexing:\n${service.output().slice(-4000)}`);
        const rss = rssBytes(service.child.pid!);
        if (rss) peak = Math.max(peak ?? 0, rss.peak, rss.current);
        const ready = await fetch(`${service.url}/ready`).then(
          (r) => r.ok,
          () => false,
        );
        if (ready) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const seconds = (performance.now() - started) / 1000;
      if (values["log-dir"]) writeFileSync(join(values["log-dir"], `backfill-${name}.log`), service.output());
      await check?.(service.url, service.child.pid!);
      const fetchStartMs = logTimeMs(service.output(), "Started fetching backfill JSON-RPC data");
      const readyMs = logTimeMs(service.output(), "Started returning 200 responses", "/ready");
      const processStartMs = Date.now() - (performance.now() - started);
      const indexingSeconds = fetchStartMs !== null && readyMs !== null ? (readyMs - fetchStartMs) / 1000 : null;
      const startupSeconds = fetchStartMs !== null ? (fetchStartMs - processStartMs) / 1000 : null;
      const final = rssBytes(service.child.pid!);
      if (final) peak = Math.max(peak ?? 0, final.peak);
      console.log(
        `${name}: ready after ${seconds.toFixed(1)} s (indexing ${indexingSeconds?.toFixed(1)} s), peak RSS ${((peak ?? 0) / 2 ** 20).toFixed(0)} MB`,
      );
      return { seconds, indexingSeconds, startupSeconds, peakRssBytes: peak };
    } finally {
      await service.stop();
      await database?.drop();
    }
  }

  const floorApp = join(process.cwd(), "bench", "ponder-floor");
  const ponderFloor = await indexFromScratch("ponder_floor", floorApp);
  const tradeRowsFloor = values["trade-rows-floor"]
    ? await indexFromScratch("ponder_floor_trades", floorApp, undefined, [], { PONDER_FLOOR_WRITES: "trades" })
    : null;
  const serviceRuns: (IndexerRun & { heapMb: number | null })[] = [];
  for (const [i, heapMb] of (values["skip-service"] ? [] : serviceHeaps).entries()) {
    const run = await indexFromScratch(
      i === 0 ? "service" : `service_${i}`,
      undefined,
      async (url, pid) => {
        // Ready must mean every launch and every trade is served.
        const { trades } = await waitForIndexedTrades(url, pid, { launches, swaps });
        if (trades !== swaps) throw new Error(`the service serves ${trades} trades, the history has ${swaps}`);
      },
      i === 0 ? cpuProfileArgs(values["cpu-prof-dir"]) : [],
      heapEnv(heapMb),
    );
    serviceRuns.push({ heapMb, ...run });
  }
  const service = serviceRuns[0] ?? null;

  const floorAfter = await measureLogFloor(client, manifest, history.pools, history.lastBlock, floorBlocksPerRequest);
  console.log(`getLogs floor again: ${floorAfter.seconds.toFixed(2)} s`);
  const floorSec = (floorBefore.seconds + floorAfter.seconds) / 2;
  const ratio = (a: number | null, b: number | null) => (a !== null && b !== null && b > 0 ? a / b : null);
  load.stop();
  const targets = backfillTargets(service, serviceRuns, ponderFloor, floorSec);

  const result = {
    benchmark: "backfill",
    measuredAt: new Date().toISOString(),
    machine: load.machine(),
    database: values.database,
    launches,
    swaps,
    swapsPerTransaction,
    indexerRpcUrls: rpcUrls,
    indexerRpcMaxRps: rpcMaxRps ?? "Ponder's default limiter",
    heapMb: floorHeapMb ?? "node default",
    generation: { seconds: generationSec, swapTransactions: history.swapTransactions },
    floor: {
      what: "viem getLogs + decoding of the same TokenLaunched and Swap logs (mean of a run before and after the services)",
      seconds: floorSec,
      runsSeconds: [floorBefore.seconds, floorAfter.seconds],
      logs: floorBefore.logs,
      logsPerSecond: floorBefore.logs / floorSec,
    },
    ponderFloor: {
      what: "Ponder indexing the same events with functions that do nothing (bench/ponder-floor)",
      ...ponderFloor,
    },
    tradeRowsFloor: tradeRowsFloor && {
      what: "the Ponder floor writing one row of the service's trade shape per swap (PONDER_FLOOR_WRITES=trades): a lower bound for any service that serves trades",
      ...tradeRowsFloor,
      ratioToPonderFloor: ratio(tradeRowsFloor.indexingSeconds, ponderFloor.indexingSeconds),
    },
    service: service && {
      ...service,
      swapsPerSecond: swaps / service.seconds,
      indexingSwapsPerSecond: service.indexingSeconds ? swaps / service.indexingSeconds : null,
    },
    ratioToFloor: service && service.seconds / floorSec,
    indexingRatioToFloor: ratio(service?.indexingSeconds ?? null, floorSec),
    ponderFloorRatioToFloor: ratio(ponderFloor.indexingSeconds, floorSec),
    serviceRatioToPonderFloor: ratio(service?.indexingSeconds ?? null, ponderFloor.indexingSeconds),
    serviceHeaps:
      serviceRuns.length > 1
        ? serviceRuns.map((run) => ({
            ...run,
            heapMb: run.heapMb ?? "node default",
            peakRssMb: run.peakRssBytes === null ? null : run.peakRssBytes / 2 ** 20,
            indexingRatioToFirst: ratio(run.indexingSeconds, service?.indexingSeconds ?? null),
          }))
        : undefined,
    targets,
  };
  const heapsVariant = serviceRuns.length > 1 ? "-heaps" : "";
  const variant = `${onPostgres ? "-postgres" : ""}${rpcUrls > 1 ? `-${rpcUrls}rpc` : ""}${values["skip-service"] ? "-ponder-floor" : ""}${swaps !== 100_000 ? `-${swaps}` : ""}${heapsVariant}${rpcMaxRps ? "-budget" : ""}`;
  writeBenchResult(`backfill${variant}`, result);
} finally {
  load.stop();
  await anvil.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * The issue's targets this run measures (PostgreSQL, one URL): service / getLogs floor <= 5x
 * (indexing time), service / Ponder floor <= 1.1x (indexing time, both on the floors' heap
 * setting), and, when `--service-heaps` ran a bounded service after an unbounded one, each bound's
 * peak RSS <= 600 MB at <= 1.1x the unbounded run's time.
 */
function backfillTargets(
  service: (IndexerRun & { heapMb: number | null }) | null,
  runs: (IndexerRun & { heapMb: number | null })[],
  ponderFloor: IndexerRun,
  floorSec: number,
): Target[] {
  if (!service?.indexingSeconds) return [];
  const targets: Target[] = [];
  const at = `${swaps.toLocaleString("en-US")} swaps`;
  if (rpcUrls === 1 && onPostgres) {
    const value = service.indexingSeconds / floorSec;
    targets.push({ name: `backfill ${at}, 1 URL: service / getLogs floor <= 5x`, value, met: value <= 5 });
  }
  if (ponderFloor.indexingSeconds) {
    const value = service.indexingSeconds / ponderFloor.indexingSeconds;
    targets.push({ name: `backfill ${at}: service / Ponder floor <= 1.1x`, value, met: value <= 1.1 });
  }
  for (const run of runs.slice(1)) {
    if (run.heapMb === null || service.heapMb !== null) continue;
    const rssMb = run.peakRssBytes === null ? null : run.peakRssBytes / 2 ** 20;
    targets.push({
      name: `backfill ${at}, heap ${run.heapMb} MB: peak RSS <= ${RSS_BOUND_MB} MB`,
      value: rssMb,
      met: rssMb !== null && rssMb <= RSS_BOUND_MB,
    });
    const time = run.indexingSeconds === null ? null : run.indexingSeconds / service.indexingSeconds;
    targets.push({
      name: `backfill ${at}, heap ${run.heapMb} MB: time <= ${BOUNDED_TIME_RATIO}x the unbounded run's`,
      value: time,
      met: time !== null && time <= BOUNDED_TIME_RATIO,
    });
  }
  return targets;
}
