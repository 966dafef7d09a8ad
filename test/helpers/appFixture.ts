/**
 * The in-process app of the route tests, built the way the service builds it: settings parsed by
 * `loadEnv` (config/env.ts), every shared service from `buildServices` (http/services.ts, the
 * function `http/index.ts` calls), then `createApp`. A test changes only what it names: the clock,
 * limits, settings (`env`), or a service it replaces (a failing probe, a tiny decode queue).
 */
import type { PublicClient } from "viem";
import { createApp, type AppDeps } from "../../http/app";
import { buildServices } from "../../http/services";
import type { StoreSource } from "../../http/middleware/context";
import type { Deployment } from "../../config/deployment";
import { loadEnv } from "../../config/env";
import type { Limits } from "../../config/limits";
import type { MarketDb } from "../../market/db";

/** The handles a route test owns: Ponder's tables (or an empty database), the store, the chain. */
export type AppFixtureHandles = {
  db: MarketDb;
  store: StoreSource;
  deployment: Deployment;
  publicClient: PublicClient;
  /** Base URL requests are made against (without trailing slash). */
  publicBaseUrl: string;
};

/** What a test changes: any built service, limits over the configured ones, settings over the test defaults. */
export type AppFixtureOverrides = Partial<Omit<AppDeps, "limits">> & {
  /** Limits over the environment's (the v1 per-client ceiling follows the per-key limit unless set). */
  limits?: Partial<Limits>;
  /** Settings as environment variables, over {@link TEST_ENV} and the process's environment. */
  env?: Record<string, string>;
};

/**
 * Settings the route tests start from: the read cache is off (a test reads back what it just
 * wrote), as the tests ran before the app took its settings only from the environment.
 */
export const TEST_ENV: Record<string, string> = { READ_CACHE_TTL_MS: "0" };

/** The app type the route tests call `request()` on. */
export type TestApp = ReturnType<typeof createApp>;

/**
 * Builds the app on `handles` with every service built as the service builds it.
 * @param handles - database, store, deployment, viem client and base URL of the test
 * @param overrides - what the test changes (see {@link AppFixtureOverrides}); the clocks also drive
 *   the readiness check built here
 * @example const app = appFixture({ db, store, deployment, publicClient, publicBaseUrl: BASE }, { limits: { v1RequestsPerMinute: 2 } })
 */
export function appFixture(handles: AppFixtureHandles, overrides: AppFixtureOverrides = {}): TestApp {
  const { limits, env, ...replaced } = overrides;
  const given = Object.fromEntries(Object.entries(replaced).filter(([, value]) => value !== undefined));
  // The handles a test replaces (another store, a deployment on another RPC) are the ones the
  // services are built on, as the service builds them on its own.
  const on = { ...handles, ...given } as AppFixtureHandles & AppFixtureOverrides;
  const services = buildServices(
    loadEnv({ ...process.env, ...TEST_ENV, ...env }),
    {
      db: on.db,
      store: on.store,
      deployment: on.deployment,
      publicClient: on.publicClient,
      nowMs: on.nowMs,
      nowSec: on.nowSec,
    },
    { limits, chainProbe: on.chainProbe },
  );
  return createApp({ ...services, ...given, publicBaseUrl: on.publicBaseUrl });
}
