/**
 * The app as Ponder serves it: wired to Ponder's read-only database, the offchain store (opened
 * lazily: the first request that needs it awaits the open + migrations, which also start right
 * away) and a viem client on the deployment's RPC. Loaded only by Ponder (through
 * `src/api/index.ts`); tests build their own app with `createApp`.
 */
import { db } from "ponder:api";
import { createPublicClient, http } from "viem";
import { loadDeployment } from "../config/deployment";
import { HOUSEKEEPING_INTERVAL_MS, pruneExpired } from "../store/housekeeping";
import { loadStoreConfig, openStore, type Store } from "../store/index";
import { createApp } from "./app";

const deployment = loadDeployment();
const port = process.env.PORT ?? 42069;
// One store per process, even if the module is evaluated again (a PGlite folder must not be
// opened twice).
const shared = globalThis as { __launchStore?: Promise<Store> };
if (!shared.__launchStore) {
  shared.__launchStore = openStore(loadStoreConfig());
  shared.__launchStore.then(
    (s) => {
      const prune = () => pruneExpired(s).catch((err: Error) => console.error(`store housekeeping failed: ${err.message}`));
      setInterval(prune, HOUSEKEEPING_INTERVAL_MS).unref();
    },
    (err: Error) => console.error(`offchain store failed to open: ${err.message}`),
  );
}
const store = shared.__launchStore;
const perMinute = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const limits = Object.fromEntries(
  Object.entries({
    v1RequestsPerMinute: perMinute("V1_RATE_LIMIT_PER_MINUTE"),
    publicRequestsPerMinute: perMinute("PUBLIC_RATE_LIMIT_PER_MINUTE"),
    sessionRequestsPerMinute: perMinute("SESSION_RATE_LIMIT_PER_MINUTE"),
  }).filter(([, v]) => v !== undefined && Number.isInteger(v) && v > 0),
);

export default createApp({
  db,
  publicBaseUrl: (process.env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/$/, ""),
  store,
  deployment,
  publicClient: createPublicClient({ transport: http(deployment.rpcUrl) }),
  indexerStatusUrl: `http://127.0.0.1:${port}/status`,
  limits,
  trustProxy: process.env.TRUST_PROXY === "1",
});
