/**
 * The one place the app's shared services are built: from the settings parsed once per process
 * (`config/env.ts` `loadEnv()`) and the process's handles (Ponder's database, the store, the
 * deployment, the viem client). `http/index.ts` (the service) and the tests' app fixture
 * (test/helpers/appFixture.ts) both call {@link buildServices}; `createApp` builds nothing again.
 */
import type { PublicClient } from "viem";
import type { Deployment } from "../config/deployment";
import type { Env } from "../config/env";
import { privateIndexerUrls } from "../config/indexerRpc";
import { resolveLimits, type Limits } from "../config/limits";
import { publicConfigOf } from "../config/public";
import type { MarketDb } from "../market/db";
import { indexedHead } from "../market/indexedHead";
import { streamHub } from "../market/streamHub";
import { decodeQueue } from "../media/decodeQueue";
import { chainProbe } from "../ops/chainProbe";
import { observeIndexedHead, observeStreamEmit } from "../ops/metrics/freshness";
import { readinessMonitor } from "../ops/readiness";
import type { AppDeps } from "./app";
import type { StoreSource } from "./middleware/context";

/** The process's handles the services are built on. */
export type ServiceHandles = {
  /** Ponder's read-only database (the indexed tables). */
  db: MarketDb;
  /** The offchain store (or the promise of its open). */
  store: StoreSource;
  /** Chain id and contract addresses (`config/deployment.ts`). */
  deployment: Deployment;
  /** viem client on the deployment's RPC. */
  publicClient: PublicClient;
  /** The clock in unix milliseconds (default: the wall clock; tests pin it). */
  nowMs?: () => number;
  /** The clock in unix seconds (default: `nowMs` in whole seconds). */
  nowSec?: () => number;
};

/** Everything `createApp` needs except the request logger (which the operations wiring makes from the readiness check). */
export type AppServices = Omit<AppDeps, "requestLog">;

/**
 * The limits the environment sets (`*_PER_MINUTE`, `*_PER_HOUR`, `*_PER_DAY`, `API_KEYS_PER_WALLET`,
 * `MEDIA_BYTES_PER_WALLET_PER_DAY`); limits without a variable keep their default (config/limits.ts).
 * @param env - the result of `loadEnv()`
 * @example configuredLimits(loadEnv({ V1_RATE_LIMIT_PER_MINUTE: "10" })).v1RequestsPerMinute // 10
 */
export function configuredLimits(env: Env): Partial<Limits> {
  return {
    v1RequestsPerMinute: env.V1_RATE_LIMIT_PER_MINUTE,
    // unset: resolveLimits derives it from the per-key limit (V1_CLIENT_CEILING_FACTOR x)
    ...(env.V1_CLIENT_RATE_LIMIT_PER_MINUTE === undefined
      ? {}
      : { v1ClientRequestsPerMinute: env.V1_CLIENT_RATE_LIMIT_PER_MINUTE }),
    keysPerSessionPerHour: env.KEYS_PER_SESSION_PER_HOUR,
    keysPerIpPerHour: env.KEYS_PER_IP_PER_HOUR,
    coinsCreatedPerIpPerDay: env.COINS_CREATED_PER_IP_PER_DAY,
    coinsFinalizedPerIpPerDay: env.COINS_FINALIZED_PER_IP_PER_DAY,
    publicRequestsPerMinute: env.PUBLIC_RATE_LIMIT_PER_MINUTE,
    sessionRequestsPerMinute: env.SESSION_RATE_LIMIT_PER_MINUTE,
    activeKeysPerWallet: env.API_KEYS_PER_WALLET,
    pagesRequestsPerMinute: env.PAGES_RATE_LIMIT_PER_MINUTE,
    healthRequestsPerMinute: env.HEALTH_RATE_LIMIT_PER_MINUTE,
    readyRequestsPerMinute: env.READY_RATE_LIMIT_PER_MINUTE,
    openV1RequestsPerMinute: env.PUBLIC_RATE_LIMIT_PER_MINUTE,
    mediaBytesPerWalletPerDay: env.MEDIA_BYTES_PER_WALLET_PER_DAY,
  };
}

/**
 * Builds every shared service of the app once: public settings, clocks, limits, the cached RPC
 * probe, the readiness check, the Server-Sent Events hub, the image decode queue, proxy trust and
 * the private URLs that are redacted from responses.
 * @param env - the settings, parsed once per process (`loadEnv()`)
 * @param handles - the process's database, store, deployment, viem client and clock
 * @param replace - what a test changes: `limits` over the environment's, a `chainProbe` of its own
 *   (the readiness check is then built on it)
 * @returns the app's dependencies without the request logger: `createApp({ ...services, requestLog })`
 */
export function buildServices(
  env: Env,
  handles: ServiceHandles,
  replace: { limits?: Partial<Limits>; chainProbe?: AppDeps["chainProbe"] } = {},
): AppServices {
  const { db, deployment, publicClient } = handles;
  const nowMs = handles.nowMs ?? (() => Date.now());
  const nowSec = handles.nowSec ?? (() => Math.floor(nowMs() / 1000));
  const publicConfig = publicConfigOf(env);
  // One RPC probe (cached 1 s) and one readiness check (with its progress tracker) per process,
  // shared by /api/v1/ready, health, the session status and the status gauges (ops/readiness.ts).
  const probe = replace.chainProbe ?? chainProbe({ client: publicClient, expectedChainId: deployment.chainId });
  const readiness = readinessMonitor({
    indexedHead: () => indexedHead(db),
    probe,
    policy: { maxLagBlocks: env.READY_MAX_LAG_BLOCKS, maxIndexedAgeSec: env.READY_MAX_INDEXED_AGE_SEC },
    nowMs,
  });
  // One Server-Sent Events hub per process (one checkpoint poller for every stream).
  const hub = streamHub({
    db,
    confirmationBlocks: env.EVENTS_CONFIRMATION_BLOCKS,
    settings: {
      pollIntervalMs: env.STREAM_POLL_INTERVAL_MS,
      keepAliveMs: env.STREAM_KEEPALIVE_SEC * 1000,
      maxPerIp: env.STREAM_MAX_PER_IP,
      maxConnections: env.STREAM_MAX_CONNECTIONS,
      maxQueuedFrames: env.STREAM_MAX_QUEUED_FRAMES,
    },
    // Freshness histograms (ops/metrics/freshness.ts).
    onEmit: (stream, frame, blockTimestampSec) => observeStreamEmit(stream, frame, blockTimestampSec),
    onHead: observeIndexedHead,
  });
  return {
    db,
    store: handles.store,
    deployment,
    publicClient,
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${env.PORT}`).replace(/\/$/, ""),
    publicConfig,
    nowMs,
    nowSec,
    limits: resolveLimits({ ...configuredLimits(env), ...replace.limits }),
    trustProxy: env.TRUST_PROXY,
    ipv6PrefixBits: env.CLIENT_IPV6_PREFIX_BITS,
    chainProbe: probe,
    readiness,
    streamHub: hub,
    readCacheTtlMs: env.READ_CACHE_TTL_MS,
    intentTtlSec: env.LAUNCH_INTENT_TTL_SEC,
    redirectWaitMs: env.LAUNCH_REDIRECT_WAIT_MS,
    privateRpcUrls: privateIndexerUrls(env),
    imageQueue: decodeQueue({
      concurrency: env.IMAGE_DECODE_CONCURRENCY,
      maxQueued: env.IMAGE_DECODE_QUEUE_MAX,
      maxWaitMs: env.IMAGE_DECODE_WAIT_MS,
    }),
  };
}
