/**
 * The v1 launch routes `/api/v1/evmchain/launches/*` (spec: Endpoints, key-authenticated surface;
 * docs/launch.md "v1 launch flow"): intent (idempotent) -> build -> confirm -> status. Mounted
 * behind the v1 auth, per-key rate limit and scope table. The handlers here parse the request,
 * call the API-key use cases (`launches/apiKeyLaunches.ts`) with the authenticated key, and map
 * each result to its status code and headers; the coin flow (`./coins.ts`) reuses them under draft
 * naming. Request and response shapes: `http/openapi/launchDocs.ts`.
 */
import { Hono, type Context } from "hono";
import type { Hash, Hex } from "viem";
import type { Store } from "../../../store/index";
import { ApiError } from "../../errors";
import { sendOk } from "../../json";
import type { ApiKeyLaunches } from "../../../launches/apiKeyLaunches";
import { intentRequestSchema } from "../../../launches/intent";
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

/**
 * Request handlers over the API-key launch use cases, for a surface's id field (`launch_id` on
 * v1, `draft_id` in the coin flow). Each parses, calls the use case with `currentKey(c)`, and
 * answers `{ok: true, ...body}`: 201 created, 200 built / confirmed / found, 202 pending with
 * `Retry-After`. Intent and confirm pass the client IP (`clientIp(c, trust, ipv6PrefixBits)`) for
 * the per-IP daily coin quotas.
 * @param trust - the compiled `TRUST_PROXY` setting (default: no proxy)
 * @param ipv6PrefixBits - IPv6 grouping of those quotas (`CLIENT_IPV6_PREFIX_BITS`; default 64)
 */
export function launchHandlers(
  launches: ApiKeyLaunches,
  field: IdField,
  trust: ProxyTrust = false,
  ipv6PrefixBits?: number,
) {
  return {
    async intent(c: Context<TrustEnv>) {
      const request = await parseJsonBody(c, intentRequestSchema);
      const result = await launches.intent({
        key: currentKey(c),
        clientIp: clientIp(c, trust, ipv6PrefixBits),
        field,
        request,
        // The stored Idempotency-Key answer commits with the launch and its quota count.
        withinTransaction: (tx, created) =>
          commitIdempotentResponse(c.get("idempotency"), tx, { status: 201, jsonText: okJsonText(created.body) }),
      });
      return sendOk(c, result.body, 201);
    },
    async build(c: Context<TrustEnv>) {
      const body = await parseJsonBody(c, buildBodySchema(field));
      const result = await launches.build({
        key: currentKey(c),
        field,
        launchId: body[field]!,
        signature: body.intent_signature as Hex,
      });
      return sendOk(c, result.body, 200);
    },
    async confirm(c: Context<TrustEnv>) {
      const body = await parseJsonBody(c, confirmBodySchema(field));
      const result = await launches.confirm({
        key: currentKey(c),
        clientIp: clientIp(c, trust, ipv6PrefixBits),
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
    /** Status by id or (when `allowTxHash`) by `tx_hash`: exactly one query parameter. */
    async status(c: Context<TrustEnv>, allowTxHash: boolean) {
      const id = c.req.query(field);
      const tx = allowTxHash ? c.req.query("tx_hash") : undefined;
      const given = [id, tx].filter((v) => v !== undefined).length;
      if (given !== 1) {
        throw new ApiError(
          "invalid_request",
          allowTxHash ? `send exactly one of ${field} and tx_hash` : `${field}: required`,
        );
      }
      const parsed = statusQuerySchema(field, allowTxHash).safeParse(
        allowTxHash ? { [field]: id, tx_hash: tx } : { [field]: id },
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
  };
}

/** Builds the `/api/v1/evmchain/launches` routes (mount at `/api/v1/evmchain`). */
export function v1LaunchRoutes(deps: LaunchRoutesDeps) {
  const handle = launchHandlers(deps.launches, "launch_id", deps.trustProxy, deps.ipv6PrefixBits);
  return (
    new Hono<TrustEnv>()
      /**
       * POST /api/v1/evmchain/launches/intent — create a launch intent (spec: Launch intent).
       * Headers: `Authorization: Bearer`, `Idempotency-Key` (required). Counts one coin against
       * the key's daily "created" quota.
       */
      .post(
        "/launches/intent",
        documented({ ...intentDoc, tag: "v1" }),
        describedInput("json", intentRequestSchema),
        idempotency({ getStore: deps.getStore }),
        (c) => handle.intent(c),
      )
      /**
       * POST /api/v1/evmchain/launches/build `{launch_id, intent_signature}` (scope
       * `evmchain:launch:build`; EIP-191 personal_sign, EIP-1271 / ERC-6492 via viem
       * `verifyMessage`): the creator's signature of exactly `intent.message`, then the one
       * builder (the same transaction as the session surface); repeating it replays the build.
       */
      .post(
        "/launches/build",
        documented({ ...buildDoc, tag: "v1" }),
        describedInput("json", buildBodySchema("launch_id")),
        (c) => handle.build(c),
      )
      /**
       * POST /api/v1/evmchain/launches/confirm `{launch_id, tx_hash}` (scope
       * `evmchain:launch:confirm`; spec: "What the service does" 2): the one verifier with what was
       * built; 202 + `Retry-After` while the transaction is not mined; counts one coin against the
       * key's daily "finalized" quota once.
       */
      .post(
        "/launches/confirm",
        documented({ ...confirmDoc, tag: "v1" }),
        describedInput("json", confirmBodySchema("launch_id")),
        (c) => handle.confirm(c),
      )
      /**
       * GET /api/v1/evmchain/launches/status?launch_id=|tx_hash= (scope `evmchain:launch:read`):
       * exactly one of the two; the idempotent state record of one of the key's launches.
       */
      .get(
        "/launches/status",
        documented({ ...statusDoc, tag: "v1" }),
        describedInput("query", statusQuerySchema("launch_id", true)),
        (c) => handle.status(c, true),
      )
  );
}
