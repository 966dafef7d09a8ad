/**
 * Live scale benchmark (issue 20's live target; docs/operations.md "Scale"): at 100 ms blocks, on
 * top of a history past Ponder's 1,000-children threshold, with foreign Uniswap V3 pools trading in
 * nearly every block, does the indexer's lag hold and how long does a trade of ours take from its
 * block being mined to being visible (SSE push and API polling)? One run:
 * 1. On a first node (states in memory only, as `bench/scale.ts`): `--launches` tokens through our
 *    factory, `--swaps` swaps in their pools, then `--foreign-pools` pools through a look-alike
 *    launch factory (same V3 factory, not accepted by the service) and a SwapBatcher for them.
 * 2. Per phase (`--phases`, default `baseline,foreign`): a fresh node forks the first at its head and
 *    mines a block every 100 ms (its blocks cost only the state touched since the fork); in the
 *    `foreign` phase a background sender sends a churn of `--foreign-swaps-per-transaction` swaps
 *    in a foreign pool every `--foreign-interval-ms` (default 3 every 50 ms: one or two in nearly
 *    every block, 60 swaps/s against our 5 trades/s, 12x), from before the service starts to the end. The service starts on a fresh PostgreSQL
 *    database with `--rpc-urls` URLs (the documented number: 4), each through one counting proxy
 *    (`test/helpers/rpcProxy.ts`), backfills the history, catches up, and then the live measurement of
 *    `npm run bench -- live` runs (bench/liveMeasure.ts: trades in our first pool, floor client,
 *    polling and SSE clients, lag every second).
 * Per phase it reports the backfill and catch-up, the live window's RPC traffic per block (blocks
 * fetched against blocks holding our logs, `eth_getLogs`, bytes; bench/liveWindow.ts), the share of
 * blocks holding a foreign swap, the lag's first and last minute and max, and p50/p99 block mined
 * -> trade visible over SSE and polling with the same run's floor.
 * Targets (issue 20), on the `foreign` phase: lag does not grow; p99 block mined -> trade visible
 * <= 250 ms; and (issue 35) the service's RSS stays flat over the live window (sampled every 10 s,
 * least-squares slope after a 5-minute warm-up <= 0.5 MB/min; run it for 30 minutes:
 * `--duration-sec 1800`). The `baseline` phase (same history and trading, no foreign swaps) is the comparison.
 * Usage: `npm run bench -- scale-live [--duration-sec 600] [--launches 1010] [--swaps 1000] [--foreign-pools 20] [--foreign-swaps-per-transaction 3] [--foreign-interval-ms 50] [--rpc-urls 4] [--phases baseline,foreign] [--trade-interval-ms 200] [--http-poll-ms 50] [--stages] [--out name]`.
 * Results: `bench/results/latest/scale-live-<launches>.json`, or `bench/results/latest/<name>.json` with `--out`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { linearRegression } from "simple-statistics";
import { createPublicClient, http, type Address } from "viem";
import { startAnvil, type AnvilInstance } from "../devnet/anvil";
import { deployStack } from "../devnet/deploy";
import { type DeploymentManifest, writeManifest } from "../devnet/manifest";
import { createDevnetDatabase } from "../test/helpers/postgres";
import { startRpcProxy, type RpcTraffic } from "../test/helpers/rpcProxy";
import {
  launchForeignPools,
  launchOurTokens,
  liveTradingFlags,
  PONDER_POLLING_MS,
  parseBenchFlags,
  sampleMachineLoad,
  scaleGasLimit,
  scaleHistoryFlags,
  scaleLiveOptions,
  startHistoryNode,
  startLiveService,
  writeBenchResult,
} from "./harness";
import { measureLiveTrading, RECEIPT_POLL_MS, stagesOf, summariseLive } from "./liveMeasure";
import { rssBytes } from "./indexing";
import { lagTrend, liveWindowTraffic } from "./liveWindow";
import { mean } from "./stats";
import { blocksWithLogs, deploySwapBatcher, swapMany, tradeSteadily, type Launched } from "./scaleHistory";

const values = parseBenchFlags("scale-live", scaleLiveOptions);
const { durationSec, rpcUrls, tradeIntervalMs, httpPollMs, withStages } = liveTradingFlags(values);
const history = scaleHistoryFlags(values);
const { launches, launchesPerBlock, swaps, swapsPerTransaction, foreignSwapsPerTransaction } = history;
const foreignIntervalMs = Number(values["foreign-interval-ms"]);
const phases = (values.phases ?? "").split(",").filter(Boolean);
for (const phase of phases) if (phase !== "baseline" && phase !== "foreign") throw new Error(`unknown phase ${phase}`);
/** Dev accounts: 0 our swaps, 1 our launches, 2 foreign launches, 2-4 live trades, 5 foreign live swaps. */
const FOREIGN_LIVE_SENDER = 5;
/** The targets (issue 20), on the foreign phase. */
const P99_TARGET_MS = 250;
/**
 * "Flat" memory (issue 35): the service's RSS, sampled every 10 s over the live window after a
 * warm-up of {@link RSS_WARM_UP_SEC}, grows by at most 0.5 MB a minute (least-squares slope; 12.5 MB
 * over the last 25 minutes of a 30-minute run). That is a retained ~1.7 KB per trade of ours (5/s)
 * or ~830 bytes per block (10/s): a leak per trade or per block of a record's size or more crosses it.
 */
const RSS_SLOPE_TARGET_MB_PER_MINUTE = 0.5;
/**
 * The live window's first seconds left out of the slope target: the first 30-minute run went from
 * 838 MB to 1,215 MB in its first 30 s (live indexing and the read paths warming up) and then
 * stayed within 1,215-1,222 MB for 29.5 minutes; one step at the start is not growth, but it made
 * the whole window's slope 0.92 MB/min. The whole window's slope is still reported.
 */
const RSS_WARM_UP_SEC = 300;
/** Seconds between RSS samples of the service over the live window. */
const RSS_SAMPLE_SEC = 10;

/**
 * Samples a process's RSS every {@link RSS_SAMPLE_SEC} between `start()` and `stop()`.
 * `summary()`: the samples (MB, seconds into the window), the least-squares slopes (MB per minute,
 * simple-statistics; null under 2 samples) of the whole window and after {@link RSS_WARM_UP_SEC},
 * the first and last 5 minutes' means and the peak.
 */
function sampleRss(pid: number) {
  const samples: { sec: number; mb: number }[] = [];
  let startedAt = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const sample = () => {
    const rss = rssBytes(pid);
    if (rss) samples.push({ sec: (performance.now() - startedAt) / 1000, mb: rss.current / 2 ** 20 });
  };
  const slope = (points: { sec: number; mb: number }[]) =>
    points.length < 2 ? null : linearRegression(points.map((x) => [x.sec / 60, x.mb])).m;
  const meanMb = (inWindow: (sec: number) => boolean) => mean(samples.filter((x) => inWindow(x.sec)).map((x) => x.mb));
  return {
    start: () => {
      startedAt = performance.now();
      sample();
      timer = setInterval(sample, RSS_SAMPLE_SEC * 1000);
    },
    stop: () => {
      clearInterval(timer);
      sample();
    },
    summary: () => {
      const lastSec = samples.at(-1)?.sec ?? 0;
      return {
        sampleEverySec: RSS_SAMPLE_SEC,
        samples,
        slopeMbPerMinute: slope(samples),
        slopeAfterWarmUpMbPerMinute: slope(samples.filter((x) => x.sec >= RSS_WARM_UP_SEC)),
        warmUpSec: RSS_WARM_UP_SEC,
        firstFiveMinutesMeanMb: meanMb((sec) => sec < 300),
        lastFiveMinutesMeanMb: meanMb((sec) => sec > lastSec - 300),
        peakMb: samples.length ? Math.max(...samples.map((x) => x.mb)) : null,
      };
    },
  };
}

const load = sampleMachineLoad();
const gasLimit = scaleGasLimit(launchesPerBlock);
const nodes: AnvilInstance[] = [await startHistoryNode(launchesPerBlock)];
const dataDir = mkdtempSync(join(tmpdir(), "bench-scale-live-"));
try {
  const manifest = await deployStack({ rpcUrl: nodes[0]!.rpcUrl });
  const client = createPublicClient({ transport: http(manifest.rpcUrl, { timeout: 300_000 }) });
  const t = performance.now();
  const ours = await launchOurTokens(manifest, client, { count: launches, perBlock: launchesPerBlock });
  await swapMany(manifest, client, ours, { swaps, swapsPerTransaction, transactionsPerBlock: 1 });
  const foreign = await launchForeignPools(manifest, client, {
    count: history.foreignPools,
    perBlock: launchesPerBlock,
  });
  const batcher = await deploySwapBatcher(manifest, client, FOREIGN_LIVE_SENDER);
  const forkedAtBlock = Number(await client.getBlockNumber({ cacheTime: 0 }));
  const buildSec = (performance.now() - t) / 1000;
  console.log(`history built in ${buildSec.toFixed(0)} s (head ${forkedAtBlock})`);
  const ourAddresses: Address[] = [
    ...manifest.acceptedFactories,
    manifest.contracts.feeLocker,
    ...ours.pools,
    ...ours.tokens,
  ];

  const results: Record<string, Awaited<ReturnType<typeof livePhase>>> = {};
  for (const phase of phases) results[phase] = await livePhase(phase, phase === "foreign" ? foreign : null);

  /** One phase: fork, (foreign traffic), service on a fresh database via the proxy, live measurement. */
  async function livePhase(name: string, foreignPools: Launched | null) {
    const fork = await startAnvil({
      port: 0,
      gasLimit,
      blockTimeSec: 0.1,
      forkUrl: nodes[0]!.rpcUrl,
      // The service reads state at launch blocks (before the fork, on the first node); recent
      // states only here, in memory.
      historyStates: 2_000,
    });
    nodes.push(fork);
    const phaseManifest: DeploymentManifest = { ...manifest, rpcUrl: fork.rpcUrl };
    const manifestPath = join(dataDir, `manifest-${name}.json`);
    writeManifest(manifestPath, phaseManifest);
    const phaseClient = createPublicClient({ transport: http(fork.rpcUrl), pollingInterval: RECEIPT_POLL_MS });
    const trader = foreignPools
      ? await tradeSteadily(phaseManifest, phaseClient, foreignPools, {
          batcher,
          swapsPerTransaction: foreignSwapsPerTransaction,
          intervalMs: foreignIntervalMs,
          senderIndex: FOREIGN_LIVE_SENDER,
        })
      : null;
    const database = await createDevnetDatabase(`bench_scale_live_${name}`);
    const proxy = await startRpcProxy({ target: fork.rpcUrl });
    try {
      const started = performance.now();
      const { service, stageLog, readyAt, catchUpSec } = await startLiveService({
        schema: `bench_scale_live_${name}`,
        // A loaded machine can take over a minute to answer /health at all.
        startTimeoutMs: 300_000,
        readyTimeoutMs: 900_000,
        env: {
          DEPLOYMENT_MANIFEST: manifestPath,
          DATABASE_URL: database.url,
          STORE_SCHEMA: `bench_scale_live_store_${name}`,
          INDEXER_RPC_URLS: Array(rpcUrls).fill(proxy.url).join(","),
        },
        withStages,
        client: phaseClient,
        logPrefix: `${name}: `,
      });
      const rss = sampleRss(service.child.pid!);
      let before: RpcTraffic | null = null;
      let after: RpcTraffic | null = null;
      let fromBlock = 0;
      let toBlock = 0;
      const head = async () => Number(await phaseClient.getBlockNumber({ cacheTime: 0 }));
      try {
        const run = await measureLiveTrading({
          client: phaseClient,
          rpcUrl: fork.rpcUrl,
          serviceUrl: service.url,
          manifest: phaseManifest,
          token: ours.tokens[0]!,
          pool: ours.pools[0]!,
          durationSec,
          tradeIntervalMs,
          httpPollMs,
          ponderPollingMs: PONDER_POLLING_MS,
          onWindowStart: async () => {
            before = proxy.traffic();
            fromBlock = await head();
            rss.start();
          },
          onWindowEnd: async () => {
            after = proxy.traffic();
            toBlock = await head();
            rss.stop();
          },
        });
        const foreignSent = (await trader?.stop()) ?? null;
        const live = summariseLive(run);
        const oursInWindow = await blocksWithLogs(
          phaseClient,
          ourAddresses,
          BigInt(fromBlock + 1),
          BigInt(toBlock),
          500,
        );
        const foreignInWindow = await blocksWithLogs(
          phaseClient,
          foreign.pools,
          BigInt(fromBlock + 1),
          BigInt(toBlock),
          500,
        );
        const window = liveWindowTraffic({
          before: before!,
          after: after!,
          fromBlock,
          toBlock,
          blocksWithOurLogs: oursInWindow,
          blocksWithForeignSwaps: foreignInWindow,
        });
        const lag = lagTrend(run.lagSamples);
        console.log(
          `${name}: ${live.tradesSent} trades, ${live.tradesNotSeenOverSse} not pushed, ${live.tradesNotSeenOverHttp} not polled; SSE p50/p99 ${live.sseMs.p50?.toFixed(0)}/${live.sseMs.p99?.toFixed(0)} ms, polling ${live.serviceMs.p50?.toFixed(0)}/${live.serviceMs.p99?.toFixed(0)} ms, floor ${live.floorMs.p50?.toFixed(0)}/${live.floorMs.p99?.toFixed(0)} ms; lag first/last ${lag.firstMean?.toFixed(1)}/${lag.lastMean?.toFixed(1)}, max ${lag.max}; ${window.blocks} blocks, ${(window.foreignBlockShare * 100).toFixed(0)} % with a foreign swap, ${window.blocksWithOurLogs} with ours, ${window.blocksFetched} fetched, ${window.getLogsPerBlock.toFixed(2)} getLogs and ${(window.responseBytesPerBlock / 1000).toFixed(1)} KB per block`,
        );
        return {
          backfillSec: (readyAt - started) / 1000,
          // From Ponder's /ready to within 2 blocks of the head; null: not within 120 s.
          catchUpSec,
          window: { fromBlock, toBlock, ...window },
          foreignLiveTransactions: foreignSent,
          lag,
          rss: rss.summary(),
          ...live,
          stages: withStages ? stagesOf(run, stageLog()) : null,
        };
      } finally {
        await service.stop();
      }
    } finally {
      await trader?.stop();
      await proxy.stop();
      await database.drop().catch(() => {});
      await fork.stop();
      nodes.splice(nodes.indexOf(fork), 1);
    }
  }

  const measured = results.foreign ?? null;
  const baseline = results.baseline ?? null;
  const ratio = (a: number | null | undefined, b: number | null | undefined) =>
    a != null && b != null && b > 0 ? a / b : null;
  const result = {
    benchmark: "scale-live",
    measuredAt: new Date().toISOString(),
    machine: load.machine(),
    database: "postgres",
    blockTimeMs: 100,
    ponderPollingIntervalMs: PONDER_POLLING_MS,
    indexerRpcUrls: rpcUrls,
    durationSec,
    tradeIntervalMs,
    httpPollMs,
    history: {
      launches,
      launchesPerBlock,
      swaps,
      foreignPools: foreign.pools.length,
      forkedAtBlock,
      buildSeconds: buildSec,
    },
    foreignTraffic: {
      swapsPerTransaction: foreignSwapsPerTransaction,
      intervalMs: foreignIntervalMs,
      swapsPerSecond: (foreignSwapsPerTransaction * 1000) / foreignIntervalMs,
      ourTradesPerSecond: 1000 / tradeIntervalMs,
    },
    phases: results,
    comparison: {
      sseP99ForeignToBaseline: ratio(measured?.sseMs.p99, baseline?.sseMs.p99),
      pollingP99ForeignToBaseline: ratio(measured?.serviceMs.p99, baseline?.serviceMs.p99),
      getLogsPerBlockForeignToBaseline: ratio(measured?.window.getLogsPerBlock, baseline?.window.getLogsPerBlock),
      bytesPerBlockForeignToBaseline: ratio(
        measured?.window.responseBytesPerBlock,
        baseline?.window.responseBytesPerBlock,
      ),
    },
    // The run is what the target asks for: past the threshold, foreign swaps in most blocks.
    valid: {
      thresholdCrossed: launches > 1000,
      foreignInMostBlocks: measured !== null && measured.window.foreignBlockShare >= 0.8,
      allTradesPushed: measured !== null && measured.tradesNotSeenOverSse === 0 && measured.tradesNotSeenOverHttp === 0,
    },
    targets: measured
      ? [
          {
            name: "with foreign swaps, lag: last minute's mean within 5 blocks of the first minute's",
            value: measured.lag.lastMean,
            met: measured.lag.growing === false,
          },
          {
            name: `with foreign swaps, block mined -> trade pushed (SSE), p99: <= ${P99_TARGET_MS} ms`,
            value: measured.sseMs.p99,
            met: measured.sseMs.p99 !== null && measured.sseMs.p99 <= P99_TARGET_MS,
          },
          {
            name: `with foreign swaps, block mined -> trade visible (polling every ${httpPollMs} ms), p99: <= ${P99_TARGET_MS} ms`,
            value: measured.serviceMs.p99,
            met: measured.serviceMs.p99 !== null && measured.serviceMs.p99 <= P99_TARGET_MS,
          },
          {
            name: `with foreign swaps, service RSS after ${RSS_WARM_UP_SEC / 60} minutes of live: least-squares slope <= ${RSS_SLOPE_TARGET_MB_PER_MINUTE} MB/min`,
            value: measured.rss.slopeAfterWarmUpMbPerMinute,
            met:
              measured.rss.slopeAfterWarmUpMbPerMinute !== null &&
              measured.rss.slopeAfterWarmUpMbPerMinute <= RSS_SLOPE_TARGET_MB_PER_MINUTE,
          },
        ]
      : [],
  };
  writeBenchResult(values.out ?? `scale-live-${launches}`, result);
} finally {
  load.stop();
  for (const node of nodes.reverse()) await node.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
