/**
 * `npm start`: the main job.
 *
 * Devnet (default): starts anvil (chain id 4663), deploys WETH9, Uniswap V3 and our contracts,
 * writes `.devnet/manifest.json`, seeds demo activity, starts the service (Ponder indexer + API)
 * on a fresh PGlite folder, then keeps trading so live indexing can be watched.
 * Production (`LAUNCH_FACTORY_ADDRESS` set): only starts the service against the configured chain.
 *
 * Every setting is validated first (`config/env.ts`): a bad value prints a message naming the
 * variable and exits with code 1 before anything starts. SIGTERM/SIGINT stop the demo trading,
 * then the service (Ponder drains in-flight requests and closes the databases and the offchain
 * store), then anvil; if the service exits by itself, this process exits with its code.
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
import { startPonder, waitIndexed, waitReady } from "./ponderProcess";
import { ConfigError, loadEnv, type Env } from "../config/env";
import { loadStoreConfig, openStore } from "../store/index";
import { createApiKey } from "../store/keys";
import { devAccount } from "../devnet/clients";

let env: Env;
try {
  env = loadEnv();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}

const { values: flags } = parseArgs({
  options: {
    "no-seed": { type: "boolean", default: false },
    port: { type: "string", default: String(env.PORT) },
    "rpc-port": { type: "string", default: "8545" },
    "block-time": { type: "string", default: "1" },
    "trade-interval-ms": { type: "string", default: "2000" },
  },
});

for (const name of ["port", "rpc-port", "block-time", "trade-interval-ms"] as const) {
  const value = flags[name];
  if (!/^\d+$/.test(value) || (name.endsWith("port") && (Number(value) < 1 || Number(value) > 65535))) {
    console.error(`invalid flag --${name}: expected ${name.endsWith("port") ? "a port from 1 to 65535" : "a non-negative integer"}, got "${value}"`);
    process.exit(1);
  }
}
const port = Number(flags.port);
const schema = env.DATABASE_SCHEMA;
/** Stop functions, run last-registered first. */
const shutdown: Array<() => Promise<void>> = [];
let stopping = false;

async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  for (const stop of shutdown.reverse()) await stop().catch(() => undefined);
  process.exit(code);
}
process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

/** The service must not die unnoticed: exit with its code (1 when killed by a signal). */
function exitWithService(service: { exited: Promise<number | null> }) {
  void service.exited.then((code) => {
    if (stopping) return;
    console.error(`the service exited with code ${code ?? "null (signal)"}; stopping`);
    void stopAll(code || 1);
  });
}

async function main() {
  if (process.env.LAUNCH_FACTORY_ADDRESS) {
    const service = await startPonder({ port, schema, inheritOutput: true });
    shutdown.push(service.stop);
    exitWithService(service);
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

  // A new devnet has a new history: index it into a fresh PGlite folder, and keep the offchain
  // store (keys, intents, idempotency, counters, media) per devnet run too.
  const pgliteDir = join(devnetDir, "pglite");
  const storeDir = join(devnetDir, "store");
  rmSync(pgliteDir, { recursive: true, force: true });
  rmSync(storeDir, { recursive: true, force: true });
  const serviceEnv = { DEPLOYMENT_MANIFEST: manifestPath, PONDER_PGLITE_DIR: pgliteDir, STORE_PGLITE_DIR: storeDir };
  // A demo API key (dev account 0) in the fresh store, before the service holds the folder.
  const store = await openStore(loadStoreConfig({ ...process.env, ...serviceEnv }));
  const { secret: devnetKey } = await createApiKey(store, { wallet: devAccount(0).address, label: "devnet", createdVia: "cli" });
  await store.close();
  const service = await startPonder({
    port,
    schema,
    inheritOutput: env.LOG_PONDER === "1",
    env: serviceEnv,
  });
  shutdown.push(service.stop);
  exitWithService(service);
  await waitReady(service.url);
  const client = createPublicClient({ transport: http(anvil.rpcUrl) });
  // The seeded history must be served before we say "ready".
  await waitIndexed(service.url, await client.getBlockNumber());

  await client.request({ method: "evm_setIntervalMining" as never, params: [Number(flags["block-time"])] as never });
  const intervalMs = Number(flags["trade-interval-ms"]);
  if (!flags["no-seed"] && intervalMs > 0) {
    const trading = startRandomTrading(manifest, { intervalMs });
    shutdown.push(trading.stop); // stopped first, before the service and anvil
  }

  const base = service.url;
  console.log(
    [
      "",
      `ready: ${base}`,
      `  curl -s ${base}/api/public/tokens/new?limit=5`,
      `  curl -s ${base}/api/public/trades/recent?limit=5`,
      `  curl -s -H "Authorization: Bearer ${devnetKey}" "${base}/api/v1/evmchain/tokens/<address>/candles?resolution=1m"`,
      `  curl -s ${base}/metrics`,
      `devnet API key (dev account 0, this devnet's store ${storeDir} only): ${devnetKey}`,
      "Ctrl-C stops anvil and the service.",
    ].join("\n"),
  );
}

main().catch(async (err) => {
  console.error(err);
  await stopAll(1);
});
