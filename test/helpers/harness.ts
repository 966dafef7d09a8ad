/**
 * End-to-end harness: a fresh anvil with the full stack deployed, and the real service (Ponder +
 * the Hono API) on a database of its own. Every e2e test file starts its own, on free ports. The
 * stack is deployed once per run and saved (devnet/snapshot.ts, test/helpers/e2eGlobalSetup.ts);
 * each stack's anvil starts from that saved chain unless the stack asks for other anvil options or
 * no ETH/USD reference, and then deploys on an empty anvil.
 *
 * Which database ({@link e2eDatabase}): a file that names one gets it; otherwise `E2E_DATABASE`
 * (`postgres` or `pglite`), else PostgreSQL (the production database) when the test server
 * answers, else PGlite. Why PostgreSQL by default: the same four e2e files used 146 s of CPU on
 * PGlite (WASM, in the service process) and 88 s on PostgreSQL, and the suite is CPU-bound on
 * 2 cores (docs/testing.md). The embedded PGlite that `npm start` uses keeps the files whose subject
 * it is (they pass `database: "pglite"`: restarts and crashes on it, the PGlite session shared by
 * API and indexer) and `npm start` itself
 * (`e2e.lifecycle`, `ops.config`). On PGlite, both folders start as a copy of the machine's empty
 * cluster (devnet/pgliteTemplate.ts, as `npm start`'s do).
 */
import { randomBytes } from "node:crypto";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, createWalletClient, http, type PublicClient } from "viem";
import { devAccount } from "../../devnet/clients";
import { findFreePort, startAnvil, type AnvilInstance, type StartAnvilOptions } from "../../devnet/anvil";
import { deployStack } from "../../devnet/deploy";
import { writeManifest, type DeploymentManifest } from "../../devnet/manifest";
import { startPonder, type PonderProcess } from "../../scripts/ponderProcess";
import { waitReady } from "../../scripts/serviceReadiness";
import { rpcAnswers, superviseIndexer } from "../../scripts/indexerSupervisor";
import { createDevnetDatabase, postgresAvailable, uniqueSchemaName } from "./postgres";
import { loadStoreConfig, openStore } from "../../store/index";
import { createApiKey } from "../../store/keys";
import { answer } from "./session";
import { responseViolations, startContractProxy, throwIfUpstreamFailed, undocumentedHeaders } from "./contractProxy";
import { copyPgliteTemplate } from "../../devnet/pgliteTemplate";
import { readSnapshot, startSavedDevnet, type DevnetSnapshot } from "../../devnet/snapshot";

/** A running devnet + service. */
export type Stack = {
  anvil: AnvilInstance;
  manifest: DeploymentManifest;
  manifestPath: string;
  service: PonderProcess;
  publicClient: PublicClient;
  /** Temporary folder holding the manifest and PGlite data; removed by `stop`. */
  dataDir: string;
  /** Wallet client of anvil dev account `index` (0 deploys the stack). */
  wallet: (index: number) => ReturnType<typeof makeWallet>;
  /** GET/POST helper returning status, headers and parsed JSON (or text). */
  request: (path: string, init?: RequestInit) => Promise<{ status: number; headers: Headers; body: any }>;
  /**
   * An API key (all scopes, wallet of dev account 0) created in the service's store before it
   * started; `request` sends it on `/api/v1/…` paths unless `init` sets `Authorization`.
   */
  apiKey: string;
  /**
   * The service's `METRICS_TOKEN` (random per stack unless `env` sets one); `request` sends it as
   * `Authorization: Bearer …` on `/metrics` unless `init` sets `Authorization`.
   */
  metricsToken: string;
  /**
   * Stops the service and starts it again on the same port, Ponder schema, PGlite/store folders
   * (or PostgreSQL schemas) and anvil, with `env` merged over the first start's environment;
   * resolves when `GET /api/v1/ready` is 200. `service` then refers to the new process.
   */
  restart: (options?: { env?: NodeJS.ProcessEnv }) => Promise<void>;
  /** Ponder database schema of the service (unique per run on PostgreSQL). */
  schema: string;
  /** Environment the service runs with (manifest, PGlite folders or `DATABASE_URL`, store). */
  serviceEnv: NodeJS.ProcessEnv;
  /**
   * Starts another process on a free port; resolves when `/health` answers; `stop` stops it too.
   * By default on the same database, e.g. `command: "serve"` (an API replica; needs PostgreSQL).
   * With `freshDatabase`, on empty databases of the stack's kind instead (a new database on the
   * test PostgreSQL, dropped by `stop`; or copies of the empty PGlite cluster): an indexer that
   * fetches and indexes the whole chain from scratch beside the stack's service. `env` is merged
   * last.
   */
  startExtra: (options: {
    command: "start" | "serve";
    env?: NodeJS.ProcessEnv;
    freshDatabase?: boolean;
  }) => Promise<PonderProcess>;
  /** Restarts made by the supervisor (`superviseIndexer`; 0 without it). */
  restarts: () => number;
  /** Stops the service and anvil and removes the data folder. */
  stop: () => Promise<void>;
};

function makeWallet(rpcUrl: string, index: number) {
  return createWalletClient({ account: devAccount(index), transport: http(rpcUrl) });
}

/**
 * Starts anvil, deploys the stack and starts the service; resolves when the service's readiness
 * (`GET /api/v1/ready`, `waitReady`) is 200: every deployed block indexed.
 * @param options.schema - Ponder database schema (unique per test file keeps logs apart)
 * @param options.database - `pglite` (a temporary folder) or `postgres` (a database of its own on
 *   the test PostgreSQL, created here and dropped by `stop`); default {@link e2eDatabase}
 * @param options.env - extra environment for the service
 * @param options.serviceRpcUrl - given anvil's URL, returns the RPC URL the service (indexer and
 *   API) uses instead (`RPC_URL`), e.g. a fault-injecting proxy; the stack's own clients
 *   (`publicClient`, `wallet`) keep talking to anvil directly
 * @param options.anvil - options of the devnet's anvil (`startAnvil`)
 * @param options.indexerRpcUrl - given anvil's URL, returns the RPC URL of the indexer alone
 *   (`INDEXER_RPC_URLS`), e.g. anvil itself while the API goes through `serviceRpcUrl`'s proxy, so
 *   the proxy sees only the API's requests
 */
export async function startStack(options: {
  schema: string;
  database?: "pglite" | "postgres";
  env?: NodeJS.ProcessEnv;
  serviceRpcUrl?: (anvilRpcUrl: string) => string | Promise<string>;
  indexerRpcUrl?: (anvilRpcUrl: string) => string;
  /** The indexer also subscribes to newHeads on anvil's WebSocket (`INDEXER_WS_URL`). */
  newHeadsOverWebSocket?: boolean;
  /** Options of the devnet's anvil (e.g. a past `genesisTimestampSec`). */
  anvil?: StartAnvilOptions;
  /**
   * Supervise the service as `npm start` does (scripts/indexerSupervisor.ts): restart it after it
   * has been `stalled` for `restartAfterSec` while the chain advances; `stack.restarts()` counts.
   */
  superviseIndexer?: { restartAfterSec: number };
  /** Deploy the devnet's ETH/USD reference pool (default true); false: a stack without USD figures. */
  ethUsdReference?: boolean;
  /** The service's open-file limit (`startPonder`'s `openFileLimit`; default inherited). */
  openFileLimit?: number;
}): Promise<Stack> {
  const onPostgres = (await e2eDatabase(options.database)) === "postgres";
  const schema = onPostgres ? uniqueSchemaName(options.schema) : options.schema;
  const dataDir = mkdtempSync(join(tmpdir(), "launch-e2e-"));
  const storeSchema = onPostgres ? uniqueSchemaName(`${options.schema}_store`) : "launch_store";
  const phases = startPhases(options.schema);
  // The run's saved deployment (test/helpers/e2eGlobalSetup.ts) when this stack wants the default
  // one: a default anvil and the ETH/USD reference. Else anvil starts empty and the stack deploys.
  const saved = options.anvil === undefined && options.ethUsdReference !== false ? await savedDevnet() : undefined;
  const restored = saved ? await startSavedDevnet(saved) : undefined;
  const anvil = restored?.anvil ?? (await startAnvil(options.anvil));
  phases.mark("anvil");
  let databases: ServiceDatabases | undefined;
  try {
    databases = await emptyServiceDatabases(onPostgres ? "postgres" : "pglite", options.schema, dataDir);
    const manifest =
      restored?.manifest ?? (await deployStack({ rpcUrl: anvil.rpcUrl, ethUsdReference: options.ethUsdReference }));
    phases.mark("deploy");
    const manifestPath = join(dataDir, "manifest.json");
    writeManifest(manifestPath, manifest);
    // The offchain store: its own PGlite folder, or a unique schema in the test PostgreSQL.
    // E2E tests poll, so the per-key v1 limit and the per-IP health and pages limits are raised
    // unless a test sets them.
    const storeEnv = {
      ...databases.env,
      STORE_SCHEMA: storeSchema,
      V1_RATE_LIMIT_PER_MINUTE: "100000",
      HEALTH_RATE_LIMIT_PER_MINUTE: "100000",
      READY_RATE_LIMIT_PER_MINUTE: "100000",
      PAGES_RATE_LIMIT_PER_MINUTE: "100000",
      // As `npm start`'s devnet: ready (GET /api/v1/ready, what `startStack` and `restart` wait
      // for) only with every block indexed; the test chain mines only when a test sends something.
      READY_MAX_LAG_BLOCKS: "0",
      ...options.env,
    };
    const store = await openStore(loadStoreConfig(storeEnv));
    const { secret: apiKey } = await createApiKey(store, {
      wallet: devAccount(0).address,
      label: "e2e harness",
      createdVia: "cli",
    });
    await store.close();
    phases.mark("store");
    // /metrics is served only with its bearer token (docs/operations.md "Metrics").
    const metricsToken = options.env?.METRICS_TOKEN ?? randomBytes(32).toString("base64url");
    const serviceEnv: NodeJS.ProcessEnv = {
      DEPLOYMENT_MANIFEST: manifestPath,
      // As `npm start` does: the devnet publishes its (secret-free) anvil URL for wallets.
      PUBLIC_RPC_URL: anvil.rpcUrl,
      METRICS_TOKEN: metricsToken,
      ...storeEnv,
    };
    if (options.serviceRpcUrl) serviceEnv.RPC_URL = await options.serviceRpcUrl(anvil.rpcUrl);
    if (options.indexerRpcUrl) serviceEnv.INDEXER_RPC_URLS = options.indexerRpcUrl(anvil.rpcUrl);
    if (options.newHeadsOverWebSocket) serviceEnv.INDEXER_WS_URL = anvil.wsUrl;
    const port = await findFreePort();
    let service = await startPonder({ port, schema, env: serviceEnv, openFileLimit: options.openFileLimit });
    phases.mark("service_health");
    await waitReady(service.url);
    phases.mark("service_ready");
    phases.write();
    /** Stopped with the stack, before the service. */
    const cleanups: (() => Promise<void>)[] = [];
    // Every answer `request` receives is validated against the served OpenAPI document by a
    // third-party validating proxy (test/helpers/contractProxy.ts); E2E_CONTRACT_PROXY=0 turns it off.
    const contract = process.env.E2E_CONTRACT_PROXY === "0" ? undefined : await startContractProxy(service.url);
    cleanups.push(async () => contract?.stop());
    const request: Stack["request"] = async (path, init) => {
      const headers = new Headers(init?.headers);
      if (path.startsWith("/api/v1/") && !headers.has("Authorization"))
        headers.set("Authorization", `Bearer ${apiKey}`);
      if (path.split("?")[0] === "/metrics" && !headers.has("Authorization"))
        headers.set("Authorization", `Bearer ${metricsToken}`);
      const method = (init?.method ?? "GET").toUpperCase();
      // HEAD is GET without a body (RFC 9110 §9.3.2), not a documented operation of its own; the
      // proxy re-encodes binary bodies (a multipart upload arrives corrupted), so they go direct.
      const textBody = init?.body === undefined || init.body === null || typeof init.body === "string";
      const base = contract && method !== "HEAD" && textBody ? contract.url : service.url;
      const send = () => fetch(`${base}${path}`, { ...init, headers });
      let res: Response;
      try {
        res = await send();
      } catch (err) {
        // A reused keep-alive connection the server closed as the request went out (its idle
        // timeout, hit on a loaded machine) fails before any answer: a read is sent again once,
        // as HTTP clients do for idempotent requests (RFC 9110 §9.2.2). Anything else is thrown.
        const code = (err as { cause?: { code?: string } }).cause?.code;
        if ((method !== "GET" && method !== "HEAD") || code !== "UND_ERR_SOCKET") throw err;
        res = await send();
      }
      // The proxy's own answer when the service did not answer (killed, restarting): to the test it
      // is what a direct request would have met, a failed fetch.
      if (contract && base === contract.url) await throwIfUpstreamFailed(res);
      const violations: unknown[] = responseViolations(res.headers);
      if (contract && base === contract.url) {
        const extra = undocumentedHeaders(contract.document, method, path, res.status, res.headers);
        if (extra.length > 0) violations.push({ location: ["response", "headers"], undocumented: extra });
      }
      if (violations.length > 0)
        throw new Error(
          `${method} ${path} answered ${res.status}, which the OpenAPI document does not describe: ${JSON.stringify(violations)}`,
        );
      return answer(res);
    };
    const extras: PonderProcess[] = [];
    const extraDatabases: ServiceDatabases[] = [];
    /** Environment of an extra process on empty databases of this stack's kind. */
    const freshDatabaseEnv = async (): Promise<NodeJS.ProcessEnv> => {
      const fresh = await emptyServiceDatabases(
        onPostgres ? "postgres" : "pglite",
        `${options.schema}_x`,
        mkdtempSync(join(dataDir, "extra-")),
      );
      extraDatabases.push(fresh);
      return fresh.env;
    };
    // Same restart as npm start's supervisor: SIGTERM, then a new process on the same folders.
    const supervisor = options.superviseIndexer
      ? superviseIndexer({
          serviceUrl: () => service.url,
          restartAfterSec: options.superviseIndexer.restartAfterSec,
          indexerRpcAnswers: () =>
            rpcAnswers((serviceEnv.INDEXER_RPC_URLS || serviceEnv.RPC_URL || anvil.rpcUrl).split(",")),
          restart: async () => {
            const t0 = Date.now();
            await service.stop();
            const t1 = Date.now();
            service = await startPonder({ port, schema, env: serviceEnv, openFileLimit: options.openFileLimit });
            stack.service = service;
            console.log(
              JSON.stringify({ supervisor_restart: { at_ms: t0, stop_ms: t1 - t0, start_ms: Date.now() - t1 } }),
            );
          },
        })
      : undefined;
    const stack: Stack = {
      anvil,
      manifest,
      manifestPath,
      service,
      publicClient: createPublicClient({ transport: http(anvil.rpcUrl) }),
      dataDir,
      wallet: (index) => makeWallet(anvil.rpcUrl, index),
      request,
      apiKey,
      metricsToken,
      schema,
      serviceEnv,
      startExtra: async (extraOptions) => {
        const databaseEnv = extraOptions.freshDatabase ? await freshDatabaseEnv() : {};
        // A replica needs its public origin (ops/replicaConfig.ts): the indexer's, as behind one load balancer.
        const replicaEnv =
          extraOptions.command === "serve" && !serviceEnv.PUBLIC_BASE_URL
            ? { PUBLIC_BASE_URL: `http://localhost:${port}` }
            : {};
        const extra = await startPonder({
          port: await findFreePort(),
          schema,
          command: extraOptions.command,
          env: { ...serviceEnv, ...databaseEnv, ...replicaEnv, ...extraOptions.env },
        });
        extras.push(extra);
        return extra;
      },
      restart: async (restartOptions) => {
        await service.stop();
        service = await startPonder({
          port,
          schema,
          env: { ...serviceEnv, ...restartOptions?.env },
          openFileLimit: options.openFileLimit,
        });
        stack.service = service;
        await waitReady(service.url);
      },
      restarts: () => supervisor?.restarts() ?? 0,
      stop: async () => {
        supervisor?.stop();
        for (const cleanup of cleanups) await cleanup();
        for (const extra of extras) await extra.stop();
        await service.stop();
        await anvil.stop();
        rmSync(dataDir, { recursive: true, force: true });
        for (const extraDatabase of extraDatabases) await extraDatabase.drop();
        await databases?.drop();
      },
    };
    return stack;
  } catch (err) {
    await anvil.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await databases?.drop().catch(() => undefined);
    throw err;
  }
}

/** Empty databases for one service process (its indexer and its offchain store). */
export type ServiceDatabases = {
  /** `DATABASE_URL` (empty on PGlite) and the PGlite folders (unused on PostgreSQL). */
  env: { DATABASE_URL: string; PONDER_PGLITE_DIR: string; STORE_PGLITE_DIR: string };
  /** Drops the PostgreSQL database, terminating its connections; nothing on PGlite. */
  drop: () => Promise<void>;
};

/**
 * Creates empty databases of `kind` for one service.
 * - PostgreSQL: a database of its own on the test server (`createDevnetDatabase`, named from
 *   `prefix`). A database, not a schema: Ponder's raw-data cache (`ponder_sync`) is per database
 *   and keyed by chain id, so two devnets in one database read each other's logs, and a fresh
 *   indexer would not fetch the chain itself.
 * - PGlite: `dir/pglite` and `dir/store`, each a copy of the machine's empty cluster
 *   (devnet/pgliteTemplate.ts); they go when `dir` is removed.
 * Ponder's tables and the store's migrations are created later, by the store and the service.
 */
export async function emptyServiceDatabases(
  kind: "pglite" | "postgres",
  prefix: string,
  dir: string,
): Promise<ServiceDatabases> {
  const folders = { PONDER_PGLITE_DIR: join(dir, "pglite"), STORE_PGLITE_DIR: join(dir, "store") };
  if (kind === "postgres") {
    const database = await createDevnetDatabase(prefix);
    return { env: { ...folders, DATABASE_URL: database.url }, drop: database.drop };
  }
  await copyPgliteTemplate(folders.STORE_PGLITE_DIR);
  await copyPgliteTemplate(folders.PONDER_PGLITE_DIR);
  return { env: { ...folders, DATABASE_URL: "" }, drop: async () => undefined };
}

/**
 * The deployed devnet the e2e project's global set-up saved for this run (`devnetSnapshotDir`,
 * test/helpers/e2eGlobalSetup.ts), or undefined outside vitest or in a project without it.
 */
async function savedDevnet(): Promise<DevnetSnapshot | undefined> {
  if (!process.env.VITEST) return undefined; // the benches import this harness outside vitest
  const { inject } = await import("vitest");
  const dir = inject("devnetSnapshotDir");
  return dir ? readSnapshot(dir) : undefined;
}

/**
 * The database a stack runs on: `requested` when given, else `E2E_DATABASE` (`postgres` or
 * `pglite`), else `postgres` when the test PostgreSQL answers (test/helpers/postgres.ts), else `pglite`.
 * @throws Error when `E2E_DATABASE` is set to anything else
 */
export async function e2eDatabase(requested?: "pglite" | "postgres"): Promise<"pglite" | "postgres"> {
  if (requested) return requested;
  const fromEnv = process.env.E2E_DATABASE;
  if (fromEnv === "pglite" || fromEnv === "postgres") return fromEnv;
  if (fromEnv) throw new Error(`E2E_DATABASE must be "pglite" or "postgres", got "${fromEnv}"`);
  return (await postgresAvailable()) ? "postgres" : "pglite";
}

/**
 * Wall time of each start-up phase of one stack, in ms since the previous mark. With
 * `STACK_TIMINGS_FILE` set, `write` appends one JSON line per stack to that file, e.g.
 * `{"schema":"e2e_launch","anvil":402,"deploy":811,"store":2310,"service_health":14020,"service_ready":3100}`
 * (how the start-up breakdown in docs/operations.md was measured); without it nothing is written.
 */
function startPhases(schema: string) {
  const times: Record<string, number | string> = { schema, pid: process.pid };
  let last = Date.now();
  return {
    mark(phase: string) {
      const now = Date.now();
      times[phase] = now - last;
      last = now;
    },
    write() {
      const file = process.env.STACK_TIMINGS_FILE;
      if (file) appendFileSync(file, `${JSON.stringify({ ...times, at: new Date().toISOString() })}\n`);
    },
  };
}

/** A JSON POST request init: `body` serialised, `Content-Type: application/json`, extra `headers`. */
export const jsonPost = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/**
 * Polls `fn` until it returns something other than `undefined`.
 * @throws Error naming `what` after `timeoutMs`
 */
export async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
