/**
 * The default limits of the trust layer (documented in docs/trust.md "Limits"): request rates per
 * surface, daily coin quotas, caps on keys, sessions, challenges and builds. Environment variables
 * override them (config/env.ts -> `buildServices` in http/services.ts -> `resolveLimits`); config/env.ts takes its defaults from here,
 * so each default exists once.
 */

/** Active (not revoked) API keys per wallet by default (`API_KEYS_PER_WALLET`). */
export const MAX_ACTIVE_KEYS_PER_WALLET = 10;

/** Default limits (documented in docs/trust.md). */
export const LIMITS = {
  /** Key-authenticated surface: requests per minute per API key (spec: default_requests_per_minute). */
  v1RequestsPerMinute: 60,
  /**
   * Key-authenticated surface: requests per minute per client IP over all its keys (and its
   * requests without a valid key), beside the per-key limit (`V1_CLIENT_RATE_LIMIT_PER_MINUTE`;
   * unset: {@link V1_CLIENT_CEILING_FACTOR} x `v1RequestsPerMinute`). Fresh wallets cost nothing,
   * so keys alone would multiply the per-key rate; 4 keys' worth leaves room for a few
   * integrations or several people behind one office NAT.
   */
  v1ClientRequestsPerMinute: 240,
  /** Public surface: requests per minute per client IP. */
  publicRequestsPerMinute: 600,
  /** Session surface: requests per minute per client IP. */
  sessionRequestsPerMinute: 120,
  /**
   * HTML pages (`/`, `/launch`, `/token/*`, `/t/*`): requests per minute per client IP, counted in
   * process memory. 120 is two page views a second, more than a person clicks; a page's scripts
   * and images count against the public limit instead.
   */
  pagesRequestsPerMinute: 120,
  /**
   * Open health (`GET /api/v1/health`): requests per minute per client IP, in process memory. 60
   * lets a monitor probe every second; its RPC part is cached for a second anyway.
   */
  healthRequestsPerMinute: 60,
  /**
   * Open readiness (`GET /api/v1/ready`, and `/ready` on the indexer): requests per minute per
   * client IP, in process memory. 600 (10 a second) leaves room for several load-balancer
   * checkers behind one address and the indexer supervisor's once-a-second poll; each answer is
   * one one-row read and the shared, cached RPC probe.
   */
  readyRequestsPerMinute: 600,
  /** The open v1 descriptor (`GET /api/v1`): requests per minute per client IP, in process memory. */
  openV1RequestsPerMinute: 600,
  /**
   * Coins (intents/drafts) created per wallet per UTC day, counted over all the wallet's API keys
   * (spec: default_coins_per_day).
   */
  coinsCreatedPerDay: 500,
  /** Coins finalized (confirmed) per wallet per UTC day, over all its keys (spec: default_finalized_coins_per_day). */
  coinsFinalizedPerDay: 500,
  /**
   * Coins created per client IP per UTC day, over every wallet and key the client uses
   * (`COINS_CREATED_PER_IP_PER_DAY`): throw-away wallets cost nothing, so the per-wallet quota
   * alone multiplies with them. 2,000 (four wallets' quotas) lets an office behind one NAT work.
   */
  coinsCreatedPerIpPerDay: 2_000,
  /** Coins finalized per client IP per UTC day, over every wallet and key (`COINS_FINALIZED_PER_IP_PER_DAY`). */
  coinsFinalizedPerIpPerDay: 2_000,
  /** Active (not revoked) API keys per wallet, on every creation path (`API_KEYS_PER_WALLET`). */
  activeKeysPerWallet: MAX_ACTIVE_KEYS_PER_WALLET,
  /** Open (unused, unexpired) key challenges one browser session may hold. */
  openChallengesPerSession: 5,
  /** Open session builds (state `built`, younger than the session-build bound) per browser session. */
  openBuildsPerSession: 20,
  /**
   * Swap builds (`build-swap`, `/api/v1/evmchain/swaps/build`) per proven wallet per minute, on
   * both surfaces together (store-backed): each build makes four or five RPC reads.
   */
  swapBuildsPerMinute: 30,
  /** New browser sessions per client IP per hour (`GET /api/evm/evmchain/session` without a live cookie). */
  sessionsPerIpPerHour: 60,
  /**
   * Bytes of re-encoded images a wallet's keys may store per 24 hours (`MEDIA_BYTES_PER_WALLET_PER_DAY`,
   * 50 MiB: a few hundred logos; the bound of what one wallet can make the store keep).
   */
  mediaBytesPerWalletPerDay: 50 * 1024 * 1024,
  /**
   * API keys created through the browser per session per hour (`KEYS_PER_SESSION_PER_HOUR`),
   * counted over the session's sign-in rotations: a person creates one or two.
   */
  keysPerSessionPerHour: 5,
  /**
   * API keys created through the browser per client IP per hour, over all its sessions
   * (`KEYS_PER_IP_PER_HOUR`): room for a team behind one NAT, not for a wallet farm.
   */
  keysPerIpPerHour: 20,
} as const;

/** The limits table ({@link LIMITS}), with environment overrides applied (config/env.ts). */
export type Limits = { -readonly [K in keyof typeof LIMITS]: number };

/**
 * The per-client v1 ceiling as a multiple of the per-key limit when `V1_CLIENT_RATE_LIMIT_PER_MINUTE`
 * (or `limits.v1ClientRequestsPerMinute`) is not set: raising the per-key limit raises it too.
 * @example V1_CLIENT_CEILING_FACTOR * LIMITS.v1RequestsPerMinute // 240
 */
export const V1_CLIENT_CEILING_FACTOR = 4;

/**
 * The full limits table from overrides: {@link LIMITS} with `overrides` applied, and the v1
 * per-client ceiling derived from the per-key limit ({@link V1_CLIENT_CEILING_FACTOR} x) unless
 * set. Called once per app by the composition root (`http/services.ts`).
 * @param overrides - limits set by the environment or a test
 * @example resolveLimits({ v1RequestsPerMinute: 10 }).v1ClientRequestsPerMinute // 40
 */
export function resolveLimits(overrides: Partial<Limits>): Limits {
  const v1RequestsPerMinute = overrides.v1RequestsPerMinute ?? LIMITS.v1RequestsPerMinute;
  return {
    ...LIMITS,
    ...overrides,
    v1ClientRequestsPerMinute: overrides.v1ClientRequestsPerMinute ?? V1_CLIENT_CEILING_FACTOR * v1RequestsPerMinute,
  };
}
