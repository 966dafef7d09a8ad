/**
 * Backfill benchmark: how long the service takes to index a history from scratch (every table, all
 * six candle resolutions), against the floor measured in the same run: fetching and decoding the
 * same logs with viem `getLogs` alone. Reports the ratio (target <= 2x), swaps/s and the service's
 * peak RSS. Usage: `npm run bench -- backfill [--launches 100] [--swaps 100000] [--database pglite|postgres]`.
 * Results: `bench/results/backfill.json`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createPublicClient, http, numberToHex } from "viem";
import { findFreePort, startAnvil } from "../devnet/anvil";
import { deployStack } from "../devnet/deploy";
import { writeManifest } from "../devnet/manifest";
import { startPonder } from "../scripts/ponderProcess";
import { createDevnetDatabase } from "../test/postgres";
import { buildHistory } from "./history";
import { measureLogFloor, waitForIndexedTrades } from "./indexing";

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

const anvil = await startAnvil({ port: 0 });
const dataDir = mkdtempSync(join(tmpdir(), "bench-backfill-"));
try {
  const manifest = await deployStack({ rpcUrl: anvil.rpcUrl });
  const manifestPath = join(dataDir, "manifest.json");
  writeManifest(manifestPath, manifest);
  console.log(`building history: ${launches} launches, ${swaps} swaps`);
  const generationStart = performance.now();
  const history = await buildHistory(manifest, { launches, swaps });
  const client = createPublicClient({ transport: http(anvil.rpcUrl, { timeout: 300_000 }) });
  const generationSec = (performance.now() - generationStart) / 1000;
  console.log(`history built in ${generationSec.toFixed(1)} s (${history.swapTransactions} swap transactions, head ${history.lastBlock})`);

  // A backfill indexes history older than the finality depth: bury it under empty blocks so the
  // service indexes it in its historical (batched) mode, as it would after a real outage or deploy.
  for (let i = 0; i < 10; i++) await client.request({ method: "anvil_mine" as never, params: [numberToHex(100)] as never });

  // Floor: the same logs fetched and decoded by viem alone.
  const floor = await measureLogFloor(client, manifest, history.pools, history.lastBlock);
  const floorSec = floor.seconds;
  const floorLogs = floor.logs;
  console.log(`floor: ${floorLogs} logs fetched and decoded in ${floorSec.toFixed(2)} s`);

  const schema = "bench_backfill";
  // A database of this devnet's own (Ponder's raw-data cache is per database, keyed by chain id).
  const database = onPostgres ? await createDevnetDatabase("bench_backfill") : null;
  const serviceStart = performance.now();
  const service = await startPonder({
    port: await findFreePort(),
    schema,
    env: {
      DEPLOYMENT_MANIFEST: manifestPath,
      PONDER_PGLITE_DIR: join(dataDir, "pglite"),
      DATABASE_URL: database?.url ?? "",
    },
  });
  const { peakRssBytes: peakRss } = await waitForIndexedTrades(service.url, service.child.pid!, { launches, swaps });
  const serviceSec = (performance.now() - serviceStart) / 1000;
  await service.stop();
  await database?.drop();

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
