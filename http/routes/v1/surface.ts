/**
 * Key-authenticated surface `/api/v1` (spec: Endpoints, key-authenticated surface; Authentication;
 * Limits; Versioning). The route tree, with the scope of each middleware:
 *
 * - open, each with its own per-IP budget (`./health.ts`): `GET /api/v1` (descriptor),
 *   `GET /api/v1/ready`, `GET /api/v1/health`;
 * - `/api/v1/evmchain/*` and `/api/v1/coins/*`: per-client ceiling (240/min per client IP over
 *   all its keys, store-backed) -> bearer key lookup -> per-key rate limit (60/min, store-backed,
 *   IETF `RateLimit` headers on every response) -> 401 for a missing/invalid/revoked key -> 403
 *   for a missing scope (`SCOPE_TABLE`), then
 *   - `/evmchain/tokens/*`: market reads (`./market.ts`);
 *   - `/evmchain/launches/*`: the launch flow, intent (idempotent) -> build -> confirm -> status
 *     (`./launches.ts`, docs/launch.md);
 *   - `/evmchain/media/upload`: the logo upload (`./media.ts`);
 *   - `/evmchain/swaps/build`: swap builds, also limited per wallet (http/routes/trade.ts);
 *   - `/evmchain/webhooks/*`: webhook subscriptions (`./webhooks.ts`, docs/webhooks.md);
 *   - `/coins/*`: the coin flow (`./coins.ts`).
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { Deployment } from "../../../config/deployment";
import { identifyApiKey, requireApiKey, requireScope } from "../../middleware/auth";
import { clientIp } from "../../middleware/clientIp";
import type { TrustEnv } from "../../middleware/context";
import { storeRateLimiter } from "../../middleware/rateLimit";
import { type SwapRoutesDeps, swapV1Routes } from "../trade";
import { coinsRoutes } from "./coins";
import { type V1OpenDeps, v1OpenRoutes } from "./health";
import { type LaunchRoutesDeps, v1LaunchRoutes } from "./launches";
import { type V1MarketDeps, v1MarketRoutes } from "./market";
import { type V1MediaDeps, v1MediaRoutes } from "./media";
import { type V1WebhookDeps, v1WebhookRoutes } from "./webhooks";

/**
 * What the whole `/api/v1` surface needs: the union of what its routers read (each field is
 * documented where it is used); `createApp` builds each dependency once.
 */
export type V1SurfaceDeps = V1OpenDeps &
  V1MarketDeps &
  LaunchRoutesDeps &
  V1MediaDeps &
  V1WebhookDeps &
  Omit<SwapRoutesDeps, "buildsPerMinute"> & {
    deployment: Deployment;
    /** The market-read guard (http/middleware/indexAvailable.ts), run after the key check on token reads. */
    indexedData?: MiddlewareHandler;
  };

/** Builds the `/api/v1` router (mount at `/api/v1`). */
export function v1Surface(deps: V1SurfaceDeps) {
  const { getStore, limits, nowMs } = deps;
  const authenticated = [
    // The client's ceiling over all its keys (fresh wallets make keys for free, so the per-key
    // limit alone multiplies with them; docs/trust.md "Limits"). First, so that on an answer the
    // per-key limiter's headers (the key's own budget) replace this one's; a refusal here carries
    // this limit's headers.
    storeRateLimiter({
      getStore,
      nowMs,
      prefix: "v1client:",
      limit: limits.v1ClientRequestsPerMinute,
      key: (c) => clientIp(c, deps.trustProxy ?? false, deps.ipv6PrefixBits),
    }),
    identifyApiKey(getStore),
    // Keyed by the API key's id; requests without a valid key are counted per client IP, so even
    // 401s carry rate headers and cannot be used to probe keys at speed.
    storeRateLimiter({
      getStore,
      nowMs,
      prefix: "v1:",
      limit: limits.v1RequestsPerMinute,
      key: (c) => c.get("apiKey")?.id ?? `ip:${clientIp(c, deps.trustProxy ?? false, deps.ipv6PrefixBits)}`,
    }),
    requireApiKey(),
    requireScope(),
  ] as const;

  return (
    new Hono<TrustEnv>()
      .route("/", v1OpenRoutes(deps))
      .use("/evmchain/*", ...authenticated)
      .use("/coins/*", ...authenticated)
      .use("/evmchain/tokens/*", deps.indexedData ?? ((_c, next) => next()))
      .route("/evmchain", v1LaunchRoutes(deps))
      .route("/evmchain", v1MediaRoutes(deps))
      .route("/evmchain", v1MarketRoutes(deps))
      .route("/evmchain", v1WebhookRoutes(deps))
      // Swap builds for the key's wallet (docs/trade.md), behind the key, its limit and scope.
      .route("/evmchain", swapV1Routes({ ...deps, buildsPerMinute: limits.swapBuildsPerMinute }))
      .route("/coins", coinsRoutes(deps))
  );
}
