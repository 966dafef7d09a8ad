/**
 * The HTTP application: one router per surface, request ids, and one `onError` that renders every
 * failure as the spec's error body `{ ok: false, error, message }` (http/errorResponses.ts).
 *
 * `createApp` takes its dependencies, so the same app runs inside Ponder (`http/index.ts` passes
 * Ponder's read-only db) and anywhere a db handle exists.
 */
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { observeRequests, type RequestLogger } from "../ops/metrics/http";
import { answerErrorsWithErrorBody } from "./errorResponses";
import { redactPrivateUrls } from "../config/redact";
import type { PublicConfig } from "../config/public";
import { addEthereumChainParameter } from "../chain/network";
import type { MarketDb } from "../market/db";
import { publicRoutes } from "./routes/public";
import { streamRoutes } from "./routes/stream";
import type { StreamHub } from "../market/streamHub";
import { udfRoutes } from "./routes/udf";
import { feedsRoutes } from "./routes/feeds";
import { integrationsRoutes } from "./routes/integrations";
import { dexscreenerRoutes } from "./routes/dexscreener";
import { creatorRewardsRoutes } from "./routes/rewards";
import { requireCsrf } from "./session/csrf";
import { corsOnlyOnPublic, PUBLIC_CORS_PATHS, publicCors } from "./middleware/cors";
import { v1Surface } from "./routes/v1/surface";
import { storeGetter, type TrustDeps, type TrustEnv } from "./middleware/context";
import { clientIp } from "./middleware/clientIp";
import { jsonBody } from "./middleware/jsonBody";
import { rejectControlCharactersInUrl } from "./middleware/queryText";
import { memoryRateLimiter, storeRateLimiter } from "./middleware/rateLimit";
import { publicDescriptorRoutes } from "./routes/descriptors";
import { mediaRoutes } from "./routes/media";
import { sessionRoutes } from "./session/surface";
import { launchService } from "../launches/service";
import type { LaunchObserver } from "../launches/launchDeps";
import { recordLaunchBuild, recordLaunchConfirmation, recordLaunchVerification } from "../ops/metrics/registry";
import { toApiError } from "./serviceErrors";
import { storedMetadataSource, storedMetadataVersion } from "../market/metadata";
import { creatorFundingSource } from "../market/creatorFundingRecord";
import { indexedCheckpoint } from "../market/indexedHead";
import { readCache } from "./market/readCache";
import { requireIndexedData } from "./middleware/indexAvailable";
import { openApiRoutes } from "./openapi/routes";
import { pagesRoutes } from "../pages/routes";
import { pageReads } from "../market/pageReads";
import { OPENAPI_PATH, REFERENCE_PATH } from "./openapi/paths";
import type { DecodeQueue } from "../media/decodeQueue";
import { headAsGet } from "./middleware/headAsGet";
import { freshnessHeader } from "./middleware/freshness";
import { observeIndexedHead } from "../ops/metrics/freshness";
import { compressResponses } from "./middleware/compression";
import { cachePolicy } from "./middleware/cachePolicy";
import type { WebhookSettings } from "../webhooks/settings";

/**
 * Dependencies of the app: every shared service already built, once per process, by
 * `buildServices` (http/services.ts) from the settings `config/env.ts` parsed; `createApp` builds
 * none of them again.
 */
export type AppDeps = {
  db: MarketDb;
  /** Base URL of the service's pages and API, without trailing slash (`PUBLIC_BASE_URL`). */
  publicBaseUrl: string;
  /** Public-surface settings (`config/public.ts` `publicConfigOf(env)`). */
  publicConfig: PublicConfig;
  /** Clock in unix seconds (tests pin it). */
  nowSec: () => number;
  /** Clock in unix milliseconds (session times, rate and quota windows, stored upload times). */
  nowMs: () => number;
  /** Where request log lines go (Ponder's logger in the service; absent: not logged). */
  requestLog?: RequestLogger;
  /** Longest a cached market-data answer is served, in milliseconds (`READ_CACHE_TTL_MS`; 0 = off). */
  readCacheTtlMs: number;
  /**
   * Private URLs besides `deployment.rpcUrl` that must never appear in a response or a log line
   * (`INDEXER_RPC_URLS`, `INDEXER_WS_URL`); see config/redact.ts.
   */
  privateRpcUrls: readonly string[];
  /** Bounds concurrent image decodes of the media upload (media/decodeQueue.ts). */
  imageQueue: DecodeQueue;
  /** Launch intent lifetime, seconds (`LAUNCH_INTENT_TTL_SEC`): intents and the v1 descriptor. */
  intentTtlSec: number;
  /** How long a session verify waits for the indexer's token row, ms (`LAUNCH_REDIRECT_WAIT_MS`). */
  redirectWaitMs: number;
  /** The process's Server-Sent Events hub (market/streamHub.ts). */
  streamHub: StreamHub;
  /** Webhook receiver policy and bounds (webhooks/settings.ts); absent: https + public addresses, 10 per wallet. */
  webhooks?: WebhookSettings;
} & TrustDeps;

/**
 * The public routes that read the indexed data (Hono path patterns): with no readable checkpoint
 * they answer 503 `service_unavailable` (http/middleware/indexAvailable.ts). The v1 market reads
 * get the same guard after their key check (http/routes/v1/surface.ts).
 */
export const MARKET_READ_PATHS = [
  "/api/public/token/*",
  "/api/public/tokens/*",
  "/api/public/trades/*",
  "/api/public/events",
  "/api/public/search",
  "/api/public/udf/search",
  "/api/public/udf/symbols",
  "/api/public/udf/history",
  "/api/public/integrations/*",
  "/token-list/*",
  "/feed/*",
] as const;

/** The HTML pages rate-limited per client IP with `pagesRequestsPerMinute` (Hono path patterns). */
export const PAGE_PATHS = ["/", "/launch", "/token/*", "/t/*"] as const;

/**
 * The launch steps' outcomes as the service's counters (docs/operations.md "Metrics"): a failed
 * confirmation is counted under its catalogue code.
 */
const LAUNCH_METRICS: LaunchObserver = {
  build: recordLaunchBuild,
  verification: recordLaunchVerification,
  confirmation: (outcome) =>
    recordLaunchConfirmation(typeof outcome === "string" ? outcome : (toApiError(outcome.error)?.code ?? "other")),
};

/**
 * Builds the Hono app.
 * @param deps - database handle and public base URL
 * @returns the app; mount it as Ponder's API (`src/api/index.ts`) or call `app.request()`
 */
export function createApp(appDeps: AppDeps) {
  // The services arrive built (http/services.ts); the store getter and the launch observer are
  // bound here and handed to every router explicitly.
  const { publicConfig, nowMs, nowSec, limits } = appDeps;
  const getStore = storeGetter(appDeps.store);
  const deps = {
    ...appDeps,
    getStore,
    // Token records merge the creator metadata of confirmed launches from the store (docs/launch.md).
    storedMetadata: storedMetadataSource(getStore),
    // The launch-integrity record's `creator_funded` (launches/creatorFunding.ts writes the rows).
    creatorFunding: creatorFundingSource(getStore),
    observe: LAUNCH_METRICS,
  };
  // One launch service for both surfaces (launches/service.ts).
  const launches = launchService(deps);
  const network = addEthereumChainParameter(deps.deployment.chainId, publicConfig.network);
  const app = new Hono();
  // CORS only on the public read surface (http/middleware/cors.ts, docs/trust.md "CORS"): first
  // registered, so it strips what a wrapper (Ponder's server) added, after every other handler.
  app.use("*", corsOnlyOnPublic());
  // HTTP conventions (docs/public.md "Caching", docs/operations.md "Compression and CDN"): HEAD
  // runs as a GET through the whole app and drops the body; compression outside the validators
  // and the read cache, which see the uncompressed body.
  app.use(
    "*",
    headAsGet((request, env) => app.fetch(request, env as never)),
  );
  app.use("*", compressResponses());
  app.use("*", cachePolicy());
  for (const path of PUBLIC_CORS_PATHS) if (path !== "/api/public") app.use(path, publicCors()); // "/api/public/*" covers "/api/public"
  app.use("*", requestId({ headerName: "X-Request-Id" }));
  // Operations: HTTP metrics by route template, request log line, in-flight count (docs/operations.md).
  app.use("*", observeRequests({ log: deps.requestLog }));
  // The one body parser (http/middleware/jsonBody.ts, docs/trust.md "Request bodies"): size and
  // depth caps, one JSON object, the safety rule and the text rules on every POST/PUT/PATCH of
  // every surface, before any router (a new route cannot skip it).
  app.use("*", jsonBody());
  // Query values and paths are text: no control character reaches a route (a NUL was a 500).
  app.use("*", rejectControlCharactersInUrl());
  // Trust layer (docs/trust.md): per-IP limit on the public surface (per process), the
  // key-authenticated surface with its own auth and per-key limits, the session surface.
  // The public surface is read-heavy: its per-IP limit counts in process memory, not in the
  // store (a store write per read would bound the read rate by the store's write rate).
  const publicLimiter = memoryRateLimiter({
    prefix: "public:",
    limit: limits.publicRequestsPerMinute,
    key: (c) => clientIp(c, deps.trustProxy, deps.ipv6PrefixBits),
  });
  // "/api/public/*" also matches "/api/public" itself (one count per request). The pages' scripts,
  // stylesheet and default image, and the API description with its reference page's assets, are
  // cheap reads: the same budget (every GET route has a budget: test/chain/abuse.test.ts).
  for (const path of [
    "/api/public/*",
    "/token-list/*",
    "/feed/*",
    "/media/*",
    "/assets/*",
    "/static/*",
    OPENAPI_PATH,
    REFERENCE_PATH,
    `${REFERENCE_PATH}/*`,
  ])
    app.use(path, publicLimiter);
  // HTML pages read the database (token page) or the RPC (launch page) per request: their own
  // per-IP budget, so a flood of page views cannot starve the public API (docs/trust.md "Limits").
  // Over the limit they answer 429 `rate_limited` with the JSON error body and `Retry-After`.
  const pagesLimiter = memoryRateLimiter({
    prefix: "pages:",
    limit: limits.pagesRequestsPerMinute,
    key: (c) => clientIp(c, deps.trustProxy, deps.ipv6PrefixBits),
  });
  for (const path of PAGE_PATHS) app.use(path, pagesLimiter);
  // Health and the session status share one RPC probe, reused for a second (ops/chainProbe.ts).
  const probe = deps.chainProbe;
  // Market-data reads: answers reused while the indexer's checkpoint is unchanged (at most
  // `readCacheTtlMs`; http/market/readCache.ts, docs/operations.md "Read cache").
  const marketReads = readCache({
    readHead: async () => {
      const checkpoint = await indexedCheckpoint(deps.db);
      observeIndexedHead(checkpoint);
      return checkpoint;
    },
    contentVersion: storedMetadataVersion,
    ttlMs: deps.readCacheTtlMs,
  });
  // Market reads answer from the indexed data or 503 with Retry-After, never an empty market
  // (http/middleware/indexAvailable.ts): before the cache, so a cached answer is not served either.
  const indexedData = requireIndexedData({ readCheckpoint: () => indexedCheckpoint(deps.db) });
  for (const path of MARKET_READ_PATHS) app.use(path, indexedData);
  // `Freshness-Sec`: the indexed head's age on every public market read, cached or not (outside
  // the read cache; docs/public.md "Freshness").
  for (const path of ["/api/public/token/*", "/api/public/tokens/*", "/api/public/trades/*"])
    app.use(path, freshnessHeader(deps.db, nowMs));
  for (const path of ["/api/public/token/*", "/api/public/tokens/*", "/api/public/trades/*"])
    app.use(path, marketReads.middleware);
  // One readiness check (and progress tracker) for /api/v1/ready, health and the session status.
  const readiness = deps.readiness;
  app.route("/api/v1", v1Surface({ ...deps, chainProbe: probe, readiness, launches: launches.apiKey, indexedData }));
  // Session surface (docs/trust.md): one sub-app whose per-IP limit (store-backed) covers every
  // route under the prefix, and one CSRF guard (same origin, session cookie, the session's token
  // in header and body) that every session POST names: sign-in, keys, launches, swaps, rewards.
  const sessionCsrf = requireCsrf({ getStore, allowedOrigins: [new URL(deps.publicBaseUrl).origin] });
  const sessionSurface = new Hono<TrustEnv>()
    .use(
      "*",
      storeRateLimiter({
        getStore,
        nowMs,
        prefix: "session:",
        limit: limits.sessionRequestsPerMinute,
        key: (c) => clientIp(c, deps.trustProxy, deps.ipv6PrefixBits),
      }),
    )
    .route(
      "/",
      sessionRoutes({ ...deps, network, chainProbe: probe, readiness, launches: launches.session }, sessionCsrf),
    )
    // Creator rewards: the claim builder behind the same guard and sign-in rule.
    .route(
      "/",
      creatorRewardsRoutes({ db: deps.db, deployment: deps.deployment, client: deps.publicClient }, sessionCsrf),
    );
  app.route("/api/evm/evmchain", sessionSurface);
  app.route("/media", mediaRoutes({ getStore }));
  app.route("/api/public", publicDescriptorRoutes({ publicBaseUrl: deps.publicBaseUrl, limits }));
  app.route("/api/public/udf", udfRoutes(deps));
  // Server-Sent Events (docs/public.md "Streams"): one shared poller per process feeds every stream.
  const hub = deps.streamHub;
  app.route(
    "/api/public/stream",
    streamRoutes({ db: deps.db, hub, trustProxy: deps.trustProxy, ipv6PrefixBits: deps.ipv6PrefixBits }),
  );
  app.route("/api/public", publicRoutes(deps));
  app.route("/api/public/integrations", integrationsRoutes(deps));
  // DexScreener adapter (DEX Screener Adapter Specs; docs/public.md "DexScreener adapter").
  app.route("/api/public/integrations/dexscreener/evmchain", dexscreenerRoutes(deps));
  app.route("/", feedsRoutes(deps));
  // Browser pages: home, launch and token pages (docs/pages.md); every read behind `pageReads`.
  app.route(
    "/",
    pagesRoutes({
      reads: pageReads(deps),
      publicBaseUrl: deps.publicBaseUrl,
      network,
      feeLocker: deps.deployment.contracts.feeLocker,
      nowSec,
    }),
  );
  // API description (docs/openapi.md): generated from this app's routes on first request.
  app.route("/", openApiRoutes(app, deps.publicBaseUrl));

  // Error text may quote the RPC URL (viem's messages do): it leaves redacted, in bodies and logs.
  const privateUrls = [deps.deployment.rpcUrl, ...deps.privateRpcUrls];
  answerErrorsWithErrorBody(app, (text) => redactPrivateUrls(text, privateUrls));
  return app;
}
