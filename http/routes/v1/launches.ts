/**
 * The API-key launch flow, twice named (spec: Endpoints, key-authenticated surface; docs/launch.md
 * "v1 launch flow" and "Coin flow"): `/api/v1/evmchain/launches/{intent,build,confirm,status}`
 * and the coin flow `/api/v1/coins/{create-draft,create-transaction,finalize,status}` (`./coins.ts`),
 * where a draft *is* a launch intent (`draft_id` = the launch id). Mounted behind the v1 auth,
 * per-key rate limit and scope table. Each handler parses the request, calls the API-key use
 * cases (`launches/apiKeyLaunches.ts`) with the authenticated key, and maps the typed result to
 * its status code and headers: 201 created, 200 built / confirmed / found, 202 pending with
 * `Retry-After`. Request and response shapes: `http/openapi/launchDocs.ts`.
 */
import { Hono } from "hono";
import type { Hash, Hex } from "viem";
import type { Store } from "../../../store/index";
import { ApiError } from "../../errors";
import { sendOk } from "../../json";
import type { ApiKeyLaunches } from "../../../launches/apiKeyLaunches";
import { intentRequestSchema } from "../../../launches/intentRequest";
import { buildBodySchema, confirmBodySchema, statusQuerySchema, type IdField } from "../../../launches/requestSchemas";
import type { ProxyTrust } from "../../../config/proxyTrust";
import { clientIp } from "../../middleware/clientIp";
import { currentKey, type TrustEnv } from "../../middleware/context";
import { commitIdempotentResponse, idempotency } from "../../middleware/idempotency";
import { okJsonText } from "../../../src/domain/json";
import { documented } from "../../openapi/describe";
import { buildDoc, confirmDoc, intentDoc, statusDoc } from "../../openapi/launchDocs";
import { describedInput, parseJsonBody } from "../../validation";

/** What the launch routes need. */
export type LaunchRoutesDeps = {
  launches: ApiKeyLaunches;
  getStore: () => Promise<Store>;
  /** Which peers are trusted proxies (`TRUST_PROXY`): the client IP of the per-IP coin quotas. */
  trustProxy?: ProxyTrust;
  /** IPv6 grouping of the per-IP coin quotas (`CLIENT_IPV6_PREFIX_BITS`; default 64). */
  ipv6PrefixBits?: number;
};

/** How one surface names the flow: its id field, its four paths, its OpenAPI tag. */
export type LaunchFlowNaming = {
  field: IdField;
  tag: "v1" | "coins";
  paths: { intent: string; build: string; confirm: string; status: string };
  /** Whether status also looks a launch up by `tx_hash` (v1 only). */
  statusByTxHash: boolean;
};

/** `/api/v1/evmchain/launches/*` (mount at `/api/v1/evmchain`). */
export const V1_LAUNCH_NAMING: LaunchFlowNaming = {
  field: "launch_id",
  tag: "v1",
  paths: {
    intent: "/launches/intent",
    build: "/launches/build",
    confirm: "/launches/confirm",
    status: "/launches/status",
  },
  statusByTxHash: true,
};

/**
 * The flow's routes under one naming:
 * - POST intent (`Idempotency-Key` required; scope `evmchain:launch:build`): stores the launch in
 *   `intent_created` and counts one coin against the daily "created" quotas of the key's wallet and
 *   of the client IP (`clientIp(c, trust, ipv6PrefixBits)`); the stored idempotent answer commits
 *   in the same transaction. 201.
 * - POST build `{<field>, intent_signature}` (scope `evmchain:launch:build`; EIP-191 personal_sign,
 *   EIP-1271 / ERC-6492 via viem `verifyMessage`): the one builder; repeating it replays the build.
 * - POST confirm `{<field>, tx_hash}` (scope `evmchain:launch:confirm`): the one verifier; 202 +
 *   `Retry-After` while not mined; counts one coin against the "finalized" quotas once.
 * - GET status `?<field>=` (v1 also `?tx_hash=`, exactly one; scope `evmchain:launch:read`).
 */
export function launchFlowRoutes(deps: LaunchRoutesDeps, naming: LaunchFlowNaming) {
  const { field, tag, paths, statusByTxHash } = naming;
  const { launches } = deps;
  const trust = deps.trustProxy ?? false;
  return new Hono<TrustEnv>()
    .post(
      paths.intent,
      documented({ ...intentDoc, tag }),
      describedInput("json", intentRequestSchema),
      idempotency({ getStore: deps.getStore }),
      async (c) => {
        const request = await parseJsonBody(c, intentRequestSchema);
        const result = await launches.intent({
          key: currentKey(c),
          clientIp: clientIp(c, trust, deps.ipv6PrefixBits),
          field,
          request,
          // The stored Idempotency-Key answer commits with the launch and its quota count.
          withinTransaction: (tx, created) =>
            commitIdempotentResponse(c.get("idempotency"), tx, { status: 201, jsonText: okJsonText(created.body) }),
        });
        return sendOk(c, result.body, 201);
      },
    )
    .post(paths.build, documented({ ...buildDoc, tag }), describedInput("json", buildBodySchema(field)), async (c) => {
      const body = await parseJsonBody(c, buildBodySchema(field));
      const result = await launches.build({
        key: currentKey(c),
        field,
        launchId: body[field]!,
        signature: body.intent_signature as Hex,
      });
      return sendOk(c, result.body, 200);
    })
    .post(
      paths.confirm,
      documented({ ...confirmDoc, tag }),
      describedInput("json", confirmBodySchema(field)),
      async (c) => {
        const body = await parseJsonBody(c, confirmBodySchema(field));
        const result = await launches.confirm({
          key: currentKey(c),
          clientIp: clientIp(c, trust, deps.ipv6PrefixBits),
          field,
          launchId: body[field]!,
          txHash: body.tx_hash as Hash,
        });
        if (result.outcome === "pending") {
          c.header("Retry-After", String(result.retryAfterSec));
          return sendOk(c, result.body, 202);
        }
        return sendOk(c, result.body, 200);
      },
    )
    .get(
      paths.status,
      documented({ ...statusDoc, tag }),
      describedInput("query", statusQuerySchema(field, statusByTxHash)),
      async (c) => {
        const id = c.req.query(field);
        const tx = statusByTxHash ? c.req.query("tx_hash") : undefined;
        const given = [id, tx].filter((v) => v !== undefined).length;
        if (given !== 1) {
          throw new ApiError(
            "invalid_request",
            statusByTxHash ? `send exactly one of ${field} and tx_hash` : `${field}: required`,
          );
        }
        const parsed = statusQuerySchema(field, statusByTxHash).safeParse(
          statusByTxHash ? { [field]: id, tx_hash: tx } : { [field]: id },
        );
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new ApiError("invalid_request", `${issue?.path.join(".")}: ${issue?.message}`);
        }
        const launchId = parsed.data[field];
        const lookup = launchId !== undefined ? { launchId } : { txHash: parsed.data.tx_hash as Hash };
        const result = await launches.status({ key: currentKey(c), field, lookup });
        return sendOk(c, result.body, 200);
      },
    );
}

/** Builds the `/api/v1/evmchain/launches` routes (mount at `/api/v1/evmchain`). */
export function v1LaunchRoutes(deps: LaunchRoutesDeps) {
  return launchFlowRoutes(deps, V1_LAUNCH_NAMING);
}
