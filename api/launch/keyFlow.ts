/**
 * The key-authenticated launch operations (spec: Endpoints, key-authenticated surface; docs/launch.md
 * "v1 launch flow" and "Coin flow"). `POST /api/v1/evmchain/launches/{intent,build,confirm}`,
 * `GET …/launches/status` and the coin flow (`/api/v1/coins/…`, the same operations under draft
 * naming) are thin routes over these handlers, so both share validation, the safety rule, the
 * state machine, the builder, the verifier and the per-wallet daily quotas (counted over all the keys of the key's wallet).
 */
import type { Context } from "hono";
import { isHex, type Hash, type Hex } from "viem";
import { z } from "zod";
import { INTENT_TTL_SEC } from "./intent";
import { inTransaction, type Store } from "../../store/index";
import { findKeyLaunchByTx, findLaunch, insertLaunch, type LaunchRecord } from "../../store/launches";
import { mediaExists } from "../../store/media";
import { ApiError } from "../errors";
import { okJsonText } from "../json";
import type { MarketDb } from "../market/db";
import type { PublicConfig } from "../../config/public";
import { currentKey, type TrustDeps, type TrustEnv, type Limits } from "../middleware/context";
import { commitIdempotentResponse } from "../middleware/idempotency";
import { consumeCoinQuota } from "../middleware/rateLimit";
import { parsedJsonBody } from "../middleware/jsonBody";
import { buildFromIntent } from "./buildStep";
import { confirmLaunch, finalizeQuota, PENDING_RETRY_AFTER_SEC } from "./confirmStep";
import type { LaunchFlowDeps } from "./flow";
import { launchStatus } from "./statusStep";
import { intentRequestSchema, mediaIdFromUrl, prepareIntent, type IntentRequest } from "./intent";

/** A launch id as issued: `lnch_` + 24 lowercase hex characters. */
export const launchIdSchema = z
  .string()
  .regex(/^lnch_[0-9a-f]{24}$/, "must be a launch id (lnch_ + 24 hex characters)");
/** A transaction hash: `0x` + 64 hex digits. */
export const txHashSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a transaction hash (0x + 64 hex digits)")
  .transform((v) => v.toLowerCase() as Hash);
/** A personal_sign signature (65 bytes, or longer for ERC-1271 / ERC-6492 wallets). */
export const signatureSchema = z
  .string()
  .refine((v) => isHex(v) && v.length >= 132 && v.length % 2 === 0, "must be a 0x-prefixed hex signature")
  .transform((v) => v as Hex);

/**
 * Validates the request's JSON body with `schema` (unknown fields -> 400 `invalid_request`; an
 * issue may name `invalid_address`). Reading, size and depth caps, the object shape, the safety
 * rule and the text rules already ran in the app's body parser (`api/middleware/jsonBody.ts`).
 * @param c - the request context
 * @param schema - the zod schema of the body
 * @returns the parsed body
 * @throws ApiError 400 `invalid_request` / `invalid_address`
 */
export function parseLaunchBody<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const parsed = schema.safeParse(parsedJsonBody(c));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const code = (issue as { params?: { code?: "invalid_address" } } | undefined)?.params?.code ?? "invalid_request";
    throw new ApiError(code, `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/**
 * Checks an `image_url`: it must be an image this service issued and still holds.
 * @throws ApiError 400 `invalid_image_url`
 */
export async function assertOwnImage(
  store: Store,
  request: Pick<IntentRequest, "image_url">,
  publicBaseUrl: string,
): Promise<void> {
  if (request.image_url === undefined) return;
  const id = mediaIdFromUrl(request.image_url, publicBaseUrl);
  if (!id || !(await mediaExists(store, id))) {
    throw new ApiError(
      "invalid_image_url",
      "image_url: must be an image_url returned by POST /api/v1/evmchain/media/upload",
    );
  }
}

/** What the key-authenticated launch handlers need. */
export type KeyFlowDeps = TrustDeps & {
  db: MarketDb;
  publicBaseUrl: string;
  publicConfig: PublicConfig;
  getStore: () => Promise<Store>;
  limits: Limits;
  nowSec: () => number;
  /** Intent lifetime, seconds (the service passes `LAUNCH_INTENT_TTL_SEC`; default {@link INTENT_TTL_SEC}). */
  intentTtlSec?: number;
};

/** Field naming of a surface: `launch_id` (v1 launches) or `draft_id` (coin flow). */
export type IdField = "launch_id" | "draft_id";

/** Body of build / create-transaction: `{<id>, intent_signature}` (no other field). */
export function buildBodySchema(field: IdField) {
  return z.strictObject({ [field]: launchIdSchema, intent_signature: signatureSchema }) as z.ZodType<
    Record<string, string>
  >;
}

/** Body of confirm / finalize: `{<id>, tx_hash}` (no other field). */
export function confirmBodySchema(field: IdField) {
  return z.strictObject({ [field]: launchIdSchema, tx_hash: txHashSchema }) as z.ZodType<Record<string, string>>;
}

/** Query of status: the launch id, or (v1 only) the transaction hash; exactly one is sent. */
export function statusQuerySchema(field: IdField, allowTxHash: boolean) {
  return z.object({
    [field]: launchIdSchema.optional(),
    ...(allowTxHash ? { tx_hash: txHashSchema.optional() } : {}),
  }) as z.ZodType<Record<string, string | undefined>>;
}

/**
 * The handlers. Each returns a `Response`-ready `{status, body, headers?}`.
 * @param deps - store getter, chain client, deployment, limits, clock
 */
export function keyLaunchHandlers(deps: KeyFlowDeps) {
  const ttlSec = deps.intentTtlSec ?? INTENT_TTL_SEC;
  const flowDeps = async (): Promise<LaunchFlowDeps> => ({
    store: await deps.getStore(),
    publicClient: deps.publicClient,
    deployment: deps.deployment,
    publicBaseUrl: deps.publicBaseUrl,
    publicConfig: deps.publicConfig,
    db: deps.db,
    nowSec: deps.nowSec,
  });

  /** The caller's launch; another key's launch is indistinguishable from a missing one (404). */
  async function ownLaunch(c: Context<TrustEnv>, store: Store, id: string, field: IdField): Promise<LaunchRecord> {
    const launch = await findLaunch(store, id);
    if (launch?.surface !== "v1" || launch.apiKeyId !== currentKey(c).id) {
      throw new ApiError("launch_not_found", `${field}: no launch ${id} for this API key`);
    }
    return launch;
  }

  const withId = (field: IdField, body: Record<string, unknown>) =>
    field === "draft_id" ? { draft_id: body.launch_id, ...body } : body;

  return {
    /**
     * Intent / create-draft: validates, stores the launch in `intent_created`, counts one coin
     * against the daily "created" quota of the key's wallet. 201 `{launch_id | draft_id, state, intent}`.
     * The quota, the launch and the `Idempotency-Key` response are one transaction: after a crash
     * either all three exist (the retry replays the response) or none (the retry runs afresh).
     */
    async intent(c: Context<TrustEnv>, field: IdField) {
      const request = await parseLaunchBody(c, intentRequestSchema);
      const store = await deps.getStore();
      await assertOwnImage(store, request, deps.publicBaseUrl);
      const key = currentKey(c);
      const { launch, body } = prepareIntent({
        request,
        deployment: deps.deployment,
        publicBaseUrl: deps.publicBaseUrl,
        apiKeyId: key.id,
        nowSec: deps.nowSec(),
        ttlSec,
      });
      const response = withId(field, body);
      await inTransaction(store, async (tx) => {
        await consumeCoinQuota(tx, key.wallet, "coins_created", { limit: deps.limits.coinsCreatedPerDay, c });
        await insertLaunch(tx, launch);
        await commitIdempotentResponse(c, tx, { status: 201, jsonText: okJsonText(response) });
      });
      return { status: 201 as const, body: response };
    },

    /** Build / create-transaction: `{<id>, intent_signature}` -> 200 build body. */
    async build(c: Context<TrustEnv>, field: IdField) {
      const body = await parseLaunchBody(c, buildBodySchema(field));
      const flow = await flowDeps();
      const launch = await ownLaunch(c, flow.store, body[field]!, field);
      const result = await buildFromIntent(flow, launch, body.intent_signature as Hex);
      return { status: 200 as const, body: withId(field, result) };
    },

    /**
     * Confirm / finalize: `{<id>, tx_hash}` -> 200 confirmed, 202 pending (`Retry-After`), or an
     * error; counts one coin against the daily "finalized" quota of the key's wallet when it persists.
     */
    async confirm(c: Context<TrustEnv>, field: IdField) {
      const body = await parseLaunchBody(c, confirmBodySchema(field));
      const flow = await flowDeps();
      const launch = await ownLaunch(c, flow.store, body[field]!, field);
      const key = currentKey(c);
      // Counted inside the transaction that persists the launch (see `FinalizeQuota`).
      const quota = finalizeQuota((tx) =>
        consumeCoinQuota(tx, key.wallet, "coins_finalized", { limit: deps.limits.coinsFinalizedPerDay, c }),
      );
      const outcome = await confirmLaunch(flow, launch, body.tx_hash as Hash, { quota });
      if (outcome.status === 202) c.header("Retry-After", String(PENDING_RETRY_AFTER_SEC));
      return { status: outcome.status, body: withId(field, outcome.body) };
    },

    /** Status by id (or, on v1, by `tx_hash`): exactly one query parameter. */
    async status(c: Context<TrustEnv>, field: IdField, allowTxHash: boolean) {
      const id = c.req.query(field);
      const tx = allowTxHash ? c.req.query("tx_hash") : undefined;
      const given = [id, tx].filter((v) => v !== undefined).length;
      if (given !== 1) {
        throw new ApiError(
          "invalid_request",
          allowTxHash ? `send exactly one of ${field} and tx_hash` : `${field}: required`,
        );
      }
      const store = await deps.getStore();
      const parsed = statusQuerySchema(field, allowTxHash).safeParse(
        allowTxHash ? { [field]: id, tx_hash: tx } : { [field]: id },
      );
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ApiError("invalid_request", `${issue?.path.join(".")}: ${issue?.message}`);
      }
      let launch: LaunchRecord;
      const launchId = parsed.data[field];
      if (launchId !== undefined) {
        launch = await ownLaunch(c, store, launchId, field);
      } else {
        const hash = parsed.data.tx_hash as Hash;
        const found = await findKeyLaunchByTx(store, currentKey(c).id, hash);
        if (found?.surface !== "v1")
          throw new ApiError("launch_not_found", `tx_hash: no launch of this API key was submitted with ${hash}`);
        launch = found;
      }
      return {
        status: 200 as const,
        body: withId(
          field,
          await launchStatus({ store, nowSec: deps.nowSec, publicBaseUrl: deps.publicBaseUrl }, launch),
        ),
      };
    },
  };
}
