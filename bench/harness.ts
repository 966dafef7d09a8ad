/**
 * What the benchmarks share: flags parsed one way (every benchmark), the result file and the
 * machine record; and for `live`, `scale` and `scale-live` their common flags with the same
 * defaults, the load-average sampler, the scale history's first node and launches, and the
 * service start-up for a live measurement.
 */
import { cpus, loadavg } from "node:os";
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import type { PublicClient } from "viem";
import { findFreePort, startAnvil, type AnvilInstance } from "../devnet/anvil";
import { createDevnetClients, devAccount } from "../devnet/clients";
import { deployLookAlikeFactory } from "../devnet/deploy";
import type { DeploymentManifest } from "../devnet/manifest";
import { type PonderProcess, startPonder } from "../scripts/ponderProcess";
import { waitReady } from "../scripts/serviceReadiness";
import { rssBytes } from "./indexing";
import { writeLatestResult } from "./latest";
import { captureStageLines, lagReader, waitCaughtUp } from "./liveMeasure";
import { type Launched, launchMany } from "./scaleHistory";

/**
 * Parses a benchmark's flags from the command line (`npm run bench -- <benchmark> [flags]`): the
 * benchmark's own name is dropped, anything not in `options` is an error.
 * @param benchmark the name `bench/run.ts` dispatched on (e.g. `scale-live`)
 * @param options node's `parseArgs` options, with their defaults
 * @param argv the arguments after the script (default: this process's)
 * @returns the parsed values, typed from `options`
 * @throws TypeError (`ERR_PARSE_ARGS_UNKNOWN_OPTION`, `ERR_PARSE_ARGS_INVALID_OPTION_VALUE`) on a flag
 *   not in `options` or a value of the wrong type
 * @example parseBenchFlags("live", { out: { type: "string" } }, ["live", "--out", "x"]) // { out: "x" }
 */
export function parseBenchFlags<const Options extends ParseArgsOptionsConfig>(
  benchmark: string,
  options: Options,
  argv: readonly string[] = process.argv.slice(2),
) {
  return parseArgs({ args: argv.filter((a) => a !== benchmark), options }).values;
}

/**
 * The flags of a live measurement (bench/liveMeasure.ts), shared by `live` and `scale-live`:
 * `--duration-sec`, `--trade-interval-ms` (default 200), `--http-poll-ms` (default 50),
 * `--rpc-urls`, `--stages`, `--out`.
 * @param defaults the defaults that differ between the two benchmarks (decimal strings)
 */
export function liveTradingOptions(defaults: { durationSec: string; rpcUrls: string }) {
  return {
    "duration-sec": { type: "string", default: defaults.durationSec },
    "trade-interval-ms": { type: "string", default: "200" },
    "http-poll-ms": { type: "string", default: "50" },
    "rpc-urls": { type: "string", default: defaults.rpcUrls },
    stages: { type: "boolean", default: false },
    out: { type: "string" },
  } as const;
}

/**
 * The live measurement's flags as numbers.
 * @param values what {@link parseBenchFlags} returned for {@link liveTradingOptions}
 * @returns seconds of trading, ms between trades, ms between the API client's polls, how many RPC
 *   URLs the indexer gets, and whether each trade's latency is split into stages
 */
export function liveTradingFlags(values: {
  "duration-sec"?: string;
  "trade-interval-ms"?: string;
  "http-poll-ms"?: string;
  "rpc-urls"?: string;
  stages?: boolean;
}) {
  return {
    durationSec: Number(values["duration-sec"]),
    /** One trade every this many ms. */
    tradeIntervalMs: Number(values["trade-interval-ms"]),
    /** How often the API client polls (the API runs in the indexer's process: polling costs it CPU). */
    httpPollMs: Number(values["http-poll-ms"]),
    /** How many RPC URLs the indexer gets (`INDEXER_RPC_URLS`). */
    rpcUrls: Number(values["rpc-urls"]),
    /** Split each trade's latency into stages from the indexer's debug log. */
    withStages: values.stages === true,
  };
}

/**
 * The flags of a scale history (bench/scaleHistory.ts), shared by `scale` and `scale-live`:
 * `--launches` (default 1010), `--launches-per-block` (30), `--swaps`, `--swaps-per-transaction`
 * (150), `--foreign-pools`, `--foreign-swaps-per-transaction`.
 * @param defaults the defaults that differ between the two benchmarks (decimal strings)
 */
export function scaleHistoryOptions(defaults: {
  swaps: string;
  foreignPools: string;
  foreignSwapsPerTransaction: string;
}) {
  return {
    launches: { type: "string", default: "1010" },
    "launches-per-block": { type: "string", default: "30" },
    swaps: { type: "string", default: defaults.swaps },
    "swaps-per-transaction": { type: "string", default: "150" },
    "foreign-pools": { type: "string", default: defaults.foreignPools },
    "foreign-swaps-per-transaction": { type: "string", default: defaults.foreignSwapsPerTransaction },
  } as const;
}

/**
 * The scale history's flags as numbers.
 * @param values what {@link parseBenchFlags} returned for {@link scaleHistoryOptions}
 */
export function scaleHistoryFlags(values: {
  launches?: string;
  "launches-per-block"?: string;
  swaps?: string;
  "swaps-per-transaction"?: string;
  "foreign-pools"?: string;
  "foreign-swaps-per-transaction"?: string;
}) {
  return {
    launches: Number(values.launches),
    launchesPerBlock: Number(values["launches-per-block"]),
    swaps: Number(values.swaps),
    swapsPerTransaction: Number(values["swaps-per-transaction"]),
    foreignPools: Number(values["foreign-pools"]),
    foreignSwapsPerTransaction: Number(values["foreign-swaps-per-transaction"]),
  };
}

/** The flags of `npm run bench -- live` (bench/live.ts). */
export const liveOptions = {
  ...liveTradingOptions({ durationSec: "60", rpcUrls: "1" }),
  database: { type: "string", default: "pglite" },
  "cpu-prof-dir": { type: "string" },
  "count-queries": { type: "boolean", default: false },
  // The indexer also subscribes to newHeads over anvil's WebSocket (INDEXER_WS_URL) beside its poll.
  ws: { type: "boolean", default: false },
} as const;

/** The flags of `npm run bench -- scale` (bench/scale.ts). */
export const scaleOptions = {
  ...scaleHistoryOptions({ swaps: "10000", foreignPools: "100", foreignSwapsPerTransaction: "20" }),
  "foreign-factor": { type: "string", default: "10" },
  variants: { type: "string", default: "unpatched,threshold" },
  "single-node": { type: "boolean", default: false },
  out: { type: "string" },
  "no-warmup": { type: "boolean", default: false },
  "cpu-prof-dir": { type: "string" },
} as const;

/** The flags of `npm run bench -- scale-live` (bench/scaleLive.ts). */
export const scaleLiveOptions = {
  ...liveTradingOptions({ durationSec: "600", rpcUrls: "4" }),
  ...scaleHistoryOptions({ swaps: "1000", foreignPools: "20", foreignSwapsPerTransaction: "3" }),
  "foreign-interval-ms": { type: "string", default: "50" },
  phases: { type: "string", default: "baseline,foreign" },
} as const;

/**
 * Node flags that write a V8 CPU profile of the process into `dir` (`--cpu-prof-dir` of the
 * benchmarks); none when `dir` is unset.
 */
export function cpuProfileArgs(dir: string | undefined): string[] {
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
}

/**
 * The results' `machine` record of a benchmark that samples no load in between: CPUs, Node
 * version, the load average (1, 5, 15 min) at its start and now.
 */
export function machineRecord(loadAverageAtStart: number[]) {
  return { cpus: cpus().length, node: process.version, loadAverageAtStart, loadAverageAtEnd: loadavg() };
}

/**
 * Samples the one-minute load average every 10 s from now on (the machine is shared: the results
 * say how busy it was).
 * @param alsoEvery10s another sampler run on the same tick (e.g. the nodes' RSS)
 * @returns `stop()` ends the sampling; `machine()` is the results' `machine` record: CPUs, Node
 *   version, load average at start and now, and min/mean/max of the samples (null without any)
 */
export function sampleMachineLoad(alsoEvery10s?: () => void) {
  const start = loadavg();
  const samples: number[] = [];
  const timer = setInterval(() => {
    samples.push(loadavg()[0]!);
    alsoEvery10s?.();
  }, 10_000);
  return {
    stop: () => clearInterval(timer),
    machine: () => ({
      cpus: cpus().length,
      node: process.version,
      loadAverage: {
        start,
        end: loadavg(),
        oneMinuteSampledEvery10s: samples.length
          ? {
              min: Math.min(...samples),
              mean: samples.reduce((a, b) => a + b, 0) / samples.length,
              max: Math.max(...samples),
            }
          : null,
      },
    }),
  };
}

/**
 * The peak RSS of each node in `nodes` (the list may grow), by index: `sample()` reads every
 * node's high-water mark (`VmHWM`, so a sample any time before the node stops sees its peak) into
 * `peakBytes`.
 */
export function nodesPeakRss(nodes: readonly AnvilInstance[]): { peakBytes: number[]; sample: () => void } {
  const peakBytes: number[] = [];
  return {
    peakBytes,
    sample: () =>
      nodes.forEach((node, i) => {
        const rss = rssBytes(node.pid);
        if (rss) peakBytes[i] = Math.max(peakBytes[i] ?? 0, rss.peak);
      }),
  };
}

/** States each scale node keeps, in memory only: more than any history here has blocks, none on disk. */
export const HISTORY_STATES = 100_000;

/** Block gas limit of the scale nodes, wei of gas: room for `launchesPerBlock` launches (~5.8M each). */
export function scaleGasLimit(launchesPerBlock: number): bigint {
  return BigInt(Math.max(30, launchesPerBlock * 8)) * 1_000_000n;
}

/**
 * Starts the first node of a scale history (automine, {@link HISTORY_STATES} states in memory).
 * @throws when anvil does not start
 */
export function startHistoryNode(launchesPerBlock: number): Promise<AnvilInstance> {
  return startAnvil({ port: 0, gasLimit: scaleGasLimit(launchesPerBlock), historyStates: HISTORY_STATES });
}

/**
 * Launches `count` tokens through our own factory, `perBlock` to a block ("Scale" names).
 * @returns the launched tokens and pools
 */
export function launchOurTokens(
  manifest: DeploymentManifest,
  client: PublicClient,
  { count, perBlock }: { count: number; perBlock: number },
): Promise<Launched> {
  console.log(`launching ${count} tokens, ${perBlock} per block`);
  return launchMany(manifest, client, {
    factory: manifest.contracts.launchFactory,
    count,
    perBlock,
    namePrefix: "Scale",
  });
}

/**
 * Deploys a look-alike launch factory (same V3 factory, not accepted by the service) and launches
 * `count` foreign pools through it from dev account 2, `perBlock` to a block ("Foreign" names).
 * @returns the foreign tokens and pools
 */
export async function launchForeignPools(
  manifest: DeploymentManifest,
  client: PublicClient,
  { count, perBlock }: { count: number; perBlock: number },
): Promise<Launched> {
  const deployer = createDevnetClients(manifest.rpcUrl, manifest.chainId, devAccount(0));
  const lookAlike = await deployLookAlikeFactory(deployer.walletClient, deployer.publicClient, manifest);
  return launchMany(manifest, client, {
    factory: lookAlike,
    count,
    perBlock,
    namePrefix: "Foreign",
    senderIndex: 2,
  });
}

/** Ponder's polling interval in the live benchmarks, ms (`POLLING_INTERVAL_MS`). */
export const PONDER_POLLING_MS = 100;

/** Options of {@link startLiveService}. */
export type LiveServiceOptions = {
  /** Ponder's database schema. */
  schema: string;
  /** Manifest, database, store and RPC settings of this run. */
  env: NodeJS.ProcessEnv;
  /** Log at debug level and keep the stage lines (bench/liveStages.ts). */
  withStages: boolean;
  /** Reads the chain head for the catch-up. */
  client: PublicClient;
  /** Prefix of the log line when the indexer does not catch up (e.g. the phase). */
  logPrefix?: string;
  nodeArgs?: string[];
  startTimeoutMs?: number;
  /** How long to wait for Ponder's `/ready`, ms (default: waitReady's). */
  readyTimeoutMs?: number;
};

/**
 * Starts the service for a live measurement and waits for Ponder's own `/ready` (the historical
 * sync), then for the catch-up on the blocks mined meanwhile (lag <= 2 blocks). A machine too busy
 * to index 10 blocks/s never catches up: after 120 s the measurement starts anyway, and
 * `catchUpSec` is null. The per-IP public limit is lifted (the clients poll every few ms: the run
 * measures serving, not 429s).
 * @returns the service (stopped here only if the wait fails), its kept stage lines, when `/ready`
 *   answered (`performance.now()` ms) and the catch-up from then, seconds
 */
export async function startLiveService(options: LiveServiceOptions): Promise<{
  service: PonderProcess;
  stageLog: () => string;
  readyAt: number;
  catchUpSec: number | null;
}> {
  const service = await startPonder({
    port: await findFreePort(),
    schema: options.schema,
    nodeArgs: options.nodeArgs,
    startTimeoutMs: options.startTimeoutMs,
    env: {
      ...options.env,
      PUBLIC_RATE_LIMIT_PER_MINUTE: "1000000",
      POLLING_INTERVAL_MS: String(PONDER_POLLING_MS),
      // Ponder's own /ready on the indexer (not the service's "caught up" verdict).
      PONDER_READY_ON_INDEXER: "1",
      ...(options.withStages ? { PONDER_LOG_LEVEL: "debug" } : {}),
    },
  });
  // Only the step lines the stage split needs are kept (the whole debug log is megabytes).
  const stageLog = options.withStages ? captureStageLines(service.child) : () => "";
  try {
    await waitReady(service.url, options.readyTimeoutMs, { path: "/ready" });
    const readyAt = performance.now();
    const catchUpSec = await waitCaughtUp(lagReader(options.client, service.url), readyAt);
    if (catchUpSec === null)
      console.log(`${options.logPrefix ?? ""}the indexer did not catch up within 120 s; trading anyway`);
    return { service, stageLog, readyAt, catchUpSec };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

/**
 * Prints a benchmark's result and writes it as the current one, `bench/results/latest/<fileBase>.json`
 * (bench/latest.ts: the commit and, unless recorded, the load are added; the previous file moves to
 * `bench/results/history/`).
 */
export function writeBenchResult(fileBase: string, result: Record<string, unknown>): void {
  writeLatestResult(fileBase, result);
}
