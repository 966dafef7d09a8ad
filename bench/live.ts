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
 * Usage: `npm run bench -- live [--duration-sec 60] [--trade-interval-ms 200] [--http-poll-ms 50] [--rpc-urls 1] [--database pglite|postgres] [--stages] [--cpu-prof-dir D] [--count-queries] [--ws] [--out name]`.
 * `--cpu-prof-dir` writes the service's V8 CPU profile there (start-up included).
 * `--ws`: the indexer also subscribes to newHeads over anvil's WebSocket (`INDEXER_WS_URL`) beside
 * its poll (docs/operations.md "Live heads over WebSocket").
 * Results: `bench/results/latest/live[-postgres][-Nrpc].json`, or `bench/results/latest/<name>.json` with `--out`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, createWalletClient, http, parseEther } from "viem";
import { startAnvil } from "../devnet/anvil";
import { devAccount } from "../devnet/clients";
import { launchToken } from "../devnet/actions";
import { deployStack } from "../devnet/deploy";
import { writeManifest } from "../devnet/manifest";
import { createDevnetDatabase } from "../test/helpers/postgres";
import {
  liveOptions,
  cpuProfileArgs,
  liveTradingFlags,
  machineRecord,
  PONDER_POLLING_MS,
  parseBenchFlags,
  startLiveService,
  writeBenchResult,
} from "./harness";
import { measureLiveTrading, RECEIPT_POLL_MS, stagesOf, summariseLive } from "./liveMeasure";
import type { Target } from "./latest";

const values = parseBenchFlags("live", liveOptions);
// `rpcUrls` URLs of the same anvil stand in for N providers.
const { durationSec, tradeIntervalMs, httpPollMs, rpcUrls, withStages } = liveTradingFlags(values);
const onPostgres = values.database === "postgres";

const loadAtStart = loadavg();
const anvil = await startAnvil({ port: 0, blockTimeSec: 0.1 });
const dataDir = mkdtempSync(join(tmpdir(), "bench-live-"));
const schema = "bench_live";
// A database of this devnet's own (Ponder's raw-data cache is per database, keyed by chain id).
const database = onPostgres ? await createDevnetDatabase("bench_live") : null;
// `--count-queries`: the service counts its SQL statements by kind (bench/queryCounter.mjs).
const queryCountFile = values["count-queries"] ? join(dataDir, "queries.jsonl") : null;
try {
  const manifest = await deployStack({ rpcUrl: anvil.rpcUrl });
  const manifestPath = join(dataDir, "manifest.json");
  writeManifest(manifestPath, manifest);
  const client = createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: RECEIPT_POLL_MS });
  const creator = createWalletClient({ account: devAccount(1), transport: http(anvil.rpcUrl) });
  const launched = await launchToken(creator, client, manifest, {
    name: "Live Bench",
    symbol: "LIVE",
    firstBuyWei: parseEther("0.01"),
  });
  const token = launched.event.token;
  const pool = launched.event.pool;

  // Ponder's /ready, then the catch-up on the blocks mined while the service started: the
  // benchmark measures the live tail after the historical sync, not the start.
  const { service, stageLog, catchUpSec } = await startLiveService({
    schema,
    nodeArgs: [
      ...cpuProfileArgs(values["cpu-prof-dir"]),
      ...(queryCountFile ? ["--import", join(import.meta.dirname, "queryCounter.mjs")] : []),
    ],
    env: {
      QUERY_COUNT_FILE: queryCountFile ?? "",
      DEPLOYMENT_MANIFEST: manifestPath,
      PONDER_PGLITE_DIR: join(dataDir, "pglite"),
      STORE_PGLITE_DIR: join(dataDir, "store"),
      STORE_SCHEMA: "launch_store",
      DATABASE_URL: database?.url ?? "",
      INDEXER_RPC_URLS: rpcUrls > 1 ? Array(rpcUrls).fill(anvil.rpcUrl).join(",") : "",
      INDEXER_WS_URL: values.ws ? anvil.wsUrl : "",
    },
    withStages,
    client,
  });

  const tradingStart = { atMs: Date.now(), block: await client.getBlockNumber() };
  const run = await measureLiveTrading({
    client,
    rpcUrl: anvil.rpcUrl,
    serviceUrl: service.url,
    manifest,
    token,
    pool,
    durationSec,
    tradeIntervalMs,
    httpPollMs,
    ponderPollingMs: PONDER_POLLING_MS,
  });
  const summary = summariseLive(run);
  const tradingEnd = { atMs: Date.now(), block: await client.getBlockNumber() };
  const queriesPerBlock = queryCountFile ? queriesPerBlockOf(queryCountFile, tradingStart, tradingEnd) : null;

  await service.stop();
  const stages = withStages ? stagesOf(run, stageLog()) : null;
  const result = {
    benchmark: "live",
    measuredAt: new Date().toISOString(),
    machine: machineRecord(loadAtStart),
    database: values.database,
    blockTimeMs: 100,
    ponderPollingIntervalMs: PONDER_POLLING_MS,
    httpPollMs,
    indexerRpcUrls: rpcUrls,
    // The indexer also took newHeads over a WebSocket beside its 100 ms poll (`--ws`).
    newHeadsSubscription: values.ws,
    durationSec,
    // From Ponder's /ready to the indexer within 2 blocks of the head (the trading starts then);
    // null: it did not catch up within 120 s and the trading started behind.
    catchUpSec,
    ...summary,
    // Where each SSE trade's latency went (`--stages`; bench/liveStages.ts), null without it.
    stages,
    // `--count-queries`: SQL statements per block mined during the trading, by kind; null without it.
    queriesPerBlock,
    // One row per target (bench/latest.ts renders them in bench/README.md).
    targets: liveTargets(summary, { durationSec, rpcUrls, catchUpSec, onPostgres }),
  };
  writeBenchResult(
    values.out
      ? values.out.replace(/[^\w-]/g, "")
      : `live${onPostgres ? "-postgres" : ""}${rpcUrls > 1 ? `-${rpcUrls}rpc` : ""}`,
    result,
  );
} finally {
  await anvil.stop();
  await database?.drop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * SQL statements the service sent per block mined between two moments, by kind (verb + table),
 * from the cumulative counts bench/queryCounter.mjs wrote once a second.
 */
function queriesPerBlockOf(
  file: string,
  start: { atMs: number; block: bigint },
  end: { atMs: number; block: bigint },
): Record<string, number> {
  const lines = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { t: number; counts: Record<string, number> });
  const at = (ms: number) => lines.filter((line) => line.t <= ms).at(-1)?.counts ?? {};
  const first = at(start.atMs);
  const last = at(end.atMs);
  const blocks = Number(end.block - start.block);
  const perBlock: Record<string, number> = {};
  let total = 0;
  for (const [kind, count] of Object.entries(last)) {
    const delta = count - (first[kind] ?? 0);
    if (delta > 0) perBlock[kind] = Math.round((delta / blocks) * 100) / 100;
    total += delta;
  }
  return { blocks, total: Math.round((total / blocks) * 100) / 100, ...perBlock };
}

/**
 * The live targets as `{name, value, met}` (bench/latest.ts): polling p50 <= 250 ms / p99 <= 1 s,
 * SSE p50 <= 150 ms / p99 <= 500 ms, every trade seen, the lag not growing; and issue 35's, when
 * the run is the one it names (PostgreSQL, 1 URL, >= 10 min): p99 <= 250 ms. Trading starts once
 * the indexer has caught up, so the start-up is the separate catch-up target (< 10 s), not in the p99.
 */
function liveTargets(
  summary: ReturnType<typeof summariseLive>,
  run: { durationSec: number; rpcUrls: number; catchUpSec: number | null; onPostgres: boolean },
): Target[] {
  const below = (name: string, value: number | null, max: number): Target => ({
    name,
    value,
    met: value !== null && value <= max,
  });
  const { firstThirdMean: lagFirst, lastThirdMean: lagLast } = summary.lagBlocks;
  const targets: Target[] = [
    below("block mined -> trade visible (polling), p50: <= 250 ms", summary.serviceMs.p50, 250),
    below("block mined -> trade visible (polling), p99: <= 1,000 ms", summary.serviceMs.p99, 1000),
    below("block mined -> trade pushed (SSE), p50: <= 150 ms", summary.sseMs.p50, 150),
    below("block mined -> trade pushed (SSE), p99: <= 500 ms", summary.sseMs.p99, 500),
    ...(run.onPostgres
      ? [below("PostgreSQL: block mined -> trade visible (polling), p50: <= 60 ms", summary.serviceMs.p50, 60)]
      : []),
    below("trades not seen (polling and SSE): 0", summary.tradesNotSeenOverHttp + summary.tradesNotSeenOverSse, 0),
    {
      name: "lag not growing: last third's mean <= first third's + 5 blocks",
      value: lagLast,
      met: lagFirst !== null && lagLast !== null && lagLast <= lagFirst + 5,
    },
  ];
  if (run.onPostgres && run.rpcUrls === 1 && run.durationSec >= 600) {
    targets.push(
      below("live, 1 URL, 10 min at 10 blocks/s: SSE p99 <= 250 ms", summary.sseMs.p99, 250),
      below("live, 1 URL, 10 min at 10 blocks/s: polling p99 <= 250 ms", summary.serviceMs.p99, 250),
      below("live, 1 URL: start-up catch-up (s) < 10 s", run.catchUpSec, 9.999),
    );
  }
  return targets;
}
