/**
 * `npm start`: the main job.
 *
 * Devnet (default): starts anvil (chain id 4663), deploys WETH9, Uniswap V3 and our contracts,
 * writes `.devnet/manifest.json`, seeds demo activity, starts the service (Ponder indexer + API)
 * on a fresh PGlite folder, then keeps trading so live indexing can be watched.
 * Production (`LAUNCH_FACTORY_ADDRESS` set): only starts the service against the configured chain.
 *
 * Flags: `--no-seed` (no demo activity), `--port <n>` (HTTP, default 42069 or `PORT`),
 * `--rpc-port <n>` (anvil, default 8545), `--block-time <sec>` (interval mining after seeding,
 * default 1), `--trade-interval-ms <n>` (demo trading pace, default 2000; 0 disables).
 */
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createPublicClient, http } from "viem";
import { startAnvil } from "../devnet/anvil";
import { deployStack } from "../devnet/deploy";
import { writeManifest } from "../devnet/manifest";
import { seedDemo, startRandomTrading } from "../devnet/seed";
import { startPonder, waitReady } from "./ponderProcess";

const { values: flags } = parseArgs({
  options: {
    "no-seed": { type: "boolean", default: false },
    port: { type: "string", default: process.env.PORT ?? "42069" },
    "rpc-port": { type: "string", default: "8545" },
    "block-time": { type: "string", default: "1" },
    "trade-interval-ms": { type: "string", default: "2000" },
  },
});

const port = Number(flags.port);
const schema = process.env.DATABASE_SCHEMA ?? "evmchain";
const shutdown: Array<() => Promise<void>> = [];

async function stopAll(code: number) {
  for (const stop of shutdown.reverse()) await stop().catch(() => undefined);
  process.exit(code);
}
process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

async function main() {
  if (process.env.LAUNCH_FACTORY_ADDRESS) {
    const service = await startPonder({ port, schema, inheritOutput: true });
    shutdown.push(service.stop);
    console.log(`service on ${service.url} (production configuration)`);
    return;
  }

  const devnetDir = resolve(".devnet");
  mkdirSync(devnetDir, { recursive: true });
  const anvil = await startAnvil({ port: Number(flags["rpc-port"]) });
  shutdown.push(anvil.stop);
  console.log(`anvil on ${anvil.rpcUrl} (chain id 4663)`);

  const manifest = await deployStack({ rpcUrl: anvil.rpcUrl });
  const manifestPath = join(devnetDir, "manifest.json");
  writeManifest(manifestPath, manifest);
  console.log(`deployed: launch factory ${manifest.contracts.launchFactory}, fee locker ${manifest.contracts.feeLocker}`);

  if (!flags["no-seed"]) {
    const seeded = await seedDemo(manifest);
    console.log(`seeded demo activity: ${JSON.stringify(seeded, (_k, v) => (typeof v === "bigint" ? v.toString() : v))}`);
  }

  // A new devnet has a new history: index it into a fresh PGlite folder.
  const pgliteDir = join(devnetDir, "pglite");
  rmSync(pgliteDir, { recursive: true, force: true });
  const service = await startPonder({
    port,
    schema,
    inheritOutput: process.env.LOG_PONDER === "1",
    env: { DEPLOYMENT_MANIFEST: manifestPath, PONDER_PGLITE_DIR: pgliteDir },
  });
  shutdown.push(service.stop);
  await waitReady(service.url);

  const client = createPublicClient({ transport: http(anvil.rpcUrl) });
  await client.request({ method: "evm_setIntervalMining" as never, params: [Number(flags["block-time"])] as never });
  const intervalMs = Number(flags["trade-interval-ms"]);
  if (!flags["no-seed"] && intervalMs > 0) {
    const trading = startRandomTrading(manifest, { intervalMs });
    shutdown.unshift(trading.stop);
  }

  const base = service.url;
  console.log(
    [
      "",
      `ready: ${base}`,
      `  curl -s ${base}/api/public/tokens/new?limit=5`,
      `  curl -s ${base}/api/public/trades/recent?limit=5`,
      `  curl -s "${base}/api/v1/evmchain/tokens/<address>/candles?resolution=1m"`,
      "Ctrl-C stops anvil and the service.",
    ].join("\n"),
  );
}

main().catch(async (err) => {
  console.error(err);
  await stopAll(1);
});
