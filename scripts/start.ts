/**
 * `npm start`: the main job.
 *
 * Devnet (default): takes the data folder's lock (`.devnet`, `--data-dir`/`DEVNET_DIR`; a second
 * start on the same folder refuses and says how to run another instance), starts anvil (chain id
 * 4663), deploys WETH9, Uniswap V3 and our contracts, writes `<dir>/manifest.json`, seeds demo
 * activity, starts the service (Ponder indexer + API) on a fresh PGlite folder, then keeps trading
 * so live indexing can be watched. Each step is printed with the seconds since start.
 * Production (`LAUNCH_FACTORY_ADDRESS` set): only starts the service against the configured chain.
 *
 * `.env` in the working directory is loaded first (the real environment wins), then every setting
 * is validated (`config/env.ts`): a bad value prints a message naming the variable and exits with
 * code 1 before anything starts.
 *
 * Stopping: SIGTERM/SIGINT abort the demo trading and seeding at once, then stop the service
 * (Ponder drains in-flight requests and closes the databases and the offchain store; SIGKILL when
 * its share of the budget is spent: all of it but 1 s kept for anvil, or half of it when that is
 * shorter), then anvil. The whole sequence is bounded by
 * `SHUTDOWN_TIMEOUT_MS` (default 8,000): whatever still runs then is killed and the process exits.
 * A second SIGINT/SIGTERM forces the exit at once (children get SIGKILL). If the service exits by
 * itself, this process stops the rest and exits with its code.
 *
 * Flags: scripts/startFlags.ts (`--no-seed`, `--port`, `--rpc-port`, `--block-time`,
 * `--trade-interval-ms`, `--data-dir`); a bad flag is refused before anything starts.
 */
import "../config/dotenv";
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { createTestClient, http } from "viem";
import { AnvilPortInUseError, startAnvil } from "../devnet/anvil";
import { assertPortFree, PortInUseError } from "../ops/portGuard";
import { deployStack } from "../devnet/deploy";
import { writeManifest } from "../devnet/manifest";
import { copyPgliteTemplate, ensurePgliteTemplate } from "../devnet/pgliteTemplate";
import { acquireDevnetLock, type DevnetInstance, DevnetLockedError, processStartTicks } from "../devnet/instanceLock";
import { startChildReaper } from "./childReaper";
import { checkConfiguredDependencies, DependencyError } from "./dependencyCheck";
import { clearDataFolder, DataFolderError } from "./dataFolder";
import { parseStartFlags, StartFlagError, type StartFlags } from "./startFlags";
import { seedDemo, startRandomTrading } from "../devnet/seed";
import { serviceHeapArgs, startPonder } from "./ponderProcess";
import { SERVICE_READY_PATH, waitReady } from "./serviceReadiness";
import { startKeptService } from "./serviceKeeper";
import { ConfigError, loadEnv, type Env } from "../config/env";
import { loadStoreConfig, openStore } from "../store/index";
import { createApiKey } from "../store/keys";
import { devAccount } from "../devnet/clients";
import { devnetReadyBanner } from "./startBanner";
import { installStopSequence } from "./stopSequence";

let env: Env;
try {
  env = loadEnv();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}

let flags: StartFlags;
try {
  flags = parseStartFlags(env);
} catch (err) {
  if (!(err instanceof StartFlagError)) throw err;
  console.error(err.message);
  process.exit(1);
}
const port = flags.port;
const schema = env.DATABASE_SCHEMA;
const startedAt = Date.now();

/** Prints one progress line with the seconds since start, e.g. `[  3.4 s] deployed: …`. */
function step(message: string): void {
  console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${message}`);
}

/** Kept for anvil's orderly stop (SIGTERM, exit) while the service before it stops. */
const ANVIL_STOP_RESERVE_MS = 1_000;
/** What was started, stopped in reverse order on a signal or a fatal event (scripts/stopSequence.ts). */
const stops = installStopSequence({ shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS, step });

/** How to pick another HTTP port, named when the one asked for is taken. */
const PORT_SETTING = "--port <n> (or PORT in the environment or .env)";
/** How to pick another anvil port. */
const RPC_PORT_SETTING = "--rpc-port <n>";

/**
 * Ends anvil and the service if this process dies without stopping them (SIGKILL included):
 * a watcher process that notices the end of its pipe from this one (scripts/childReaper.ts).
 */
const reaper = startChildReaper();

async function main() {
  // A taken port is refused before anything starts: never deploy to, seed on or report from a
  // process this run did not start (anvil and Ponder also check for themselves: the port can be
  // taken between this check and their listen).
  await assertPortFree(port, "127.0.0.1", PORT_SETTING);
  await checkConfiguredDependencies(env, step);
  if (process.env.LAUNCH_FACTORY_ADDRESS) {
    step(`starting the service (production configuration), waiting for http://127.0.0.1:${port}/health`);
    const startService = () =>
      startPonder({
        port,
        schema,
        inheritOutput: true,
        nodeArgs: serviceHeapArgs(),
        onWait: step,
        onSpawn: (pid) => reaper.watch(pid),
      });
    const kept = await startKeptService({ env, stops, step, start: startService });
    const service = kept.service;
    const indexerUrls = (env.INDEXER_RPC_URLS || env.RPC_URL || "")
      .split(",")
      .map((u) => u.trim())
      .filter(Boolean);
    kept.supervise(indexerUrls);
    step(`service on ${service.url} (production configuration)`);
    console.log(
      env.METRICS_TOKEN
        ? `metrics: curl -s -H "Authorization: Bearer $METRICS_TOKEN" ${service.url}/metrics`
        : "metrics: not served (set METRICS_TOKEN to scrape /metrics with Authorization: Bearer <token>)",
    );
    return;
  }

  await assertPortFree(flags.rpcPort, "127.0.0.1", RPC_PORT_SETTING);
  const devnetDir = resolve(flags.dataDir);
  // Before anything in the folder is touched: a second start on it must not break the first.
  // A lock left by a killed start is taken over after its own children are ended.
  const lock = acquireDevnetLock(devnetDir, {});
  stops.register({ name: "the devnet lock", stop: async () => lock.release(), kill: () => lock.release() });
  if (lock.reaped.length > 0)
    step(`ended the processes a killed earlier start left running in this folder: ${lock.reaped.join(", ")}`);
  step(`devnet folder ${devnetDir} (locked: ${lock.path})`);
  /** The children, recorded in the lock (pid + start time) for the next start to reap after a crash. */
  const children: NonNullable<DevnetInstance["children"]> = [];
  const recordChild = (name: string, pid: number) => {
    reaper.watch(pid);
    const at = children.findIndex((c) => c.name === name);
    if (at >= 0) children.splice(at, 1);
    children.push({ name, pid, startTicks: processStartTicks(pid) });
    lock.update({ children });
  };

  // The machine's empty PGlite cluster, made on the first start only (devnet/pgliteTemplate.ts),
  // while anvil starts and the contracts deploy; awaited before the databases are created.
  const pgliteTemplate = ensurePgliteTemplate();
  pgliteTemplate.catch(() => {}); // its error is thrown where it is awaited

  step(`starting anvil on 127.0.0.1:${flags.rpcPort}`);
  const anvil = await startAnvil({ port: flags.rpcPort }).catch((err: unknown) => {
    if (err instanceof AnvilPortInUseError) throw new PortInUseError(err.port, "127.0.0.1", RPC_PORT_SETTING);
    throw err;
  });
  const killAnvil = () => {
    try {
      process.kill(anvil.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  // A frozen service is killed in time to leave anvil this long for an orderly stop.
  stops.register({ name: "anvil", stop: () => anvil.stop(), kill: killAnvil, reserveMs: ANVIL_STOP_RESERVE_MS });
  recordChild("anvil", anvil.pid);
  lock.update({ rpcUrl: anvil.rpcUrl });
  step(`anvil on ${anvil.rpcUrl} (chain id 4663)`);

  step("deploying WETH9, Uniswap V3, the fee locker, the launch factory and the ETH/USD reference pool");
  const manifest = await deployStack({ rpcUrl: anvil.rpcUrl });
  const manifestPath = join(devnetDir, "manifest.json");
  writeManifest(manifestPath, manifest);
  lock.update({ manifestPath });
  step(
    `deployed: launch factory ${manifest.contracts.launchFactory}, fee locker ${manifest.contracts.feeLocker}, ETH/USD pool ${manifest.ethUsdPool} (3,000 USD/ETH)`,
  );

  let exampleToken: string | undefined;
  if (!flags.noSeed) {
    step("seeding demo activity (3 launches, 12 trades, 4 ETH/USD trades, token transfers, 1 fee collection)");
    const seeded = await seedDemo(manifest, { signal: stops.lifetime });
    exampleToken = seeded.tokens[0]?.token;
    step(
      `seeded: ${seeded.tokens.map((t) => `${t.symbol} ${t.token}`).join(", ")}; ${seeded.buys} buys, ${seeded.sells} sells, ${seeded.ethUsdTrades} ETH/USD trades, ${seeded.transfers} transfers`,
    );
  }

  // A new devnet has a new history: index it into a fresh PGlite folder, and keep the offchain
  // store (keys, intents, idempotency, counters, media) per devnet run too.
  const pgliteDir = join(devnetDir, "pglite");
  const storeDir = join(devnetDir, "store");
  clearDataFolder(pgliteDir);
  clearDataFolder(storeDir);
  // Both start as a copy of the machine's empty PGlite cluster instead of running `initdb` each.
  const template = await pgliteTemplate;
  await copyPgliteTemplate(pgliteDir, template);
  await copyPgliteTemplate(storeDir, template);
  // The devnet's anvil URL is local and holds no secret, so the devnet publishes it explicitly as
  // the wallets' RPC (`rpc_urls` / `wallet_add_ethereum_chain`); the service itself never falls
  // back to its own RPC_URL (docs/launch.md "Network for wallets").
  // /metrics needs a bearer token (docs/operations.md "Metrics"): the configured one, else one
  // made up for this devnet run and printed below.
  const metricsToken = env.METRICS_TOKEN ?? randomBytes(32).toString("base64url");
  const serviceEnv = {
    DEPLOYMENT_MANIFEST: manifestPath,
    PONDER_PGLITE_DIR: pgliteDir,
    STORE_PGLITE_DIR: storeDir,
    PUBLIC_RPC_URL: env.PUBLIC_RPC_URL || anvil.rpcUrl,
    METRICS_TOKEN: metricsToken,
    // New blocks announced over anvil's WebSocket (same port) beside the poll (docs/operations.md
    // "Live heads over WebSocket").
    INDEXER_WS_URL: env.INDEXER_WS_URL || anvil.wsUrl,
    // Ready only with every block indexed: the devnet is idle until the start is done, and one
    // block behind is one second behind here (production's default, 30, is 3 s of 100 ms blocks).
    READY_MAX_LAG_BLOCKS: process.env.READY_MAX_LAG_BLOCKS || "0",
    // Webhooks to a receiver on this machine (http://127.0.0.1:…; docs/webhooks.md "Receiver URLs").
    WEBHOOKS_ALLOW_LOOPBACK_HTTP: process.env.WEBHOOKS_ALLOW_LOOPBACK_HTTP || "1",
  };
  // A demo API key (dev account 0) in the fresh store, before the service holds the folder.
  step(`creating the devnet API key in a fresh offchain store (${storeDir})`);
  const store = await openStore(loadStoreConfig({ ...process.env, ...serviceEnv }));
  const { secret: devnetKey } = await createApiKey(store, {
    wallet: devAccount(0).address,
    label: "devnet",
    createdVia: "cli",
  });
  await store.close();
  lock.update({ storeDir });

  step(`starting the service (ponder start), waiting for http://127.0.0.1:${port}/health`);
  const startService = () =>
    startPonder({
      port,
      schema,
      inheritOutput: env.LOG_PONDER === "1",
      env: serviceEnv,
      nodeArgs: serviceHeapArgs(),
      onWait: step,
      onSpawn: (pid) => recordChild("the service", pid),
    });
  const kept = await startKeptService({ env, stops, step, start: startService });
  const service = kept.service;
  lock.update({ serviceUrl: service.url });
  // The seeded history must be served before we say "ready": the service's own readiness
  // (/api/v1/ready; on the devnet READY_MAX_LAG_BLOCKS is 0 unless set: every seeded block
  // indexed), not Ponder's /ready, which is 200 at the finalized block 0 (docs/operations.md
  // "Readiness and stalls").
  step(
    `service answers on ${service.url}; waiting for ${service.url}${SERVICE_READY_PATH} (the seeded history indexed)`,
  );
  let lastProgressAt = 0;
  await waitReady(service.url, undefined, {
    onProgress: ({ status, indexedBlock, chainHeadBlock }) => {
      // At most one line every 2 s, and the last one.
      if (Date.now() - lastProgressAt < 2_000 && status !== 200) return;
      lastProgressAt = Date.now();
      step(`indexed block ${indexedBlock ?? "none yet"} of ${chainHeadBlock ?? "?"}`);
    },
  });
  const devnetClient = createTestClient({ mode: "anvil", transport: http(anvil.rpcUrl, { timeout: 5_000 }) });
  kept.supervise([anvil.rpcUrl]);

  await devnetClient.setIntervalMining({ interval: flags.blockTimeSec });
  const intervalMs = flags.tradeIntervalMs;
  if (!flags.noSeed && intervalMs > 0) {
    const trading = startRandomTrading(manifest, { intervalMs, signal: stops.lifetime });
    stops.register({ name: "the demo trading", stop: () => trading.stop() }); // stopped first, before the service and anvil
  }

  step(`ready: ${service.url}`);
  console.log(
    devnetReadyBanner({
      baseUrl: service.url,
      devnetKey,
      metricsToken,
      storeDir,
      dataDir: flags.dataDir,
      exampleToken,
    }),
  );
}

main().catch(async (err) => {
  if (stops.stopping()) return; // a stop is under way; its own exit follows
  if (err instanceof DevnetLockedError) {
    console.error(err.message);
    process.exit(1);
  }
  if (err instanceof PortInUseError || err instanceof DataFolderError || err instanceof DependencyError) {
    console.error(err.message);
    await stops.stopAll(1, "start refused");
    return;
  }
  console.error(err);
  await stops.stopAll(1, "start failed");
});
