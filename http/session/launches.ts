/**
 * The launch routes of the session surface (spec: Endpoints, session surface; docs/launch.md
 * "Session surface"): `build-direct-v3-launch` and `verify-direct-v3-launch`. Each checks the CSRF
 * token and that the session signed in as `creator` (403 `sign_in_required` / `wallet_mismatch`;
 * docs/security.md), parses the body, calls the session launch use cases
 * (`launches/sessionLaunches.ts`) and maps the result to its status code and headers.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import type { PublicClient } from "viem";
import type { Deployment } from "../../config/deployment";
import type { PublicConfig } from "../../config/public";
import type { Store } from "../../store/index";
import { BoundReachedError } from "../../store/locks";
import { sendOk } from "../json";
import { launchDepsFor, type LaunchObserver } from "../../launches/launchDeps";
import { sessionBuildSchema, sessionVerifySchema } from "../../launches/requestSchemas";
import { sessionBuild, sessionVerify } from "../../launches/sessionLaunches";
import type { MarketDb } from "../../market/db";
import type { TrustEnv } from "../middleware/context";
import type { Limits } from "../../config/limits";
import { assertSessionWallet } from "./csrf";
import { sessionBoundError } from "../middleware/rateLimit";
import { documented } from "../openapi/describe";
import {
  sessionBuiltLaunchWire,
  sessionCheckedLaunchWire,
  sessionPendingLaunchWire,
  sessionPersistedLaunchWire,
} from "../../launches/wire";
import { describedInput, parseJsonBody } from "../validation";

/** What the session launch routes need (built once by `createApp`). */
export type SessionLaunchRoutesDeps = {
  db: MarketDb;
  publicBaseUrl: string;
  publicConfig: PublicConfig;
  deployment: Deployment;
  publicClient: PublicClient;
  getStore: () => Promise<Store>;
  limits: Pick<Limits, "openBuildsPerSession">;
  /** Clock, unix seconds. */
  nowSec: () => number;
  /** Clock, unix milliseconds (`Retry-After` of a session bound). */
  nowMs: () => number;
  /** How long verify waits for the indexer's token row, ms (`LAUNCH_REDIRECT_WAIT_MS`). */
  redirectWaitMs: number;
  /** Where the launch steps report their outcomes (the service's metrics). */
  observe: LaunchObserver;
};

/**
 * Builds the session launch routes (mount at `/api/evm/evmchain`).
 * @param csrf - the session surface's `requireCsrf` guard
 */
export function sessionLaunchRoutes(deps: SessionLaunchRoutesDeps, csrf: MiddlewareHandler<TrustEnv>) {
  const stepDeps = () => launchDepsFor(deps);
  return (
    new Hono<TrustEnv>()
      /**
       * POST /api/evm/evmchain/build-direct-v3-launch + `X-CSRF-Token` (spec: session surface): the
       * one builder; the build is stored for this session (verify checks against it). Body: the
       * intent fields and `csrf_token` (`sessionBuildSchema`); 200 body: `sessionBuiltLaunchWire`;
       * errors: the `documented()` list (429 `session_limit_reached` carries `Retry-After`).
       */
      .post(
        "/build-direct-v3-launch",
        documented({
          tag: "session",
          summary: "Build the unsigned launch transaction for the connected wallet",
          ok: sessionBuiltLaunchWire.extend({ ok: z.literal(true) }),
          errors: [
            "invalid_request",
            "invalid_address",
            "forbidden_field",
            "sign_in_required",
            "wallet_mismatch",
            "invalid_image_url",
            "launch_simulation_failed",
            "session_limit_reached",
            "chain_unavailable",
          ],
        }),
        describedInput("json", sessionBuildSchema),
        csrf,
        async (c) => {
          const body = await parseJsonBody(c, sessionBuildSchema);
          assertSessionWallet(c, body.creator);
          let result: Awaited<ReturnType<typeof sessionBuild>>;
          try {
            result = await sessionBuild(await stepDeps(), c.get("session")!.id, body, {
              maxOpenBuilds: deps.limits.openBuildsPerSession,
            });
          } catch (err) {
            throw err instanceof BoundReachedError ? sessionBoundError(c, err, deps.nowMs()) : err;
          }
          c.header("Cache-Control", "no-store");
          return sendOk(c, result.body);
        },
      )
      /**
       * POST /api/evm/evmchain/verify-direct-v3-launch + `X-CSRF-Token` (spec: session surface): the
       * one verifier against this session's build (launches/sessionLaunches.ts); `write: true`
       * persists on success. Body: `sessionVerifySchema`; 200 body: a passed dry run
       * (`sessionCheckedLaunchWire`) or the persisted launch (`sessionPersistedLaunchWire`, with
       * `redirect_ready` once it is also indexed); 202 `sessionPendingLaunchWire` with `Retry-After`
       * while the transaction is not mined. Errors carry `verified: false`, `persisted: false`,
       * `redirect_ready: false` and `token_url: null` besides the catalogue fields.
       */
      .post(
        "/verify-direct-v3-launch",
        documented({
          tag: "session",
          summary: "Verify the broadcast launch; with write: true persist it and report redirect_ready / token_url",
          ok: z.union([
            sessionCheckedLaunchWire.extend({ ok: z.literal(true) }),
            sessionPersistedLaunchWire.extend({ ok: z.literal(true) }),
          ]),
          also: {
            202: {
              description: "The transaction is not mined yet (`Retry-After`).",
              schema: sessionPendingLaunchWire.extend({ ok: z.literal(true) }),
            },
          },
          errors: [
            "invalid_request",
            "invalid_address",
            "forbidden_field",
            "sign_in_required",
            "wallet_mismatch",
            "launch_not_found",
            "launch_state_conflict",
            "tx_already_used",
            "chain_unavailable",
            "transaction_reverted",
            "factory_not_accepted",
            "launch_event_missing",
            "launch_event_ambiguous",
            "creator_mismatch",
            "metadata_mismatch",
            "value_mismatch",
            "lp_not_locked",
            "first_buy_missing",
            "first_buy_below_minimum",
          ],
        }),
        describedInput("json", sessionVerifySchema),
        csrf,
        async (c) => {
          const body = await parseJsonBody(c, sessionVerifySchema);
          assertSessionWallet(c, body.creator);
          const result = await sessionVerify(
            { ...(await stepDeps()), redirectWaitMs: deps.redirectWaitMs },
            c.get("session")!.id,
            body,
          );
          if (result.outcome === "pending") c.header("Retry-After", String(result.retryAfterSec));
          c.header("Cache-Control", "no-store");
          return sendOk(c, result.body, result.outcome === "pending" ? 202 : 200);
        },
      )
  );
}
