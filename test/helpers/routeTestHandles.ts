/**
 * The handles of a chain-tier route test file, set up once per file: an anvil of its own on the
 * run's saved deployed devnet (./chainDevnet.ts), a viem client (optionally through a counting RPC
 * proxy), a database standing in for Ponder's (empty, or with Ponder's tables and a checkpoint at
 * the chain head) and a PGlite offchain store in a temporary folder. Registers the file's
 * `beforeAll`/`afterAll`; the fields are set once `beforeAll` has run (read them inside tests and
 * hooks, never at module level). Build the app with `appFixture(handles.app(BASE), overrides)`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { createPublicClient, http, type PublicClient } from "viem";
import { afterAll, beforeAll } from "vitest";
import { type Deployment, deploymentSchema } from "../../config/deployment";
import type { AnvilInstance } from "../../devnet/anvil";
import type { DeploymentManifest } from "../../devnet/manifest";
import type { MarketDb } from "../../market/db";
import * as ponderSchema from "../../ponder.schema";
import { openStore, type Store } from "../../store/index";
import type { AppFixtureHandles } from "./appFixture";
import { startDeployedDevnet } from "./chainDevnet";
import { type RpcProxy, startRpcProxy } from "./rpcProxy";

const { pushSchema } = createRequire(import.meta.url)("drizzle-kit/api") as typeof import("drizzle-kit/api");

/** What a file asks for. */
export type RouteTestOptions = {
  /** Prefix of the store's temporary folder (names the file in `ls /tmp`). */
  storePrefix: string;
  /** The store's schema (default `launch_store`). */
  storeSchema?: string;
  /**
   * `empty` (default): an empty database, for files that reach no market query; `ponder`: Ponder's
   * tables (ponder.schema.ts) and `_ponder_checkpoint` at the chain head, so market reads answer.
   */
  market?: "empty" | "ponder";
  /** The app's viem client goes through a counting RPC proxy (./rpcProxy.ts). */
  rpcProxy?: boolean;
};

/** The file's handles (set by its `beforeAll`). */
export type RouteTestHandles = {
  anvil: AnvilInstance;
  manifest: DeploymentManifest;
  deployment: Deployment;
  /** The app's client: through {@link RouteTestHandles.proxy} when asked for, else straight to anvil. */
  publicClient: PublicClient;
  proxy?: RpcProxy;
  marketClient: PGlite;
  db: MarketDb;
  store: Store;
  storeDir: string;
  /** The handles `appFixture` takes, with requests made against `publicBaseUrl`. */
  app(publicBaseUrl: string): AppFixtureHandles;
};

/**
 * Registers the set-up and tear-down of a route test file and returns its handles.
 * @example const h = routeTestHandles({ storePrefix: "client-budgets-" }); // then appFixture(h.app(BASE))
 */
export function routeTestHandles(options: RouteTestOptions): RouteTestHandles {
  const handles = {
    app(publicBaseUrl: string): AppFixtureHandles {
      const { db, store, deployment, publicClient } = handles;
      return { db, store, deployment, publicClient, publicBaseUrl };
    },
  } as RouteTestHandles;

  beforeAll(async () => {
    const devnet = await startDeployedDevnet();
    handles.anvil = devnet.anvil;
    handles.manifest = devnet.manifest;
    handles.deployment = deploymentSchema.parse(devnet.manifest);
    if (options.rpcProxy) handles.proxy = await startRpcProxy({ target: devnet.anvil.rpcUrl });
    handles.publicClient = createPublicClient({ transport: http(handles.proxy?.url ?? devnet.anvil.rpcUrl) });
    handles.marketClient = new PGlite();
    handles.db = drizzle(handles.marketClient) as unknown as MarketDb;
    if (options.market === "ponder") await pushPonderTables(handles);
    handles.storeDir = mkdtempSync(join(tmpdir(), options.storePrefix));
    handles.store = await openStore({
      kind: "pglite",
      dir: handles.storeDir,
      schema: options.storeSchema ?? "launch_store",
    });
  });

  afterAll(async () => {
    await handles.store?.close();
    if (handles.storeDir) rmSync(handles.storeDir, { recursive: true, force: true });
    await handles.marketClient?.close();
    await handles.proxy?.stop();
    await handles.anvil?.stop();
  });

  return handles;
}

/**
 * Ponder's tables, empty, and its checkpoint table at the chain's head block (Ponder's 75-digit
 * checkpoint: timestamp, chain id, block number, then zeros), so market reads answer normally.
 */
async function pushPonderTables(handles: RouteTestHandles): Promise<void> {
  const marketDb = drizzle(handles.marketClient);
  await (await pushSchema(ponderSchema as unknown as Record<string, unknown>, marketDb as never)).apply();
  const head = await handles.publicClient.getBlock();
  const checkpoint = `${String(head.timestamp).padStart(10, "0")}${"0".repeat(16)}${String(head.number).padStart(16, "0")}${"0".repeat(33)}`;
  await handles.marketClient.exec(
    `CREATE TABLE _ponder_checkpoint (chain_name text, chain_id bigint, safe_checkpoint varchar(75), latest_checkpoint varchar(75), finalized_checkpoint varchar(75)); INSERT INTO _ponder_checkpoint VALUES ('evmchain', ${handles.deployment.chainId}, '${checkpoint}', '${checkpoint}', '${checkpoint}');`,
  );
}
