/**
 * The coin flow `/api/v1/coins` (spec: key-authenticated surface, "a separate coin flow"; docs/launch.md
 * "Coin flow"): the v1 launch flow under draft naming. A draft *is* a launch intent — `draft_id` is
 * the launch id (`lnch_…`), so `GET /api/v1/evmchain/launches/status?launch_id=` shows drafts too —
 * and every step runs the same handlers (`./launches.ts` over `launches/apiKeyLaunches.ts`): the
 * same validation and safety rule, builder, verifier, state machine and per-wallet daily quotas.
 * Mounted behind the v1 auth, per-key rate limit and the scope table.
 */
import { Hono } from "hono";
import type { TrustEnv } from "../../middleware/context";
import { idempotency } from "../../middleware/idempotency";
import { buildBodySchema, confirmBodySchema, statusQuerySchema } from "../../../launches/requestSchemas";
import { intentRequestSchema } from "../../../launches/intent";
import { documented } from "../../openapi/describe";
import { buildDoc, confirmDoc, intentDoc, statusDoc } from "../../openapi/launchDocs";
import { describedInput } from "../../validation";
import { launchHandlers, type LaunchRoutesDeps } from "./launches";

/** Builds the `/api/v1/coins` router. */
export function coinsRoutes(deps: LaunchRoutesDeps) {
  const handle = launchHandlers(deps.launches, "draft_id", deps.trustProxy, deps.ipv6PrefixBits);
  return (
    new Hono<TrustEnv>()
      /**
       * POST /api/v1/coins/create-draft (scope `evmchain:launch:build`, `Idempotency-Key`
       * required) — body: the launch request fields, exactly as `launches/intent`. 201 `{ok,
       * draft_id, launch_id, state: "intent_created", intent: {message, …}}`; errors as intent.
       * Counts one coin against the key's daily "created" quota.
       */
      .post(
        "/create-draft",
        documented({ ...intentDoc, tag: "coins" }),
        describedInput("json", intentRequestSchema),
        idempotency({ getStore: deps.getStore }),
        (c) => handle.intent(c),
      )
      /**
       * POST /api/v1/coins/create-transaction `{draft_id, intent_signature}` (scope
       * `evmchain:launch:build`) — = `launches/build`: 200 `{ok, draft_id, launch_id, state:
       * "built", transaction, policy, predicted_token_address, gas_limit, amount_out_minimum, …}`.
       */
      .post(
        "/create-transaction",
        documented({ ...buildDoc, tag: "coins" }),
        describedInput("json", buildBodySchema("draft_id")),
        (c) => handle.build(c),
      )
      /**
       * POST /api/v1/coins/finalize `{draft_id, tx_hash}` (scope `evmchain:launch:confirm`) — =
       * `launches/confirm`: 200 confirmed (`token_address`, `token_url`, …), 202 pending, 4xx with
       * the verifier's code. Counts one coin against the key's daily "finalized" quota.
       */
      .post(
        "/finalize",
        documented({ ...confirmDoc, tag: "coins" }),
        describedInput("json", confirmBodySchema("draft_id")),
        (c) => handle.confirm(c),
      )
      /**
       * GET /api/v1/coins/status?draft_id= (scope `evmchain:launch:read`) — the launch status
       * record with `draft_id`; 400 without `draft_id`, 404 `launch_not_found`.
       */
      .get(
        "/status",
        documented({ ...statusDoc, tag: "coins" }),
        describedInput("query", statusQuerySchema("draft_id", false)),
        (c) => handle.status(c, false),
      )
  );
}
