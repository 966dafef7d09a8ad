/**
 * Every setting of the service and of `npm start`, validated once with zod.
 *
 * {@link loadEnv} checks the whole environment at start: `scripts/start.ts` calls it before it
 * starts anything, and `ponder.config.ts` calls it, so `ponder start` / `ponder serve` stop at
 * Ponder's config build (exit code 1) with the same message. The message names each variable and
 * what is wrong with it, e.g.
 *
 * ```
 * invalid configuration (2 problems):
 *   PORT: must be an integer from 1 to 65535, got "http"
 *   V1_RATE_LIMIT_PER_MINUTE: must be an integer >= 1, got "0"
 * ```
 *
 * An empty value counts as unset (the default applies), as in `.env.example`, which lists every
 * variable with its default. The public surface's settings are derived from the result
 * (`config/public.ts`, built once by the entry point and passed down by `createApp`); the
 * deployment, the market thresholds and the store (`config/deployment.ts`, `config/market.ts`,
 * `store/index.ts`) keep their own parsing, read once by the entry points. This schema is the
 * single place that rejects a bad value before anything runs, and `test/e2e/opsConfig.test.ts`
 * checks that every variable the code reads is declared here and in `.env.example`.
 */
import { z } from "zod";
import {
  address,
  addressProblem,
  flag,
  int,
  optional,
  pgIdentifier,
  proxyTrust,
  slug,
  url,
  urlList,
  wei,
} from "./envValues";
import { LIMITS } from "./limits";

/** A request rate per RPC URL: one integer for every URL, or one per URL, comma-separated. */
const rpsList = z
  .string()
  .refine(
    (v) => v.split(",").every((n) => /^\d+$/.test(n.trim()) && Number(n) >= 1 && Number(n) <= 100_000),
    "must be requests/s from 1 to 100000: one integer, or one per INDEXER_RPC_URLS entry, comma-separated",
  );

/** Addresses and values required once `LAUNCH_FACTORY_ADDRESS` switches to a configured chain. */
const PRODUCTION_REQUIRED = [
  "RPC_URL",
  "START_BLOCK",
  "FEE_LOCKER_ADDRESS",
  "PROTOCOL_FEE_RECIPIENT",
  "WETH_ADDRESS",
  "UNISWAP_V3_FACTORY_ADDRESS",
  "NONFUNGIBLE_POSITION_MANAGER_ADDRESS",
  "SWAP_ROUTER_ADDRESS",
  "QUOTER_V2_ADDRESS",
] as const;

/**
 * The schema: one entry per environment variable. Defaults here are the documented defaults
 * (README, `.env.example`); a variable without a default is optional.
 */
export const ENV_SCHEMA = z.object({
  // Chain and contracts (config/deployment.ts)
  RPC_URL: optional(url(["http:", "https:"], "an http(s) URL")),
  CHAIN_ID: optional(int(1)).default(4663),
  START_BLOCK: optional(int(0)),
  LAUNCH_FACTORY_ADDRESS: optional(address),
  FEE_LOCKER_ADDRESS: optional(address),
  ACCEPTED_FACTORIES: optional(
    z.string().superRefine((v, ctx) => {
      const problems = v
        .split(",")
        .map((a) => a.trim())
        .filter(Boolean)
        .map((a) => (addressProblem(a) ? `${a}: ${addressProblem(a)}` : undefined))
        .filter(Boolean);
      if (problems.length > 0)
        ctx.addIssue({
          code: "custom",
          message: `must be comma-separated 20-byte hex addresses (${problems.join("; ")})`,
        });
    }),
  ),
  PROTOCOL_FEE_RECIPIENT: optional(address),
  WETH_ADDRESS: optional(address),
  UNISWAP_V3_FACTORY_ADDRESS: optional(address),
  NONFUNGIBLE_POSITION_MANAGER_ADDRESS: optional(address),
  SWAP_ROUTER_ADDRESS: optional(address),
  QUOTER_V2_ADDRESS: optional(address),
  MINIMUM_POOL_LIQUIDITY_WEI: optional(wei),
  START_TICK: optional(int(-887272, 887272, "must be an integer tick from -887272 to 887272")),
  DEPLOYMENT_MANIFEST: optional(z.string()).default(".devnet/manifest.json"),
  // ETH/USD reference: a WETH/stablecoin Uniswap V3 pool on the chain (config/deployment.ts;
  // docs/public.md "USD values"). Unset: every *_usd field is null. On the devnet the manifest's
  // `ethUsdPool` applies unless this is set.
  ETH_USD_POOL: optional(address),
  // Databases
  DATABASE_URL: optional(url(["postgres:", "postgresql:"], "a postgres:// or postgresql:// connection URL")),
  DATABASE_SCHEMA: optional(pgIdentifier(45)).default("evmchain"),
  PONDER_PGLITE_DIR: optional(z.string()).default(".ponder/pglite"),
  STORE_SCHEMA: optional(pgIdentifier(63)).default("launch_store"),
  STORE_PGLITE_DIR: optional(z.string()).default(".data/store"),
  // Service
  PORT: optional(int(1, 65535)).default(42069),
  PUBLIC_BASE_URL: optional(url(["http:", "https:"], "an http(s) URL (origin of the public site, no trailing path)")),
  POLLING_INTERVAL_MS: optional(int(1)).default(100),
  INDEXER_RPC_URLS: optional(urlList(["http:", "https:"], "comma-separated http(s) URLs")),
  // The indexer's newHeads subscription (docs/operations.md "Live heads over WebSocket"): unset, the
  // poll alone finds new blocks
  INDEXER_WS_URL: optional(url(["ws:", "wss:"], "a ws:// or wss:// URL")),
  // The indexer's provider budget (config/indexerRpc.ts): unset, Ponder's adaptive limit (20/s, +5 %)
  INDEXER_RPC_MAX_RPS: optional(rpsList),
  INDEXER_RPC_START_RPS: optional(rpsList),
  API_RPC_TIMEOUT_MS: optional(int(100)).default(5000),
  API_RPC_RETRY_COUNT: optional(int(0, 10)).default(1),
  TRUST_PROXY: optional(proxyTrust).default(false),
  // Per-IP budgets group IPv6 clients by this prefix length (http/middleware/clientIp.ts)
  CLIENT_IPV6_PREFIX_BITS: optional(int(16, 128)).default(64),
  // HTTP server bounds (ops/httpServerLimits.ts, docs/operations.md "HTTP server bounds"): headers
  // and whole-request deadlines, idle keep-alive, open connections per process (clamped below the
  // open-file limit) and per client address, and the slowest body accepted after a grace period
  HTTP_HEADERS_TIMEOUT_MS: optional(int(1000, 600_000)).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: optional(int(1000, 3_600_000)).default(60_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: optional(int(100, 600_000)).default(5_000),
  HTTP_MAX_CONNECTIONS: optional(int(16, 1_000_000)).default(4_096),
  HTTP_MAX_CONNECTIONS_PER_CLIENT: optional(int(1, 1_000_000)).default(64),
  HTTP_BODY_MIN_BYTES_PER_SEC: optional(int(1, 1_000_000_000)).default(1_024),
  HTTP_BODY_GRACE_MS: optional(int(0, 600_000)).default(5_000),
  V1_RATE_LIMIT_PER_MINUTE: optional(int(1)).default(LIMITS.v1RequestsPerMinute),
  // v1 requests per minute per client IP over all its keys (config/limits.ts; docs/trust.md
  // "Limits"); unset: 4 x V1_RATE_LIMIT_PER_MINUTE
  V1_CLIENT_RATE_LIMIT_PER_MINUTE: optional(int(1)),
  PUBLIC_RATE_LIMIT_PER_MINUTE: optional(int(1)).default(LIMITS.publicRequestsPerMinute),
  SESSION_RATE_LIMIT_PER_MINUTE: optional(int(1)).default(LIMITS.sessionRequestsPerMinute),
  API_KEYS_PER_WALLET: optional(int(1)).default(LIMITS.activeKeysPerWallet),
  // Bytes of re-encoded images a wallet's keys may store per 24 hours (http/routes/v1/media.ts)
  MEDIA_BYTES_PER_WALLET_PER_DAY: optional(int(1)).default(LIMITS.mediaBytesPerWalletPerDay),
  // Browser key creation per hour: per session (over its sign-ins) and per client IP
  KEYS_PER_SESSION_PER_HOUR: optional(int(1)).default(LIMITS.keysPerSessionPerHour),
  KEYS_PER_IP_PER_HOUR: optional(int(1)).default(LIMITS.keysPerIpPerHour),
  // Daily coin quotas per client IP over all its wallets and keys (the per-wallet quota is 500)
  COINS_CREATED_PER_IP_PER_DAY: optional(int(1)).default(LIMITS.coinsCreatedPerIpPerDay),
  COINS_FINALIZED_PER_IP_PER_DAY: optional(int(1)).default(LIMITS.coinsFinalizedPerIpPerDay),
  PAGES_RATE_LIMIT_PER_MINUTE: optional(int(1)).default(LIMITS.pagesRequestsPerMinute),
  HEALTH_RATE_LIMIT_PER_MINUTE: optional(int(1)).default(LIMITS.healthRequestsPerMinute),
  READY_RATE_LIMIT_PER_MINUTE: optional(int(1)).default(LIMITS.readyRequestsPerMinute),
  READ_CACHE_TTL_MS: optional(int(0, 60_000)).default(1000),
  // Readiness (ops/readiness.ts, docs/operations.md "Readiness and stalls"): ready while the
  // indexed head is at most this many blocks behind the chain head (30 = 3 s of 100 ms blocks)
  READY_MAX_LAG_BLOCKS: optional(int(0, 1_000_000)).default(30),
  // ... and not stalled: behind the chain with the same indexed block for longer than this
  READY_MAX_INDEXED_AGE_SEC: optional(int(1, 86_400)).default(15),
  // npm start restarts the indexer after it has been stalled this long with its RPC answering (0: never)
  INDEXER_RESTART_STALLED_SEC: optional(int(0, 86_400)).default(30),
  // GET /metrics: the bearer token a scraper sends (unset: /metrics answers 404); ops/metrics/access.ts
  METRICS_TOKEN: optional(
    z
      .string()
      .regex(
        /^[A-Za-z0-9\-._~+/]{32,512}=*$/,
        "must be 32-512 characters of A-Z a-z 0-9 - . _ ~ + / (an RFC 6750 bearer token; e.g. openssl rand -base64 32)",
      ),
  ),
  // Media upload decode queue (media/decodeQueue.ts): unset = one decode per core, two waiting per slot
  IMAGE_DECODE_CONCURRENCY: optional(int(1, 256)),
  IMAGE_DECODE_QUEUE_MAX: optional(int(0, 10_000)),
  IMAGE_DECODE_WAIT_MS: optional(int(1, 600_000)).default(10_000),
  // Server-Sent Events (market/streamHub.ts, docs/public.md "Streams"): checkpoint poll interval,
  // keep-alive comment interval, open streams per client IP and per process, unsent frames per
  // connection before a slow client is dropped
  STREAM_POLL_INTERVAL_MS: optional(int(5, 10_000)).default(25),
  STREAM_KEEPALIVE_SEC: optional(int(1, 3_600)).default(15),
  STREAM_MAX_PER_IP: optional(int(1, 10_000)).default(5),
  STREAM_MAX_CONNECTIONS: optional(int(1, 1_000_000)).default(1_000),
  STREAM_MAX_QUEUED_FRAMES: optional(int(2, 1_000_000)).default(1_000),
  // Webhooks (webhooks/, docs/webhooks.md): "1" admits http:// and loopback receivers (the devnet's
  // `npm start` sets it; never in production), subscriptions per wallet, deadline of one attempt
  WEBHOOKS_ALLOW_LOOPBACK_HTTP: optional(flag).default("0"),
  WEBHOOKS_PER_WALLET: optional(int(1, 1_000)).default(10),
  WEBHOOK_ATTEMPT_TIMEOUT_MS: optional(int(100, 60_000)).default(10_000),
  // Launch integrity's `creator_funded` (launches/creatorFunding.ts, docs/public.md "Launch integrity"):
  // "0" stops reading creators' transactions from the RPC (every launch's figure stays pending).
  CREATOR_FUNDING_SCAN: optional(flag).default("1"),
  // Market thresholds (config/market.ts)
  BIG_BUY_THRESHOLD_WEI: optional(wei).default("50000000000000000"),
  GRADUATION_MARKET_CAP_WEI: optional(wei).default("10000000000000000000"),
  // Public surface (config/public.ts)
  PARTNER_A_SLUG: optional(slug).default("partner-a"),
  PARTNER_B_SLUG: optional(slug).default("partner-b"),
  EVENTS_CONFIRMATION_BLOCKS: optional(int(1)).default(30),
  DEFAULT_TOKEN_IMAGE_URL: optional(url(["http:", "https:"], "an http(s) URL")),
  DEFAULT_TOKEN_DESCRIPTION: optional(z.string().max(1000, "must be at most 1,000 characters")),
  // Launch write path (launches/, chain/network.ts)
  LAUNCH_INTENT_TTL_SEC: optional(int(1)).default(900),
  LAUNCH_REDIRECT_WAIT_MS: optional(int(0)).default(5000),
  CHAIN_NAME: optional(z.string().min(1).max(64, "must be at most 64 characters")).default("evmchain"),
  PUBLIC_RPC_URL: optional(urlList(["http:", "https:"], "comma-separated http(s) URLs")),
  BLOCK_EXPLORER_URL: optional(urlList(["http:", "https:"], "comma-separated http(s) URLs")),
  // Logs
  LOG_FORMAT: optional(z.enum(["json", "pretty"], { message: 'must be "json" or "pretty"' })).default("json"),
  PONDER_LOG_LEVEL: optional(
    z.enum(["silent", "fatal", "error", "warn", "info", "debug", "trace"], {
      message: "must be one of silent, fatal, error, warn, info, debug, trace",
    }),
  ),
  LOG_PONDER: optional(flag).default("0"),
  // "1": the indexer's literal /ready keeps Ponder's meaning (historical sync reached the
  // finalized block), for benchmarks that time Ponder's own phases; default: /api/v1/ready's verdict
  PONDER_READY_ON_INDEXER: optional(flag).default("0"),
  // Process lifecycle (scripts/start.ts, scripts/ponderProcess.ts)
  SERVICE_START_TIMEOUT_MS: optional(int(1000)).default(180_000),
  // npm start's V8 heap cap for the service in MB (0: Node's default; NODE_OPTIONS'
  // --max-old-space-size wins), docs/operations.md "Memory"
  SERVICE_HEAP_MB: optional(
    int(0).refine((mb) => mb === 0 || mb >= 256, "must be 0 (Node's default) or an integer >= 256"),
  ).default(512),
  // npm start checks the RPC (chain id) and DATABASE_URL (connect, schema permission) before it
  // starts the service, each within this deadline (scripts/dependencyCheck.ts)
  START_DEPENDENCY_TIMEOUT_MS: optional(int(100, 120_000)).default(10_000),
  SHUTDOWN_TIMEOUT_MS: optional(int(1000, 600_000)).default(8000),
  DEVNET_DIR: optional(z.string()).default(".devnet"),
});

/** The validated settings (numbers parsed, defaults applied). */
export type Env = z.infer<typeof ENV_SCHEMA>;

/** Settings whose values are never echoed in an error (a password in the URL, a bearer token). */
const SECRET_SETTINGS = new Set(["DATABASE_URL", "METRICS_TOKEN"]);

/** Names of every variable the schema declares. */
export const ENV_NAMES: readonly string[] = Object.keys(ENV_SCHEMA.shape);

/** Thrown by {@link loadEnv}; `problems` lists `NAME: what is wrong` lines. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(readonly problems: string[]) {
    super(
      `invalid configuration (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n  ${problems.join("\n  ")}`,
    );
  }
}

/**
 * Validates every setting.
 *
 * @param env - environment variables (default `process.env`); variables the schema does not
 *   declare are ignored
 * @returns the settings with defaults applied and numbers parsed
 * @throws ConfigError naming every bad variable, what is wrong and the value received (values of
 *   `DATABASE_URL` and `METRICS_TOKEN` are never echoed: they are secrets)
 * @example loadEnv({ PORT: "8080" }).PORT // 8080
 */
export function loadEnv(env: NodeJS.ProcessEnv = process.env): Env {
  const picked = Object.fromEntries(ENV_NAMES.map((name) => [name, env[name]]));
  const parsed = ENV_SCHEMA.safeParse(picked);
  const missing = env.LAUNCH_FACTORY_ADDRESS
    ? PRODUCTION_REQUIRED.filter((name) => !env[name]).map(
        (name) => `${name}: is required when LAUNCH_FACTORY_ADDRESS is set (production configuration)`,
      )
    : [];
  if (parsed.success && missing.length === 0) return parsed.data;
  const problems = (parsed.error?.issues ?? []).map((issue) => {
    const name = String(issue.path[0] ?? "environment");
    const value = env[name];
    const shown =
      value === undefined || SECRET_SETTINGS.has(name)
        ? ""
        : `, got ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}`;
    return `${name}: ${issue.message}${shown}`;
  });
  throw new ConfigError([...problems, ...missing]);
}
