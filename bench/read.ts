/**
 * Read-throughput benchmark (throughput and memory): index a devnet history of
 * `--swaps` trades (default 1,000,000) from scratch, recording the time, swaps/s, the floor (viem
 * `getLogs` of the same logs) and the service's peak RSS; then load the read endpoints with
 * autocannon (`--connections`, default 64) next to the baseline measured in the same run and the
 * same process: `GET /api/public`, a static Hono JSON answer that passes through the same
 * middleware (request id, metrics, rate limiter) but reads no table.
 *
 * Endpoints (public surface, the hot token that holds `--hot-share` of the history):
 * - token: `/api/public/token/{address}`
 * - trades: `/api/public/token/{address}/trades?limit=100`
 * - candles: `/api/public/token/{address}/candles?resolution=1m` over the history's busiest day
 * - candles 1s: `…/candles?resolution=1s` over the 1,440 seconds up to the hot token's newest
 *   trade (docs/public.md "Second bars")
 * - integrity: `/api/public/token/{address}/integrity` (docs/public.md "Launch integrity")
 * - batch 30: `/api/public/tokens?addresses=…` with the 30 newest launches (docs/public.md "Batch reads")
 * - trending: `/api/public/tokens/trending?limit=20`, and two top lists,
 *   `/api/public/tokens/top?window=h1&sort=gainers&limit=20` and `…window=h24&sort=volume…`: the
 *   rankings over every launch (docs/public.md "Top lists"; the history's trades are all inside
 *   every window, so every launch is a candidate)
 * Targets: each >= 0.5x the baseline's requests/s, p99 <= 20 ms; peak RSS <= 500 MB.
 *
 * Usage: `npm run bench -- read [--launches 100] [--launches-per-block 60] [--swaps 1000000] [--swaps-per-transaction 500]
 * [--database postgres|pglite] [--duration-sec 15] [--connections 64] [--cache-mb N] [--heap-mb N]
 * [--keep] [--uncached]`. `--uncached` turns the read cache off (`READ_CACHE_TTL_MS=0`), so every
 * request computes its answer (the history is static: with the cache, all but the first request
 * of each URL are hits); results go to `read-uncached.json`. `--cache-mb` sets Ponder's indexing cache (`PONDER_CACHE_BYTES`), `--heap-mb` the
 * service's V8 heap limit (`--max-old-space-size`); `--cpu-prof-dir D` writes the service's CPU
 * profile (V8 `.cpuprofile`) to D when it stops. Results: `bench/results/latest/read.json` (`read-<launches>.json` when
 * `--launches` is not 100).
 *
 * The history is built on two nodes, as the scale benchmark builds it (bench/scale.ts): the
 * launches, `--launches-per-block` to a block (default 60), on a first node that keeps every
 * historical state in memory (the indexer reads pool state at each launch block); the swaps and
 * the burial blocks on a second node that forks the first at its last launch, where a block costs
 * only the state touched since the fork. (Anvil clones its whole state for every block it mines:
 * one launch per block cost ~7.5 MB a block at 1,800 launches and could not reach 10,000 launches
 * on this machine's disk or memory.) Swaps are batched `--swaps-per-transaction` (default 500,
 * ~40M gas) and buried under 200 empty blocks, so 1,000,000 swaps take ~2,300 blocks. Denser
 * batches reach the same count in fewer blocks but inflate Ponder's minimum backfill interval
 * (25 blocks, held in memory at once): 2,000 per transaction peaked at 2.7 GB (README).
 *
 * Indexing a million swaps takes tens of minutes. `--keep` (PostgreSQL) keeps the indexed database
 * and writes `bench/.data/read-keep.json`; `npm run bench -- read --reuse` then runs only the load
 * phase, on an API replica (`ponder serve`) over that database, and keeps the indexing figures of
 * the run that built it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createPublicClient, http, numberToHex } from "viem";
import { findFreePort, startAnvil, type AnvilInstance } from "../devnet/anvil";
import { deployStack } from "../devnet/deploy";
import { writeManifest } from "../devnet/manifest";
import { startPonder } from "../scripts/ponderProcess";
import { createDevnetDatabase, type DevnetDatabase } from "../test/helpers/postgres";
import { buildHistory } from "./history";
import { measureLogFloor, rssBytes, waitForIndexedTrades } from "./indexing";
import {
  cpuProfileArgs,
  HISTORY_STATES,
  launchOurTokens,
  nodesPeakRss,
  parseBenchFlags,
  sampleMachineLoad,
  scaleGasLimit,
  writeBenchResult,
} from "./harness";

const values = parseBenchFlags("read", {
  launches: { type: "string", default: "100" },
  "launches-per-block": { type: "string", default: "60" },
  swaps: { type: "string", default: "1000000" },
  database: { type: "string", default: "postgres" },
  "duration-sec": { type: "string", default: "15" },
  connections: { type: "string", default: "64" },
  "hot-share": { type: "string", default: "0.5" },
  "seconds-per-transaction": { type: "string", default: "30" },
  "swaps-per-transaction": { type: "string", default: "500" },
  "cache-mb": { type: "string" },
  "heap-mb": { type: "string" },
  "cpu-prof-dir": { type: "string" },
  keep: { type: "boolean", default: false },
  reuse: { type: "boolean", default: false },
  uncached: { type: "boolean", default: false },
});
const launches = Number(values.launches);
const launchesPerBlock = Number(values["launches-per-block"]);
const swaps = Number(values.swaps);
const onPostgres = values.database === "postgres";
const durationSec = Number(values["duration-sec"]);
const connections = Number(values.connections);
const secondsPerTransaction = Number(values["seconds-per-transaction"]);
const swapsPerTransaction = Number(values["swaps-per-transaction"]);
/** Room for a block of launches, and for a batch of `swapsPerTransaction` swaps (~80k gas each). */
const launchBlockGas = scaleGasLimit(launchesPerBlock);
const swapBatchGas = BigInt(swapsPerTransaction * 150_000);
const blockGasLimit = launchBlockGas > swapBatchGas ? launchBlockGas : swapBatchGas;

/** One autocannon run against `url`. */
async function load(name: string, url: string) {
  const result = await autocannon({ url, connections, duration: durationSec, pipelining: 1 });
  const figures = {
    name,
    path: new URL(url).pathname + new URL(url).search,
    requestsPerSecond: result.requests.average,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    requests: result.requests.total,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
    ),
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerResponse: result.requests.total ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
  console.log(
    `${name.padEnd(10)} ${figures.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${figures.latencyMs.p50} ms  p99 ${figures.latencyMs.p99} ms  non-2xx ${figures.non2xx} ${JSON.stringify(figures.statusCodes)}  errors ${figures.errors}`,
  );
  return figures;
}

/** What the load phase needs from an indexed history (also what `--keep` writes). */
type Indexed = {
  schema: string;
  database: string;
  /** PostgreSQL: the devnet's own database (see `createDevnetDatabase`). */
  databaseUrl: string;
  manifestPath: string;
  hotToken: string;
  candlesPath: string;
  candlesIn1Day: number;
  /** Absent in a kept run from before second bars and batch reads were benchmarked. */
  secondBarsPath?: string;
  batchPath?: string;
  newestToken?: string;
  history: Record<string, number>;
  backfill: Record<string, unknown>;
  memory: Record<string, unknown>;
};
const keepFile = "bench/.data/read-keep.json";

/** Builds the history on a fresh devnet and indexes it from scratch with `ponder start`. */
async function indexPhase(): Promise<void> {
  const nodes: AnvilInstance[] = [
    await startAnvil({ port: 0, gasLimit: blockGasLimit, historyStates: HISTORY_STATES }),
  ];
  const nodesRss = nodesPeakRss(nodes);
  const dataDir = mkdtempSync(join(tmpdir(), "bench-read-"));
  const schema = "bench_read";
  const database: DevnetDatabase | null = onPostgres ? await createDevnetDatabase("bench_read") : null;
  let keepDatabase = false;
  try {
    const historyManifest = await deployStack({ rpcUrl: nodes[0]!.rpcUrl });
    console.log(`building history: ${launches} launches, ${swaps} swaps, ${values["hot-share"]} of them on one token`);
    const generationStart = performance.now();
    const launched = await launchOurTokens(
      historyManifest,
      createPublicClient({ transport: http(nodes[0]!.rpcUrl, { timeout: 300_000 }) }),
      { count: launches, perBlock: launchesPerBlock },
    );
    nodesRss.sample();
    nodes.push(
      await startAnvil({
        port: 0,
        gasLimit: blockGasLimit,
        historyStates: HISTORY_STATES,
        forkUrl: nodes[0]!.rpcUrl,
      }),
    );
    const manifest = { ...historyManifest, rpcUrl: nodes[1]!.rpcUrl };
    const manifestPath = values.keep ? join("bench/.data", "read-manifest.json") : join(dataDir, "manifest.json");
    mkdirSync("bench/.data", { recursive: true });
    writeManifest(manifestPath, manifest);
    const client = createPublicClient({ transport: http(manifest.rpcUrl, { timeout: 300_000 }) });
    const history = await buildHistory(manifest, {
      launches,
      launched,
      swaps,
      swapsPerTransaction,
      hotShare: Number(values["hot-share"]),
      secondsPerTransaction,
    });
    const generationSec = (performance.now() - generationStart) / 1000;
    console.log(
      `history built in ${generationSec.toFixed(1)} s (${history.swapTransactions} swap transactions, head ${history.lastBlock})`,
    );
    // Bury the history under empty blocks: the service backfills it in its historical mode.
    await client.request({ method: "anvil_mine" as never, params: [numberToHex(200)] as never });

    // As many swaps per getLogs request as 20 blocks of 300-swap batches.
    const floor = await measureLogFloor(
      client,
      manifest,
      history.pools,
      history.lastBlock,
      Math.max(1, Math.floor(6_000 / swapsPerTransaction)),
    );
    console.log(`floor: ${floor.logs} logs fetched and decoded in ${floor.seconds.toFixed(2)} s`);

    const serviceStart = performance.now();
    const nodeSampler = setInterval(nodesRss.sample, 1_000);
    const service = await startPonder({
      port: await findFreePort(),
      schema,
      nodeArgs: cpuProfileArgs(values["cpu-prof-dir"]),
      env: {
        ...serviceEnv(manifestPath, dataDir, database?.url ?? ""),
        ...(values["cache-mb"] ? { PONDER_CACHE_BYTES: String(Number(values["cache-mb"]) * 1024 * 1024) } : {}),
        ...(values["heap-mb"] ? { NODE_OPTIONS: `--max-old-space-size=${Number(values["heap-mb"])}` } : {}),
      },
    });
    try {
      const indexed = await waitForIndexedTrades(service.url, service.child.pid!, {
        launches,
        swaps,
        pollMs: 1_000,
        exited: () =>
          service.child.exitCode !== null || service.child.signalCode !== null
            ? `code ${service.child.exitCode} signal ${service.child.signalCode}\n${service.output().slice(-4000)}`
            : null,
        onProgress: (trades) =>
          console.log(
            `  indexed ${trades} trades after ${((performance.now() - serviceStart) / 1000).toFixed(0)} s, rss ${((rssBytes(service.child.pid!)?.current ?? 0) / 2 ** 20).toFixed(0)} MB`,
          ),
      });
      const indexSec = (performance.now() - serviceStart) / 1000;
      console.log(
        `indexed ${indexed.trades} trades in ${indexSec.toFixed(1)} s; peak RSS ${((indexed.peakRssBytes ?? 0) / 2 ** 20).toFixed(0)} MB`,
      );

      const hot = history.tokens[0]!;
      // The busiest day: the hot token's first day after launch holds the most 1m candles.
      const launchTimestampSec = Number(
        (
          (await (await fetch(`${service.url}/api/public/token/${hot}`)).json()) as {
            token: { launch_timestamp_sec: number };
          }
        ).token.launch_timestamp_sec,
      );
      const candlesPath = `/api/public/token/${hot}/candles?resolution=1m&from=${launchTimestampSec}&to=${launchTimestampSec + 86_400 - 60}`;
      const candlesIn1Day = ((await (await fetch(`${service.url}${candlesPath}`)).json()) as { candles: unknown[] })
        .candles.length;
      // Second bars: the hot token's last 1,440 seconds up to its newest trade (inside the 24 h retention).
      const newestTradeSec = (
        (await (await fetch(`${service.url}/api/public/token/${hot}/trades?limit=1`)).json()) as {
          trades: { timestamp_sec: number }[];
        }
      ).trades[0]!.timestamp_sec;
      const secondBarsPath = `/api/public/token/${hot}/candles?resolution=1s&from=${newestTradeSec - 1_439}&to=${newestTradeSec + 1}`;
      // The batch read: the 30 newest launches (the most a call takes), newest first.
      const batchPath = `/api/public/tokens?addresses=${history.tokens.slice(-30).reverse().join(",")}`;
      const run: Indexed = {
        schema,
        database: values.database!,
        databaseUrl: database?.url ?? "",
        manifestPath,
        hotToken: hot,
        candlesPath,
        candlesIn1Day,
        secondBarsPath,
        batchPath,
        newestToken: history.tokens.at(-1)!,
        history: {
          launches,
          launchesPerBlock,
          swaps,
          swapsPerTransaction,
          hotShare: Number(values["hot-share"]),
          secondsPerTransaction,
          swapTransactions: history.swapTransactions,
          generationSeconds: generationSec,
        },
        backfill: {
          floor: { seconds: floor.seconds, logs: floor.logs },
          service: { seconds: indexSec, swapsPerSecond: swaps / indexSec, includesStartup: true },
          ratioToFloor: indexSec / floor.seconds,
        },
        memory: {
          cacheMb: values["cache-mb"] ? Number(values["cache-mb"]) : "ponder default (heap limit / 5)",
          heapMb: values["heap-mb"] ? Number(values["heap-mb"]) : "node default",
          peakRssBytesWhileIndexing: indexed.peakRssBytes,
          nodesPeakRssBytes: nodesRss.peakBytes,
          target: "peak RSS <= 500 MB",
        },
      };
      if (values.keep && onPostgres) {
        writeFileSync(keepFile, `${JSON.stringify(run, null, 2)}\n`);
        keepDatabase = true;
        console.log(`kept database ${database!.name}: re-run the load phase with \`npm run bench -- read --reuse\``);
      }
      await loadPhase(service.url, run);
    } finally {
      clearInterval(nodeSampler);
      await service.stop();
    }
  } finally {
    for (const node of nodes.reverse()) await node.stop();
    if (database && !keepDatabase) await database.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The service's environment for the bench: no public rate limit and no per-client connection cap
 * in the way of the load (one client, autocannon's `--connections` beside this script's own
 * keep-alive connections: at the default cap of 64 the first run's extra connections were
 * answered 429 `too_many_connections`).
 */
function serviceEnv(manifestPath: string, dataDir: string, databaseUrl: string): NodeJS.ProcessEnv {
  return {
    DEPLOYMENT_MANIFEST: manifestPath,
    PONDER_PGLITE_DIR: join(dataDir, "pglite"),
    STORE_PGLITE_DIR: join(dataDir, "store"),
    DATABASE_URL: databaseUrl,
    PUBLIC_RATE_LIMIT_PER_MINUTE: "1000000000",
    HTTP_MAX_CONNECTIONS_PER_CLIENT: String(connections + 64),
    ...(values.uncached ? { READ_CACHE_TTL_MS: "0" } : {}),
  };
}

/**
 * Waits until the service's creator-funding scan (launches/creatorFunding.ts, in launch order)
 * has settled the newest launch: at 10,000 launches the scan is still reading the node for a
 * minute after `/ready`, and a load measured beside it measures the scan too.
 * @throws after 10 minutes
 */
async function untilCreatorFundingSettled(serviceUrl: string, newestToken: string): Promise<void> {
  const deadline = performance.now() + 600_000;
  for (;;) {
    const body = (await (await fetch(`${serviceUrl}/api/public/token/${newestToken}/integrity`)).json()) as {
      integrity?: { creator_funded?: { status?: string } };
    };
    const status = body.integrity?.creator_funded?.status;
    if (status && status !== "pending") return;
    if (performance.now() > deadline) throw new Error(`creator-funding scan not settled: ${status}`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** Loads the baseline and the read endpoints with autocannon; writes the results file. */
async function loadPhase(serviceUrl: string, run: Indexed): Promise<void> {
  const hot = run.hotToken;
  // The load phase's machine record (the index phase's load is the service's own backfill).
  const machineLoad = sampleMachineLoad();
  const scanStart = performance.now();
  if (run.newestToken) await untilCreatorFundingSettled(serviceUrl, run.newestToken);
  console.log(`creator-funding scan settled after ${((performance.now() - scanStart) / 1000).toFixed(1)} s more`);
  const tradesPage = (
    (await (await fetch(`${serviceUrl}/api/public/token/${hot}/trades?limit=100`)).json()) as { trades: unknown[] }
  ).trades.length;
  console.log(`hot token ${hot}: ${run.candlesIn1Day} 1m candles in its first day, trades page of ${tradesPage}`);
  const runs = [];
  runs.push(await load("baseline", `${serviceUrl}/api/public`));
  runs.push(await load("token", `${serviceUrl}/api/public/token/${hot}`));
  runs.push(await load("trades", `${serviceUrl}/api/public/token/${hot}/trades?limit=100`));
  runs.push(await load("candles", `${serviceUrl}${run.candlesPath}`));
  if (run.secondBarsPath) runs.push(await load("candles 1s", `${serviceUrl}${run.secondBarsPath}`));
  runs.push(await load("integrity", `${serviceUrl}/api/public/token/${hot}/integrity`));
  if (run.batchPath) runs.push(await load("batch 30", `${serviceUrl}${run.batchPath}`));
  runs.push(await load("trending", `${serviceUrl}/api/public/tokens/trending?limit=20`));
  runs.push(await load("top h1 gainers", `${serviceUrl}/api/public/tokens/top?window=h1&sort=gainers&limit=20`));
  runs.push(await load("top h24 volume", `${serviceUrl}/api/public/tokens/top?window=h24&sort=volume&limit=20`));
  runs.push(await load("baseline", `${serviceUrl}/api/public`));
  const baselines = runs.filter((r) => r.name === "baseline");
  const baselineRps = baselines.reduce((sum, r) => sum + r.requestsPerSecond, 0) / baselines.length;
  const endpoints = runs
    .filter((r) => r.name !== "baseline")
    .map((r) => ({
      ...r,
      ratioToBaseline: r.requestsPerSecond / baselineRps,
      meetsTarget: r.requestsPerSecond / baselineRps >= 0.5 && r.latencyMs.p99 <= 20,
    }));
  const result = {
    benchmark: "read",
    measuredAt: new Date().toISOString(),
    machine: machineLoad.machine(),
    database: run.database,
    servedBy: values.reuse ? "ponder serve (API replica) over the kept schema" : "ponder start (the indexing service)",
    history: run.history,
    backfill: run.backfill,
    memory: run.memory,
    load: {
      connections,
      durationSec,
      baseline: { requestsPerSecond: baselineRps, runs: baselines },
      endpoints,
      hotToken: hot,
      candlesIn1Day: run.candlesIn1Day,
    },
    target: "each endpoint >= 0.5x baseline requests/s and p99 <= 20 ms",
    readCache: values.uncached ? "off (READ_CACHE_TTL_MS=0)" : "on",
    targets: endpoints.flatMap((e) => [
      { name: `${e.name}: requests/s / baseline >= 0.5`, value: e.ratioToBaseline, met: e.ratioToBaseline >= 0.5 },
      { name: `${e.name}: p99 ms <= 20`, value: e.latencyMs.p99, met: e.latencyMs.p99 <= 20 },
    ]),
  };
  machineLoad.stop();
  writeBenchResult(
    `read${run.history.launches === 100 ? "" : `-${run.history.launches}`}${run.database === "postgres" ? "" : "-pglite"}${values.uncached ? "-uncached" : ""}`,
    result,
  );
}

if (values.reuse) {
  const run = JSON.parse(readFileSync(keepFile, "utf8")) as Indexed;
  const dataDir = mkdtempSync(join(tmpdir(), "bench-read-"));
  const replicaPort = await findFreePort();
  const service = await startPonder({
    command: "serve",
    port: replicaPort,
    schema: run.schema,
    // A replica needs its public origin (ops/replicaConfig.ts).
    env: {
      ...serviceEnv(run.manifestPath, dataDir, run.databaseUrl),
      PUBLIC_BASE_URL: `http://localhost:${replicaPort}`,
    },
  });
  try {
    await loadPhase(service.url, run);
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
} else {
  await indexPhase();
}
