/**
 * Remote-RPC benchmark: the service's backfill and live start-up through a hosted-provider stand-in
 * (bench/providerProxy.ts: a round trip per request, a request-rate cap answering 429 over it, a
 * response-size cap) in front of anvil, each with Ponder's default RPC limiter and with the
 * provider budget set (`INDEXER_RPC_MAX_RPS`, docs/operations.md "Provider budget"), against the
 * **ideal for that provider** computed from the same run: the requests the run needed (answered by
 * the provider) / the cap, or one round trip per dependent step if that is longer.
 * - backfill: a history of `--launches` launches and `--swaps` swaps, `--swaps-per-transaction` to a
 *   block (every such block is fetched), buried under 1,000 empty blocks, indexed from scratch;
 *   time from Ponder's "Started fetching backfill JSON-RPC data" to `/ready`, and the service must
 *   then serve every trade. Dependent steps: 4 (chain head, the factory's logs, the children's
 *   logs, the blocks holding them).
 * - live start-up: a second anvil mining a block every 100 ms; a fresh service; time from Ponder's
 *   `/ready` (historical sync done) to caught up (lag <= 2 blocks, three samples 250 ms apart).
 *   Dependent steps: 2 (the head poll, then the block and its logs).
 * Targets: backfill <= 1.5x the ideal (budget set); live catch-up < 10 s with 1 URL.
 * Usage: `npm run bench -- rpc [--launches 20] [--swaps 6000] [--swaps-per-transaction 10]
 * [--round-trip-ms 50] [--cap-rps 200] [--max-response-bytes 10485760] [--budget-rps 190]
 * [--database postgres|pglite] [--out name]`. Result: `bench/results/latest/rpc.json` (bench/latest.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, createWalletClient, http, numberToHex, parseEther } from "viem";
import { launchToken } from "../devnet/actions";
import { findFreePort, startAnvil } from "../devnet/anvil";
import { devAccount } from "../devnet/clients";
import { deployStack } from "../devnet/deploy";
import { type DeploymentManifest, writeManifest } from "../devnet/manifest";
import { startPonder } from "../scripts/ponderProcess";
import { waitReady } from "../scripts/serviceReadiness";
import { createDevnetDatabase } from "../test/helpers/postgres";
import { PONDER_POLLING_MS, parseBenchFlags, sampleMachineLoad } from "./harness";
import { buildHistory } from "./history";
import { logTimeMs, waitForIndexedTrades } from "./indexing";
import { writeLatestResult } from "./latest";
import { lagReader, waitCaughtUp } from "./liveMeasure";
import { type ProviderCounts, startProviderProxy } from "./providerProxy";

const values = parseBenchFlags("rpc", {
  launches: { type: "string", default: "20" },
  swaps: { type: "string", default: "6000" },
  "swaps-per-transaction": { type: "string", default: "10" },
  "round-trip-ms": { type: "string", default: "50" },
  "cap-rps": { type: "string", default: "200" },
  "max-response-bytes": { type: "string", default: String(10 * 2 ** 20) },
  "budget-rps": { type: "string", default: "190" },
  database: { type: "string", default: "postgres" },
  out: { type: "string" },
});
const launches = Number(values.launches);
const swaps = Number(values.swaps);
const swapsPerTransaction = Number(values["swaps-per-transaction"]);
const provider = {
  roundTripMs: Number(values["round-trip-ms"]),
  capRps: Number(values["cap-rps"]),
  maxResponseBytes: Number(values["max-response-bytes"]),
};
const budgetRps = Number(values["budget-rps"]);
const onPostgres = values.database === "postgres";
const BACKFILL_DEPENDENT_STEPS = 4;
const LIVE_DEPENDENT_STEPS = 2;
/** The variants: Ponder's default limiter, and the provider budget. */
const VARIANTS = [
  { name: "default", env: {} },
  { name: "budget", env: { INDEXER_RPC_MAX_RPS: String(budgetRps) } },
] as const;

/** The provider-bound ideal of a run, seconds: requests served / cap, or the dependent round trips. */
function idealOf(counts: ProviderCounts, dependentSteps: number) {
  const byRate = counts.served / provider.capRps;
  const byRoundTrips = (dependentSteps * provider.roundTripMs) / 1000;
  return { seconds: Math.max(byRate, byRoundTrips), byRateSec: byRate, byRoundTripsSec: byRoundTrips };
}

const load = sampleMachineLoad();
const dataDir = mkdtempSync(join(tmpdir(), "bench-rpc-"));
const serviceEnv = (manifestPath: string, name: string, databaseUrl: string | undefined, rpcUrl: string) => ({
  DEPLOYMENT_MANIFEST: manifestPath,
  PONDER_READY_ON_INDEXER: "1",
  PONDER_PGLITE_DIR: join(dataDir, `pglite-${name}`),
  STORE_PGLITE_DIR: join(dataDir, `store-${name}`),
  DATABASE_URL: databaseUrl ?? "",
  INDEXER_RPC_URLS: rpcUrl,
  PUBLIC_RATE_LIMIT_PER_MINUTE: "1000000",
});

/** Backfill of the buried history through the provider, per variant. */
async function backfill() {
  const anvil = await startAnvil({ port: 0, gasLimit: BigInt(Math.max(30_000_000, swapsPerTransaction * 150_000)) });
  const proxy = await startProviderProxy({ target: anvil.rpcUrl, ...provider });
  try {
    const manifest = await deployStack({ rpcUrl: anvil.rpcUrl });
    const manifestPath = join(dataDir, "backfill-manifest.json");
    writeManifest(manifestPath, manifest);
    console.log(`building history: ${launches} launches, ${swaps} swaps, ${swapsPerTransaction} per transaction`);
    const history = await buildHistory(manifest, { launches, swaps, swapsPerTransaction });
    const client = createPublicClient({ transport: http(anvil.rpcUrl, { timeout: 120_000 }) });
    for (let i = 0; i < 10; i++)
      await client.request({ method: "anvil_mine" as never, params: [numberToHex(100)] as never });
    const runs = [];
    // The same backfill on the node itself (no round trip, no cap, budget 1,000/s): what the
    // machine's CPU and database alone allow, to split the provider runs' time.
    const local = { name: "local-node", env: { INDEXER_RPC_MAX_RPS: "1000" } } as const;
    for (const variant of [...VARIANTS, local]) {
      proxy.reset();
      const name = `rpc_backfill_${variant.name.replace("-", "_")}`;
      const rpcUrl = variant === local ? anvil.rpcUrl : proxy.url;
      const database = onPostgres ? await createDevnetDatabase(name) : null;
      const started = performance.now();
      const service = await startPonder({
        port: await findFreePort(),
        schema: name,
        env: { ...serviceEnv(manifestPath, name, database?.url, rpcUrl), ...variant.env },
      });
      try {
        await waitReady(service.url, 600_000, { path: "/ready" });
        const wholeSec = (performance.now() - started) / 1000;
        const counts = proxy.counts();
        const fetchStartMs = logTimeMs(service.output(), "Started fetching backfill JSON-RPC data");
        const readyMs = logTimeMs(service.output(), "Started returning 200 responses", "/ready");
        const seconds = fetchStartMs !== null && readyMs !== null ? (readyMs - fetchStartMs) / 1000 : null;
        const { trades } = await waitForIndexedTrades(service.url, service.child.pid!, { launches, swaps });
        if (trades !== swaps) throw new Error(`${name} serves ${trades} trades, the history has ${swaps}`);
        const ideal = idealOf(counts, BACKFILL_DEPENDENT_STEPS);
        const run =
          variant === local
            ? { variant: variant.name, env: variant.env, seconds, wholeSec }
            : {
                variant: variant.name,
                env: variant.env,
                seconds,
                wholeSec,
                provider: counts,
                roundTripsOnCriticalPath: (counts.busySec * 1000) / provider.roundTripMs,
                ideal,
                ratioToIdeal: seconds === null ? null : seconds / ideal.seconds,
              };
        console.log(
          `backfill ${variant.name}: ${seconds?.toFixed(1)} s, ideal ${ideal.seconds.toFixed(1)} s, ${counts.served} requests served, ${counts.throttled} throttled, busy ${counts.busySec.toFixed(1)} s`,
        );
        runs.push(run);
      } finally {
        await service.stop();
        await database?.drop();
      }
    }
    return {
      history: {
        launches,
        swaps,
        swapsPerTransaction,
        swapTransactions: history.swapTransactions,
        lastBlock: Number(history.lastBlock),
      },
      runs,
    };
  } finally {
    await proxy.stop();
    await anvil.stop();
  }
}

/** Live start-up on a chain mining every 100 ms, through the provider, per variant. */
async function liveStartup() {
  const anvil = await startAnvil({ port: 0, blockTimeSec: 0.1 });
  const proxy = await startProviderProxy({ target: anvil.rpcUrl, ...provider });
  try {
    const manifest: DeploymentManifest = await deployStack({ rpcUrl: anvil.rpcUrl });
    const manifestPath = join(dataDir, "live-manifest.json");
    writeManifest(manifestPath, manifest);
    const client = createPublicClient({ transport: http(anvil.rpcUrl) });
    const creator = createWalletClient({ account: devAccount(1), transport: http(anvil.rpcUrl) });
    await launchToken(creator, client, manifest, {
      name: "Rpc Bench",
      symbol: "RPCB",
      firstBuyWei: parseEther("0.01"),
    });
    const runs = [];
    for (const variant of VARIANTS) {
      proxy.reset();
      const name = `rpc_live_${variant.name}`;
      const database = onPostgres ? await createDevnetDatabase(name) : null;
      const started = performance.now();
      const service = await startPonder({
        port: await findFreePort(),
        schema: name,
        env: {
          ...serviceEnv(manifestPath, name, database?.url, proxy.url),
          POLLING_INTERVAL_MS: String(PONDER_POLLING_MS),
          ...variant.env,
        },
      });
      try {
        await waitReady(service.url, 600_000, { path: "/ready" });
        const readyAt = performance.now();
        const before = proxy.counts();
        const lagAtReady = await lagReader(client, service.url)();
        const catchUpSec = await waitCaughtUp(lagReader(client, service.url), readyAt);
        const after = proxy.counts();
        const window = {
          ...after,
          served: after.served - before.served,
          throttled: after.throttled - before.throttled,
          busySec: after.busySec - before.busySec,
        };
        const ideal = idealOf(window, LIVE_DEPENDENT_STEPS);
        const run = {
          variant: variant.name,
          env: variant.env,
          startToReadySec: (readyAt - started) / 1000,
          lagAtReadyBlocks: lagAtReady,
          catchUpSec,
          catchUpProvider: { served: window.served, throttled: window.throttled, busySec: window.busySec },
          ideal,
          ratioToIdeal: catchUpSec === null ? null : catchUpSec / ideal.seconds,
        };
        console.log(
          `live ${variant.name}: lag ${lagAtReady} blocks at /ready, caught up in ${catchUpSec?.toFixed(1)} s, ideal ${ideal.seconds.toFixed(2)} s`,
        );
        runs.push(run);
      } finally {
        await service.stop();
        await database?.drop();
      }
    }
    return { blockTimeMs: 100, runs };
  } finally {
    await proxy.stop();
    await anvil.stop();
  }
}

try {
  const backfillResult = await backfill();
  const live = await liveStartup();
  load.stop();
  const budgetBackfill = backfillResult.runs.find((r) => r.variant === "budget")! as { ratioToIdeal: number | null };
  const budgetLive = live.runs.find((r) => r.variant === "budget")!;
  const defaultLive = live.runs.find((r) => r.variant === "default")!;
  writeLatestResult(values.out ?? "rpc", {
    benchmark: "rpc",
    measuredAt: new Date().toISOString(),
    machine: load.machine(),
    database: values.database,
    provider: { ...provider, what: "bench/providerProxy.ts in front of anvil" },
    budgetRps,
    backfill: backfillResult,
    liveStartup: live,
    targets: [
      {
        name: "backfill through the provider, budget set: <= 1.5x the provider-bound ideal",
        value: budgetBackfill.ratioToIdeal,
        met: budgetBackfill.ratioToIdeal !== null && budgetBackfill.ratioToIdeal <= 1.5,
      },
      {
        name: "live start-up catch-up at 10 blocks/s, 1 URL, budget set: < 10 s",
        value: budgetLive.catchUpSec,
        met: budgetLive.catchUpSec !== null && budgetLive.catchUpSec < 10,
      },
      {
        name: "live start-up catch-up at 10 blocks/s, 1 URL, default limiter: < 10 s",
        value: defaultLive.catchUpSec,
        met: defaultLive.catchUpSec !== null && defaultLive.catchUpSec < 10,
      },
    ],
  });
} finally {
  load.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
