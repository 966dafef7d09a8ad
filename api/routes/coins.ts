/**
 * The coin flow `/api/v1/coins` (spec: key-authenticated surface, "a separate coin flow"; docs/launch.md
 * "Coin flow"): the v1 launch flow under draft naming. A draft *is* a launch intent — `draft_id` is
 * the launch id (`lnch_…`), so `GET /api/v1/evmchain/launches/status?launch_id=` shows drafts too —
 * and every step runs the same handlers (`api/launch/keyFlow.ts`): the same validation and safety
 * rule, builder, verifier, state machine and per-wallet daily quotas. Mounted behind the v1 auth,
 * per-key rate limit and the scope table.
 */
import { Hono } from "hono";
import type { Store } from "../../store/index";
import { sendOk } from "../json";
import type { keyLaunchHandlers } from "../launch/keyFlow";
import type { TrustEnv } from "../middleware/context";
import { idempotency } from "../middleware/idempotency";
import { buildBodySchema, confirmBodySchema, statusQuerySchema } from "../launch/keyFlow";
import { intentRequestSchema } from "../launch/intent";
import { documented } from "../openapi/describe";
import { buildDoc, confirmDoc, intentDoc, statusDoc } from "../openapi/launchDocs";
import { describedInput } from "../validation";

/** What the coin router needs. */
export type CoinsDeps = { launchOps: ReturnType<typeof keyLaunchHandlers>; getStore: () => Promise<Store> };

/** Builds the `/api/v1/coins` router. */
export function coinsRoutes(deps: CoinsDeps) {
  const ops = deps.launchOps;
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
        async (c) => {
          const { status, body } = await ops.intent(c, "draft_id");
          return sendOk(c, body, status);
        },
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
        async (c) => {
          const { status, body } = await ops.build(c, "draft_id");
          return sendOk(c, body, status);
        },
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
        async (c) => {
          const { status, body } = await ops.confirm(c, "draft_id");
          return sendOk(c, body, status);
        },
      )
      /**
       * GET /api/v1/coins/status?draft_id= (scope `evmchain:launch:read`) — the launch status
       * record with `draft_id`; 400 without `draft_id`, 404 `launch_not_found`.
       */
      .get(
        "/status",
        documented({ ...statusDoc, tag: "coins" }),
        describedInput("query", statusQuerySchema("draft_id", false)),
        async (c) => {
          const { status, body } = await ops.status(c, "draft_id", false);
          return sendOk(c, body, status);
        },
      )
  );
}
