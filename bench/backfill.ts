/**
 * Backfill benchmark: how long the service takes to index a history from scratch (every table, all
 * six candle resolutions), against the floor measured in the same run: fetching and decoding the
 * same logs with viem `getLogs` alone. Reports the ratio (target <= 2x), swaps/s and the service's
 * peak RSS. Usage: `npm run bench -- backfill [--launches 100] [--swaps 100000] [--database pglite|postgres]`.
 * Results: `bench/results/backfill.json`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createPublicClient, getAbiItem, http, numberToHex } from "viem";
import { launchFactoryAbi } from "../abis/LaunchFactory";
import { uniswapV3PoolAbi } from "../abis/UniswapV3Pool";
import { findFreePort, startAnvil } from "../devnet/anvil";
import { deployStack } from "../devnet/deploy";
import { writeManifest } from "../devnet/manifest";
import { startPonder } from "../scripts/ponderProcess";
import { dropSchema, TEST_DATABASE_URL, uniqueSchemaName } from "../test/postgres";
import { buildHistory } from "./history";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "backfill"),
  options: {
    launches: { type: "string", default: "100" },
    swaps: { type: "string", default: "100000" },
    database: { type: "string", default: "pglite" },
  },
});
const launches = Number(values.launches);
const swaps = Number(values.swaps);
const onPostgres = values.database === "postgres";

/** Peak resident set size of a process in bytes (Linux `VmHWM`). */
function peakRssBytes(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const anvil = await startAnvil({ port: 0 });
const dataDir = mkdtempSync(join(tmpdir(), "bench-backfill-"));
try {
  const manifest = await deployStack({ rpcUrl: anvil.rpcUrl });
  const manifestPath = join(dataDir, "manifest.json");
  writeManifest(manifestPath, manifest);
  console.log(`building history: ${launches} launches, ${swaps} swaps`);
  const generationStart = performance.now();
  const history = await buildHistory(manifest, { launches, swaps });
  const client = createPublicClient({ transport: http(anvil.rpcUrl) });
  const generationSec = (performance.now() - generationStart) / 1000;
  console.log(`history built in ${generationSec.toFixed(1)} s (${history.swapTransactions} swap transactions, head ${history.lastBlock})`);

  // A backfill indexes history older than the finality depth: bury it under empty blocks so the
  // service indexes it in its historical (batched) mode, as it would after a real outage or deploy.
  await client.request({ method: "anvil_mine" as never, params: [numberToHex(1_000)] as never });

  // Floor: the same logs fetched and decoded by viem alone, in block chunks under the 10 MiB cap.
  const floorStart = performance.now();
  let floorLogs = 0;
  const chunk = 20n;
  for (let from = BigInt(manifest.startBlock); from <= history.lastBlock; from += chunk) {
    const to = from + chunk - 1n < history.lastBlock ? from + chunk - 1n : history.lastBlock;
    const [launchLogs, swapLogs] = await Promise.all([
      client.getLogs({ address: manifest.acceptedFactories, event: getAbiItem({ abi: launchFactoryAbi, name: "TokenLaunched" }), fromBlock: from, toBlock: to }),
      client.getLogs({ address: history.pools, event: getAbiItem({ abi: uniswapV3PoolAbi, name: "Swap" }), fromBlock: from, toBlock: to }),
    ]);
    floorLogs += launchLogs.length + swapLogs.length;
  }
  const floorSec = (performance.now() - floorStart) / 1000;
  console.log(`floor: ${floorLogs} logs fetched and decoded in ${floorSec.toFixed(2)} s`);

  const schema = onPostgres ? uniqueSchemaName("bench_backfill") : "bench_backfill";
  const serviceStart = performance.now();
  const service = await startPonder({
    port: await findFreePort(),
    schema,
    env: {
      DEPLOYMENT_MANIFEST: manifestPath,
      PONDER_PGLITE_DIR: join(dataDir, "pglite"),
      DATABASE_URL: onPostgres ? TEST_DATABASE_URL : "",
    },
  });
  let indexedTrades = 0;
  for (;;) {
    const res = await fetch(`${service.url}/api/public/tokens/new?limit=100`).catch(() => null);
    if (res?.ok) {
      const body = (await res.json()) as { tokens: Array<{ trade_count: number }> };
      indexedTrades = body.tokens.reduce((sum, t) => sum + t.trade_count, 0);
      if (body.tokens.length === Math.min(launches, 100) && indexedTrades >= swaps) break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const serviceSec = (performance.now() - serviceStart) / 1000;
  const peakRss = peakRssBytes(service.child.pid!);
  await service.stop();
  if (onPostgres) await dropSchema(schema);

  const result = {
    benchmark: "backfill",
    measuredAt: new Date().toISOString(),
    machine: { cpus: cpus().length, node: process.version },
    database: values.database,
    launches,
    swaps,
    floor: { seconds: floorSec, logs: floorLogs, logsPerSecond: floorLogs / floorSec },
    generation: { seconds: generationSec, swapTransactions: history.swapTransactions },
    service: { seconds: serviceSec, swapsPerSecond: swaps / serviceSec, peakRssBytes: peakRss, includesStartup: true },
    ratioToFloor: serviceSec / floorSec,
    target: "ratioToFloor <= 2",
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(`bench/results/backfill${onPostgres ? "-postgres" : ""}.json`, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await anvil.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
