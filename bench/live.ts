/**
 * Live-latency benchmark: anvil mining a block every 100 ms (the production chain's pace) with
 * steady trading, and the service indexing live. For every trade it measures the time from the
 * transaction's block being mined (first seen by a client polling receipts every 10 ms) to the
 * trade being visible over HTTP (`GET /api/public/trades/recent`, polled every 50 ms by default), against
 * the floor measured in the same run: a bare viem client polling `eth_getLogs` for the pool's
 * Swap logs at Ponder's own polling interval (`POLLING_INTERVAL_MS`, 100 ms). In the same run an
 * EventSource client on `GET /api/public/stream/trades?token=` (Server-Sent Events)
 * measures block mined -> trade received as a `pending` frame (and as the confirmed frame, ~30
 * blocks later). It also samples the indexer's lag (chain head minus Ponder's indexed block)
 * every second, to show whether it grows.
 * Trading starts once the indexer has caught up with the chain after its start (lag <= 2 blocks in
 * three samples in a row): the catch-up from the blocks mined during start-up is reported on its
 * own (`catchUpSec`), and the latency figures are the live tail, not the start.
 * With `--stages` the indexer logs at debug level and each SSE trade's latency is split into
 * Ponder's poll, block fetch, indexing and our push (bench/liveStages.ts), to show where a tail
 * comes from.
 * Targets: polling p50 <= 250 ms, p99 <= 1 s, no growing lag; SSE p50 <=
 * 150 ms, p99 <= 500 ms.
 * Usage: `npm run bench -- live [--duration-sec 60] [--trade-interval-ms 200] [--http-poll-ms 50] [--rpc-urls 1] [--database pglite|postgres] [--stages] [--cpu-prof-dir D] [--out name]`.
 * `--cpu-prof-dir` writes the service's V8 CPU profile there (start-up included).
 * Results: `bench/results/live[-postgres][-Nrpc].json`, or `bench/results/<name>.json` with `--out`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { EventSource } from "eventsource";
import { createPublicClient, createWalletClient, getAbiItem, http, parseEther, type Hash } from "viem";
import { swapRouterAbi } from "../abis/SwapRouter";
import { uniswapV3PoolAbi } from "../abis/UniswapV3Pool";
import { findFreePort, startAnvil } from "../devnet/anvil";
import { devAccount } from "../devnet/clients";
import { buyParams, launchToken } from "../devnet/actions";
import { deployStack } from "../devnet/deploy";
import { writeManifest } from "../devnet/manifest";
import { startPonder, waitReady } from "../scripts/ponderProcess";
import { createDevnetDatabase } from "../test/postgres";
import { blockTimesFromLog, finalizeTimesFromLog, summariseStages, type TradeTimes } from "./liveStages";
import { mean, percentile } from "./stats";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "live"),
  options: {
    "duration-sec": { type: "string", default: "60" },
    "trade-interval-ms": { type: "string", default: "200" },
    database: { type: "string", default: "pglite" },
    "http-poll-ms": { type: "string", default: "50" },
    "rpc-urls": { type: "string", default: "1" },
    stages: { type: "boolean", default: false },
    "cpu-prof-dir": { type: "string" },
    out: { type: "string" },
  },
});
/** Split each trade's latency into stages from the indexer's debug log. */
const withStages = values.stages === true;
/** How often the API client polls (the API runs in the indexer's process: polling costs it CPU). */
const httpPollMs = Number(values["http-poll-ms"]);
/** How many RPC URLs the indexer gets (`INDEXER_RPC_URLS`; the same anvil, standing in for N providers). */
const rpcUrls = Number(values["rpc-urls"]);
const durationSec = Number(values["duration-sec"]);
const tradeIntervalMs = Number(values["trade-interval-ms"]);
const onPostgres = values.database === "postgres";
const POLL_MS = 10;
const PONDER_POLLING_MS = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const loadAtStart = loadavg();
const anvil = await startAnvil({ port: 0, blockTimeSec: 0.1 });
const dataDir = mkdtempSync(join(tmpdir(), "bench-live-"));
const schema = "bench_live";
// A database of this devnet's own (Ponder's raw-data cache is per database, keyed by chain id).
const database = onPostgres ? await createDevnetDatabase("bench_live") : null;
try {
  const manifest = await deployStack({ rpcUrl: anvil.rpcUrl });
  const manifestPath = join(dataDir, "manifest.json");
  writeManifest(manifestPath, manifest);
  const client = createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: POLL_MS });
  const creator = createWalletClient({ account: devAccount(1), transport: http(anvil.rpcUrl) });
  const launched = await launchToken(creator, client, manifest, {
    name: "Live Bench",
    symbol: "LIVE",
    firstBuyWei: parseEther("0.01"),
  });
  const token = launched.event.token;
  const pool = launched.event.pool;

  const service = await startPonder({
    port: await findFreePort(),
    schema,
    nodeArgs: values["cpu-prof-dir"] ? ["--cpu-prof", `--cpu-prof-dir=${values["cpu-prof-dir"]}`] : [],
    env: {
      DEPLOYMENT_MANIFEST: manifestPath,
      PONDER_PGLITE_DIR: join(dataDir, "pglite"),
      STORE_PGLITE_DIR: join(dataDir, "store"),
      STORE_SCHEMA: "launch_store",
      DATABASE_URL: database?.url ?? "",
      // The watcher polls every 10 ms: lift the per-IP public limit so it measures serving, not 429s.
      PUBLIC_RATE_LIMIT_PER_MINUTE: "1000000",
      POLLING_INTERVAL_MS: String(PONDER_POLLING_MS),
      INDEXER_RPC_URLS: rpcUrls > 1 ? Array(rpcUrls).fill(anvil.rpcUrl).join(",") : "",
      // Ponder's own /ready on the indexer (not the service's "caught up" verdict).
      PONDER_READY_ON_INDEXER: "1",
      ...(withStages ? { PONDER_LOG_LEVEL: "debug" } : {}),
    },
  });
  // Only the step lines the stage split needs are kept (the whole debug log is megabytes).
  const stageLines: string[] = [];
  if (withStages) {
    let partial = "";
    service.child.stdout?.on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const l of lines)
        if (
          l.includes('"Received new head block"') ||
          l.includes('"Fetched block data"') ||
          l.includes('"Indexed block"') ||
          l.includes('"Finalized block"')
        )
          stageLines.push(l);
    });
  }
  // Ponder's /ready: the benchmark measures the catch-up after the historical sync itself.
  await waitReady(service.url, undefined, { path: "/ready" });
  const readyAt = performance.now();

  /** Chain head minus Ponder's indexed block (null when /status does not answer). */
  const lagBlocksNow = async (): Promise<number | null> => {
    const [head, status] = await Promise.all([
      client.getBlockNumber(),
      fetch(`${service.url}/status`)
        .then((r) => r.json())
        .catch(() => null),
    ]);
    const indexed = (Object.values(status ?? {})[0] as { block?: { number?: number } } | undefined)?.block?.number;
    return typeof indexed === "number" ? Number(head) - indexed : null;
  };
  // Catch-up: the blocks mined while the service started are indexed before trading starts.
  // A machine too busy to index 10 blocks/s never catches up: trading then starts anyway after
  // `CATCH_UP_LIMIT_MS` and the result says so (`catchUpSec: null`; the lag series shows it).
  const CATCH_UP_LIMIT_MS = 120_000;
  let caughtUpSamples = 0;
  while (caughtUpSamples < 3 && performance.now() - readyAt < CATCH_UP_LIMIT_MS) {
    const lag = await lagBlocksNow();
    caughtUpSamples = lag !== null && lag <= 2 ? caughtUpSamples + 1 : 0;
    await sleep(250);
  }
  const catchUpSec = caughtUpSamples >= 3 ? (performance.now() - readyAt) / 1000 : null;
  if (catchUpSec === null)
    console.log(`the indexer did not catch up within ${CATCH_UP_LIMIT_MS / 1000} s; trading anyway`);

  const minedAt = new Map<Hash, number>();
  const blockOf = new Map<Hash, number>();
  const floorSeenAt = new Map<Hash, number>();
  const httpSeenAt = new Map<Hash, number>();
  const sseSeenAt = new Map<Hash, number>();
  const sseConfirmedAt = new Map<Hash, number>();
  const lagSamples: { tSec: number; lagBlocks: number }[] = [];
  let running = true;

  // Floor: a bare client following the pool's Swap logs at Ponder's polling interval.
  const floor = (async () => {
    let from = await client.getBlockNumber();
    const swap = getAbiItem({ abi: uniswapV3PoolAbi, name: "Swap" });
    while (running) {
      const head = await client.getBlockNumber();
      if (head >= from) {
        const logs = await client.getLogs({ address: pool, event: swap, fromBlock: from, toBlock: head });
        const now = performance.now();
        for (const log of logs) if (!floorSeenAt.has(log.transactionHash)) floorSeenAt.set(log.transactionHash, now);
        from = head + 1n;
      }
      await sleep(PONDER_POLLING_MS);
    }
  })();

  // What a client of the API sees: the newest trades, polled every `httpPollMs`.
  const watcher = (async () => {
    while (running) {
      const res = await fetch(`${service.url}/api/public/trades/recent?limit=20`).catch(() => null);
      if (res?.ok) {
        const body = (await res.json()) as { trades: { tx_hash: Hash }[] };
        const now = performance.now();
        for (const t of body.trades) if (!httpSeenAt.has(t.tx_hash)) httpSeenAt.set(t.tx_hash, now);
      }
      await sleep(httpPollMs);
    }
  })();

  // What a Server-Sent Events client sees: trades pushed at the indexed head (`pending` frames),
  // then confirmed (default `message` frames). One connection, opened once.
  const sse = new EventSource(`${service.url}/api/public/stream/trades?token=${token}`);
  const sseOpen = new Promise<void>((resolve) => sse.addEventListener("open", () => resolve(), { once: true }));
  sse.addEventListener("pending", (e) => {
    const now = performance.now();
    const hash = (JSON.parse(e.data) as { tx_hash: Hash }).tx_hash;
    if (!sseSeenAt.has(hash)) sseSeenAt.set(hash, now);
  });
  sse.addEventListener("message", (e) => {
    const now = performance.now();
    const hash = (JSON.parse(e.data) as { tx_hash: Hash }).tx_hash;
    if (!sseConfirmedAt.has(hash)) sseConfirmedAt.set(hash, now);
  });
  await sseOpen;

  // Indexer lag: chain head minus Ponder's indexed block, every second.
  const started = performance.now();
  const lagSampler = (async () => {
    while (running) {
      const lagBlocks = await lagBlocksNow();
      if (lagBlocks !== null) lagSamples.push({ tSec: (performance.now() - started) / 1000, lagBlocks });
      await sleep(1000);
    }
  })();

  // Steady trading: buys from three dev accounts, one every `tradeIntervalMs`, each awaited.
  const traders = [2, 3, 4].map((i) => createWalletClient({ account: devAccount(i), transport: http(anvil.rpcUrl) }));
  const deadline = performance.now() + durationSec * 1000;
  let sent = 0;
  console.log(`trading for ${durationSec} s, one buy every ${tradeIntervalMs} ms, 100 ms blocks`);
  while (performance.now() < deadline) {
    const trader = traders[sent % traders.length]!;
    const tickStart = performance.now();
    const hash = await trader.writeContract({
      chain: null,
      address: manifest.contracts.swapRouter,
      abi: swapRouterAbi,
      functionName: "exactInputSingle",
      args: [buyParams(manifest, token, trader.account.address, parseEther("0.001"), 2n ** 48n)],
      value: parseEther("0.001"),
      gas: 400_000n,
    });
    sent++;
    // The block is "mined" when a receipt first answers (polled every 10 ms).
    for (;;) {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
      if (receipt) {
        minedAt.set(hash, performance.now());
        blockOf.set(hash, Number(receipt.blockNumber));
        break;
      }
      await sleep(POLL_MS);
    }
    await sleep(Math.max(0, tradeIntervalMs - (performance.now() - tickStart)));
  }
  await sleep(5000); // the confirmed frames come ~30 blocks (3 s) after the last trade
  running = false;
  sse.close();
  await Promise.all([floor, watcher, lagSampler]);

  const serviceMs: number[] = [];
  const floorMs: number[] = [];
  // Second half of the run (the run starts caught up; the halves show whether the tail drifts).
  const halfway = started + (durationSec * 1000) / 2;
  const steadyMs: number[] = [];
  let missing = 0;
  const sseMs: number[] = [];
  const sseSteadyMs: number[] = [];
  const sseConfirmedMs: number[] = [];
  let sseMissing = 0;
  // Per trade, SSE receipt minus the polling client's first sight of the same trade: the push
  // path's own delay on the same indexed data, whatever the indexer's lag (negative: SSE first).
  const sseMinusPollingMs: number[] = [];
  for (const [hash, mined] of minedAt) {
    const seen = sseSeenAt.get(hash);
    if (seen === undefined) sseMissing++;
    else {
      sseMs.push(Math.max(0, seen - mined));
      if (mined >= halfway) sseSteadyMs.push(Math.max(0, seen - mined));
    }
    const polled = httpSeenAt.get(hash);
    if (seen !== undefined && polled !== undefined) sseMinusPollingMs.push(seen - polled);
    const confirmed = sseConfirmedAt.get(hash);
    if (confirmed !== undefined) sseConfirmedMs.push(Math.max(0, confirmed - mined));
  }
  for (const [hash, mined] of minedAt) {
    const seen = httpSeenAt.get(hash);
    const base = floorSeenAt.get(hash);
    if (seen === undefined) missing++;
    else {
      serviceMs.push(Math.max(0, seen - mined));
      if (mined >= halfway) steadyMs.push(Math.max(0, seen - mined));
    }
    if (base !== undefined) floorMs.push(Math.max(0, base - mined));
  }
  const third = Math.max(1, Math.floor(lagSamples.length / 3));
  const lagFirst = mean(lagSamples.slice(0, third).map((s) => s.lagBlocks));
  const lagLast = mean(lagSamples.slice(-third).map((s) => s.lagBlocks));
  const serviceP50 = percentile(serviceMs, 0.5);
  const serviceP99 = percentile(serviceMs, 0.99);
  const floorP50 = percentile(floorMs, 0.5);
  const floorP99 = percentile(floorMs, 0.99);
  const sseP50 = percentile(sseMs, 0.5);
  const sseP99 = percentile(sseMs, 0.99);

  await service.stop();
  const epochMs = (t: number) => performance.timeOrigin + t;
  const stageTrades: TradeTimes[] = [];
  for (const [hash, mined] of minedAt) {
    const pushed = sseSeenAt.get(hash);
    const blockNumber = blockOf.get(hash);
    if (pushed !== undefined && blockNumber !== undefined)
      stageTrades.push({ blockNumber, minedMs: epochMs(mined), pushedMs: epochMs(pushed) });
  }
  const stageLog = stageLines.join("\n");
  const stages = withStages
    ? summariseStages(stageTrades, blockTimesFromLog(stageLog), finalizeTimesFromLog(stageLog))
    : null;
  const result = {
    benchmark: "live",
    measuredAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      node: process.version,
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadavg(),
    },
    database: values.database,
    blockTimeMs: 100,
    ponderPollingIntervalMs: PONDER_POLLING_MS,
    httpPollMs,
    indexerRpcUrls: rpcUrls,
    durationSec,
    // From Ponder's /ready to the indexer within 2 blocks of the head (the trading starts then);
    // null: it did not catch up within 120 s and the trading started behind.
    catchUpSec,
    tradesSent: sent,
    tradesNotSeenOverHttp: missing,
    serviceMs: {
      p50: serviceP50,
      p99: serviceP99,
      max: serviceMs.length ? Math.max(...serviceMs) : null,
      samples: serviceMs.length,
    },
    serviceSecondHalfMs: { p50: percentile(steadyMs, 0.5), p99: percentile(steadyMs, 0.99), samples: steadyMs.length },
    floorMs: { p50: floorP50, p99: floorP99, samples: floorMs.length },
    // Server-Sent Events (`/api/public/stream/trades`): block mined -> `pending` frame received.
    tradesNotSeenOverSse: sseMissing,
    sseMs: { p50: sseP50, p99: sseP99, max: sseMs.length ? Math.max(...sseMs) : null, samples: sseMs.length },
    sseSecondHalfMs: {
      p50: percentile(sseSteadyMs, 0.5),
      p99: percentile(sseSteadyMs, 0.99),
      samples: sseSteadyMs.length,
    },
    sseRatioToFloor: {
      p50: sseP50 !== null && floorP50 ? sseP50 / floorP50 : null,
      p99: sseP99 !== null && floorP99 ? sseP99 / floorP99 : null,
    },
    sseMinusPollingMs: {
      p1: percentile(sseMinusPollingMs, 0.01),
      p50: percentile(sseMinusPollingMs, 0.5),
      p99: percentile(sseMinusPollingMs, 0.99),
      samples: sseMinusPollingMs.length,
    },
    // The same trades as confirmed frames (with ids), EVENTS_CONFIRMATION_BLOCKS (30) blocks later.
    sseConfirmedMs: {
      p50: percentile(sseConfirmedMs, 0.5),
      p99: percentile(sseConfirmedMs, 0.99),
      samples: sseConfirmedMs.length,
    },
    // Where each SSE trade's latency went (`--stages`; bench/liveStages.ts), null without it.
    stages,
    ratioToFloor: {
      p50: serviceP50 !== null && floorP50 ? serviceP50 / floorP50 : null,
      p99: serviceP99 !== null && floorP99 ? serviceP99 / floorP99 : null,
    },
    lagBlocks: {
      firstThirdMean: lagFirst,
      lastThirdMean: lagLast,
      max: lagSamples.length ? Math.max(...lagSamples.map((s) => s.lagBlocks)) : null,
      samples: lagSamples.length,
      // One sample every ~10 s: shows whether the lag grows, holds or drains.
      series: lagSamples.filter((_, i) => i % 10 === 0).map((s) => [Math.round(s.tSec), s.lagBlocks]),
    },
    targets:
      "serviceMs.p50 <= 250, serviceMs.p99 <= 1000, lag not growing (lastThirdMean ~ firstThirdMean); sseMs.p50 <= 150, sseMs.p99 <= 500",
    met: {
      p50: serviceP50 !== null && serviceP50 <= 250,
      p99: serviceP99 !== null && serviceP99 <= 1000,
      lagNotGrowing: lagFirst !== null && lagLast !== null && lagLast <= lagFirst + 5,
      allSeen: missing === 0,
      sseP50: sseP50 !== null && sseP50 <= 150,
      sseP99: sseP99 !== null && sseP99 <= 500,
      allSeenOverSse: sseMissing === 0,
    },
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(
    values.out
      ? `bench/results/${values.out.replace(/[^\w-]/g, "")}.json`
      : `bench/results/live${onPostgres ? "-postgres" : ""}${rpcUrls > 1 ? `-${rpcUrls}rpc` : ""}.json`,
    `${JSON.stringify(result, null, 2)}\n`,
  );
} finally {
  await anvil.stop();
  await database?.drop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
}
