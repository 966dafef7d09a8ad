/**
 * The app as Ponder serves it: wired to Ponder's read-only database, the offchain store (opened
 * lazily: the first request that needs it awaits the open + migrations, which also start right
 * away) and a viem client on the deployment's RPC. Loaded only by Ponder (through
 * `src/api/index.ts`); tests build theirs with the same `buildServices` (test/helpers/appFixture.ts).
 */
import { db } from "ponder:api";
import { createPublicClient } from "viem";
import { loadDeployment } from "../config/deployment";
import { ConfigError, loadEnv } from "../config/env";
import { HOUSEKEEPING_INTERVAL_MS, pruneExpired } from "../store/housekeeping";
import { loadStoreConfig, openStore, type Store } from "../store/index";
import { createApp } from "./app";
import { isPublicCorsPath } from "./middleware/cors";
import { stripPonderCorsOutsidePublic } from "../ops/corsSeam";
import { buildServices } from "./services";
import { defaultPonderHostname, onPonderShutdown, ponderApiPort } from "../ops/ponderInternals";
import { instrumentedHttp } from "../ops/metrics/rpc";
import { wireOperations } from "../ops/metrics/service";
import { guardPonderMetrics, isIndexerProcess } from "../ops/metrics/access";
import { registerHttpServerHook } from "../ops/httpServerSeam";
import { DEFAULT_LISTEN_HOSTNAME, guardApiPortFallback, ponderListen, refuseTakenApiPort } from "../ops/portGuard";
import { armStopDeadlineOnSignal, stopDeadlineMs } from "../ops/shutdownDeadline";
import { routeProcessWarnings } from "../ops/processWarnings";
import { replicaConfigProblems } from "../ops/replicaConfig";
import { httpServerGuard } from "../ops/httpServerLimits";
import { peerIdentity } from "./middleware/peerIdentity";
import { webhookMetricsObserver } from "../ops/metrics/registry";
import { deliveryWorker } from "../webhooks/worker";
import { indexedEventFeed } from "../webhooks/feedSource";
import { creatorFundingScanner } from "../launches/creatorFunding";
import { noteStoredMetadataChanged } from "../market/metadata";

// Every setting validated (ponder.config.ts already stopped the build on a bad one).
const env = loadEnv();
// A replica (`ponder serve`) needs its public origin (ops/replicaConfig.ts), and every process binds
// loopback unless --hostname says otherwise: a replica binds where the indexer binds.
const replicaProblems = replicaConfigProblems(env, process.argv);
if (replicaProblems.length > 0) throw new ConfigError(replicaProblems);
defaultPonderHostname(DEFAULT_LISTEN_HOSTNAME);
// The port asked for is the port used, or the build fails (ops/portGuard.ts): checked once per
// process, before Ponder probes the port (a dev reload evaluates this file again while the server
// it started holds the port), and Ponder's move to the next free port is turned off.
const portChecked = globalThis as { __launchPortChecked?: boolean };
if (!portChecked.__launchPortChecked) {
  portChecked.__launchPortChecked = true;
  await refuseTakenApiPort(ponderListen(process.env, process.argv));
}
guardApiPortFallback();
// A stop is bounded even while the embedded database holds the event loop: SIGKILL from a worker
// thread at SHUTDOWN_TIMEOUT_MS - 1.5 s after the first stop signal (ops/shutdownDeadline.ts).
armStopDeadlineOnSignal(stopDeadlineMs(env.SHUTDOWN_TIMEOUT_MS));
// Node's process warnings (e.g. pg's DeprecationWarning) as JSON log lines, not plain text in the
// JSON log (ops/processWarnings.ts).
routeProcessWarnings();
// GET /metrics only with `Authorization: Bearer <METRICS_TOKEN>` (404 without a token configured):
// decided in front of Ponder's server, which serves /metrics before our app (ops/metrics/access.ts).
// On the indexer, `/ready` answers as GET /api/v1/ready; a `ponder serve` replica keeps Ponder's.
guardPonderMetrics(env.METRICS_TOKEN, {
  readyFromService: isIndexerProcess(process.argv) && env.PONDER_READY_ON_INDEXER !== "1",
});
// Connection and time bounds of the server Ponder creates: per-client connection cap, minimum
// body rate, Node's timeouts and maxConnections below the open-file limit (ops/httpServerLimits.ts).
registerHttpServerHook(
  "limits",
  httpServerGuard(
    {
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: env.HTTP_MAX_CONNECTIONS,
      maxConnectionsPerClient: env.HTTP_MAX_CONNECTIONS_PER_CLIENT,
      bodyMinBytesPerSec: env.HTTP_BODY_MIN_BYTES_PER_SEC,
      bodyGraceMs: env.HTTP_BODY_GRACE_MS,
    },
    peerIdentity(env.TRUST_PROXY, env.CLIENT_IPV6_PREFIX_BITS),
  ),
);
const deployment = loadDeployment();
// One store per process, even if the module is evaluated again (a PGlite folder must not be
// opened twice).
const shared = globalThis as { __launchStore?: Promise<Store>; __launchHousekeeping?: NodeJS.Timeout };
if (!shared.__launchStore) {
  shared.__launchStore = openStore(loadStoreConfig());
  shared.__launchStore.then(
    (s) => {
      const prune = () =>
        pruneExpired(s, services.nowMs()).catch((err: Error) =>
          console.error(`store housekeeping failed: ${err.message}`),
        );
      shared.__launchHousekeeping = setInterval(prune, HOUSEKEEPING_INTERVAL_MS).unref();
    },
    (err: Error) => console.error(`offchain store failed to open: ${err.message}`),
  );
}
const store = shared.__launchStore;
// RPC calls of the API are counted (launchpad_rpc_requests_total, launchpad_rpc_errors_total; docs/operations.md).
// Each attempt times out after API_RPC_TIMEOUT_MS, with API_RPC_RETRY_COUNT retries, so a stalled
// RPC fails a build with 503 chain_unavailable in bounded time (viem's defaults: 10 s x 4 attempts).
const publicClient = createPublicClient({
  transport: instrumentedHttp(deployment.rpcUrl, {
    timeout: env.API_RPC_TIMEOUT_MS,
    retryCount: env.API_RPC_RETRY_COUNT,
  }),
});
// Every shared service, built once from the parsed settings (http/services.ts): public settings,
// limits, one RPC probe (cached 1 s) and one readiness check per process (shared by
// /api/v1/ready, health, the session status and the status gauges), the Server-Sent Events hub,
// the image decode queue.
const services = buildServices(env, { db, store, deployment, publicClient });
// Ponder's server answers preflights and its own routes with `Access-Control-Allow-Origin: *`
// before the app sees them: the seam takes CORS headers off every non-public path (docs/trust.md "CORS").
stripPonderCorsOutsidePublic(() => ponderApiPort() ?? env.PORT, isPublicCorsPath);
// Metrics into Ponder's /metrics, scrape-time gauges, request logs, drain + store close on SIGTERM.
const requestLog = wireOperations({
  db,
  publicClient,
  store,
  confirmationBlocks: env.EVENTS_CONFIRMATION_BLOCKS,
  readiness: services.readiness,
  // `ponder dev` reloads after a shutdown: the next evaluation opens the store again.
  onShutdown: () => {
    clearInterval(shared.__launchHousekeeping);
    shared.__launchStore = undefined;
  },
});

// The Server-Sent Events hub's streams end with a `: shutdown` comment when Ponder shuts the API
// down (clients reconnect with Last-Event-ID).
onPonderShutdown(async () => services.streamHub.close());

// Webhook delivery (webhooks/worker.ts, docs/webhooks.md): every process delivers; a lease per
// subscription in the store makes exactly one of them deliver each subscription at a time.
const webhookSettings = {
  policy: { allowLoopbackHttp: env.WEBHOOKS_ALLOW_LOOPBACK_HTTP === "1" },
  perWallet: env.WEBHOOKS_PER_WALLET,
  attemptTimeoutMs: env.WEBHOOK_ATTEMPT_TIMEOUT_MS,
};
store.then(
  (s) => {
    const worker = deliveryWorker({
      store: s,
      // Never above the indexer's finalized block: a row re-indexed after a crash must not be walked past.
      feed: indexedEventFeed(db, env.EVENTS_CONFIRMATION_BLOCKS),
      policy: webhookSettings.policy,
      attemptTimeoutMs: webhookSettings.attemptTimeoutMs,
      observer: webhookMetricsObserver(),
    });
    worker.start();
    onPonderShutdown(() => worker.stop());
  },
  () => undefined, // reported where the store is opened
);

// Launch integrity's `creator_funded` (launches/creatorFunding.ts): the creators' transactions of
// every launch whose sniper window is confirmed, read once and kept in the store. Every process
// may scan; a launch scanned twice is written twice with the same row.
if (env.CREATOR_FUNDING_SCAN === "1")
  store.then(
    (s) => {
      const scanner = creatorFundingScanner({
        db,
        store: s,
        client: publicClient,
        confirmationBlocks: env.EVENTS_CONFIRMATION_BLOCKS,
        // Integrity records of this process show the new row at once (the read cache keys on it).
        onRecorded: () => noteStoredMetadataChanged(),
        onError: (err) => console.error(`creator funding scan: ${err.message.split("\n")[0]}`),
      });
      scanner.start();
      onPonderShutdown(() => scanner.stop());
    },
    () => undefined, // reported where the store is opened
  );

export default createApp({ ...services, requestLog, webhooks: webhookSettings });
