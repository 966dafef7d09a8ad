/**
 * The launch routes of the session surface (spec: Endpoints, session surface; docs/launch.md
 * "Session surface"): `build-direct-v3-launch` and `verify-direct-v3-launch`. Each checks the CSRF
 * token and that the session signed in as `creator` (403 `sign_in_required` / `wallet_mismatch`;
 * docs/security.md), parses the body, calls the session launch use cases
 * (the launch service's session side, `launches/service.ts`) and maps the result to its status code and headers.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { BoundReachedError } from "../../store/locks";
import { sendOk } from "../json";
import { sessionBuildSchema, sessionVerifySchema } from "../../launches/requestSchemas";
import type { LaunchService } from "../../launches/service";
import type { TrustEnv } from "../middleware/context";
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
  /** The launch service's session use cases (launches/service.ts). */
  launches: LaunchService["session"];
  /** Clock, unix milliseconds (`Retry-After` of a session bound). */
  nowMs: () => number;
};

/**
 * Builds the session launch routes (mount at `/api/evm/evmchain`).
 * @param csrf - the session surface's `requireCsrf` guard
 */
export function sessionLaunchRoutes(deps: SessionLaunchRoutesDeps, csrf: MiddlewareHandler<TrustEnv>) {
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
          let result: Awaited<ReturnType<LaunchService["session"]["build"]>>;
          try {
            result = await deps.launches.build(c.get("session")!.id, body);
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
          const result = await deps.launches.verify(c.get("session")!.id, body);
          if (result.outcome === "pending") c.header("Retry-After", String(result.retryAfterSec));
          c.header("Cache-Control", "no-store");
          return sendOk(c, result.body, result.outcome === "pending" ? 202 : 200);
        },
      )
  );
}
