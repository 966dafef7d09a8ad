/**
 * Session surface `/api/evm/evmchain` — browser session, CSRF token, Sign-In with Ethereum
 * (EIP-4361), wallet-signed API-key creation and the browser's launch write path (spec:
 * Authentication 4 and 7; session surface). The route tree:
 *
 * - `GET /session` (`./browserSession.ts`);
 * - `POST /sign-in/challenge`, `/sign-in`, `/sign-out`, `/api-keys/challenge`, `/api-keys`
 *   (`./signIn.ts`);
 * - `GET /status` (`./status.ts`);
 * - `POST /build-direct-v3-launch`, `/verify-direct-v3-launch` (`./launches.ts`, docs/launch.md
 *   "Session surface"): they act only for the wallet the session signed in with and share the one
 *   builder and verifier with the key-authenticated flow;
 * - `POST /build-swap` (http/routes/trade.ts).
 *
 * Every POST goes through the one `requireCsrf` guard `createApp` builds for the surface (same
 * origin, session cookie, `X-CSRF-Token` header equal to body `csrf_token`, valid for the
 * session), named on each route. `createApp` mounts this router and the creator rewards router
 * (http/routes/rewards.ts) side by side in one session sub-app whose per-IP session limit covers
 * both.
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { TrustEnv } from "../middleware/context";
import type { Limits } from "../../config/limits";
import { type SwapRoutesDeps, swapSessionRoutes } from "../routes/trade";
import { browserSessionRoutes, type BrowserSessionDeps } from "./browserSession";
import { sessionLaunchRoutes, type SessionLaunchRoutesDeps } from "./launches";
import { signInRoutes, type SignInRoutesDeps } from "./signIn";
import { sessionStatusRoutes, type SessionStatusDeps } from "./status";

/** What the session router needs; `createApp` builds each dependency once. */
export type SessionDeps = BrowserSessionDeps &
  SignInRoutesDeps &
  SessionStatusDeps &
  SessionLaunchRoutesDeps &
  Omit<SwapRoutesDeps, "buildsPerMinute"> & { limits: Limits };

/**
 * Builds the `/api/evm/evmchain` session router (mount at `/api/evm/evmchain`).
 * @param csrf - the surface's `requireCsrf` guard (http/session/csrf.ts), named on every POST
 */
export function sessionRoutes(deps: SessionDeps, csrf: MiddlewareHandler<TrustEnv>) {
  return (
    new Hono<TrustEnv>()
      .route("/", browserSessionRoutes(deps))
      .route("/", signInRoutes(deps, csrf))
      .route("/", sessionStatusRoutes(deps))
      .route("/", sessionLaunchRoutes(deps, csrf))
      // Swaps on the token page (docs/trade.md): the same CSRF guard and sign-in rule.
      .route("/", swapSessionRoutes({ ...deps, buildsPerMinute: deps.limits.swapBuildsPerMinute }, csrf))
  );
}
