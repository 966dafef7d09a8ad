/**
 * The default limits of the trust layer (documented in docs/trust.md "Limits"): request rates per
 * surface, daily coin quotas, caps on keys, sessions, challenges and builds. Environment variables
 * override them (config/env.ts -> `createApp({ limits })`).
 */
import { MAX_ACTIVE_KEYS_PER_WALLET } from "../../store/keys";

/** Default limits (documented in docs/trust.md). */
export const LIMITS = {
  /** Key-authenticated surface: requests per minute per API key (spec: default_requests_per_minute). */
  v1RequestsPerMinute: 60,
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
} as const;
