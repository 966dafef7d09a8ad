/**
 * The coin flow `/api/v1/coins` (spec: key-authenticated surface, "a separate coin flow"; docs/launch.md
 * "Coin flow"): the v1 launch flow under draft naming. A draft *is* a launch intent — `draft_id` is
 * the launch id (`lnch_…`), so `GET /api/v1/evmchain/launches/status?launch_id=` shows drafts too —
 * and every step runs the same routes (`./launches.ts` over `launches/apiKeyLaunches.ts`): the
 * same validation and safety rule, builder, verifier, state machine and per-wallet daily quotas.
 * Mounted behind the v1 auth, per-key rate limit and the scope table.
 * - POST /create-draft = intent (201 `{ok, draft_id, launch_id, state: "intent_created", intent}`)
 * - POST /create-transaction `{draft_id, intent_signature}` = build
 * - POST /finalize `{draft_id, tx_hash}` = confirm (200 confirmed, 202 pending)
 * - GET /status?draft_id= = status (400 without `draft_id`, 404 `launch_not_found`)
 */
import { launchFlowRoutes, type LaunchFlowNaming, type LaunchRoutesDeps } from "./launches";

/** `/api/v1/coins/*` (mount at `/api/v1/coins`). */
export const COIN_NAMING: LaunchFlowNaming = {
  field: "draft_id",
  tag: "coins",
  paths: { intent: "/create-draft", build: "/create-transaction", confirm: "/finalize", status: "/status" },
  statusByTxHash: false,
};

/** Builds the `/api/v1/coins` router. */
export function coinsRoutes(deps: LaunchRoutesDeps) {
  return launchFlowRoutes(deps, COIN_NAMING);
}
