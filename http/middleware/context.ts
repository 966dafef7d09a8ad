/**
 * What the trust-layer middleware puts on the Hono context, and how routes reach the store.
 */
import type { Context } from "hono";
import type { PublicClient } from "viem";
import type { Deployment } from "../../config/deployment";
import type { Store } from "../../store/index";
import type { IdempotencyClaim } from "../../store/idempotency";
import type { ApiKeyRecord } from "../../store/keys";
import type { SessionRecord } from "../../store/sessions";
import { ApiError } from "../errors";
import type { JsonBodyVariables } from "./jsonBody";
import type { Limits } from "../../config/limits";
import type { ChainProbeResult } from "../../ops/chainProbe";
import type { Readiness } from "../../ops/readiness";
import type { ProxyTrust } from "../../config/proxyTrust";

/** Context variables set by the trust-layer middleware. */
export type TrustVariables = JsonBodyVariables & {
  requestId: string;
  /** The authenticated API key (set by `identifyApiKey` when the bearer key is valid). */
  apiKey?: ApiKeyRecord;
  /** Why authentication failed (set by `identifyApiKey`, thrown by `requireApiKey`). */
  authFailure?: ApiError;
  /** The browser session (set by `loadSession` / `requireCsrf`). */
  session?: SessionRecord;
  /**
   * The request's `Idempotency-Key` reservation (set by `idempotency`); `committed` once the
   * handler stored its response in its own transaction (`commitIdempotentResponse`).
   */
  idempotency?: IdempotencyClaim & { committed: boolean };
};

/** Hono env of routers using the trust layer. */
export type TrustEnv = { Variables: TrustVariables };

/**
 * The store as the app receives it: an open store, or a promise of one (Ponder's loader opens it
 * lazily so the module loads synchronously).
 */
export type StoreSource = Store | Promise<Store>;

/**
 * Returns a function resolving the store once; a store that failed to open yields 503
 * `service_unavailable` on each request that needs it (and is logged once).
 */
export function storeGetter(source: StoreSource): () => Promise<Store> {
  let logged = false;
  const promise = Promise.resolve(source);
  promise.catch(() => undefined); // reported on use, never as an unhandled rejection
  return async () => {
    try {
      return await promise;
    } catch (err) {
      if (!logged) {
        logged = true;
        console.error("offchain store unavailable:", (err as Error).message);
      }
      throw new ApiError("service_unavailable", "the offchain store is unavailable; retry later");
    }
  };
}

/** The authenticated key, or a 401 when the route was mounted without `requireApiKey`. */
export function currentKey(c: Context<TrustEnv>): ApiKeyRecord {
  const key = c.get("apiKey");
  if (!key) throw new ApiError("missing_api_key", "this endpoint requires Authorization: Bearer <API_KEY>");
  return key;
}

/** Dependencies of the trust layer, part of the app's `AppDeps`. */
export type TrustDeps = {
  /** The offchain store (or a promise of it). */
  store: StoreSource;
  /** Chain id and contract addresses (`config/deployment.ts`). */
  deployment: Deployment;
  /** viem client on the deployment's RPC (signature verification, health). */
  publicClient: PublicClient;
  /** The limits table (config/limits.ts `resolveLimits`: defaults, environment, test overrides). */
  limits: Limits;
  /** Which peers are trusted proxies for per-IP limits (`TRUST_PROXY`, `compileProxyTrust`). */
  trustProxy: ProxyTrust;
  /** IPv6 prefix length per-IP budgets group by (`CLIENT_IPV6_PREFIX_BITS`). */
  ipv6PrefixBits: number;
  /** The shared, cached RPC probe of health and the session status (`ops/chainProbe.ts`). */
  chainProbe: () => Promise<ChainProbeResult>;
  /**
   * The service's readiness check (`ops/readiness.ts`: indexed head against the chain head, one
   * progress tracker per process).
   */
  readiness: () => Promise<Readiness>;
};
