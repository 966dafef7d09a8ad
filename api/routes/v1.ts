/**
 * Key-authenticated surface `/api/v1` (spec: Endpoints, key-authenticated surface; Authentication;
 * Limits; Versioning).
 *
 * {@link v1Surface} is mounted at `/api/v1`: the open descriptor (`GET /api/v1`) and health
 * (`GET /api/v1/health`), then for `/api/v1/evmchain/*` and `/api/v1/coins/*`: bearer key
 * lookup -> per-key rate limit (60/min, store-backed, IETF `RateLimit` headers on every response)
 * -> 401 for a missing/invalid/revoked key -> 403 for a missing scope (`SCOPE_TABLE`). Then the
 * market reads ({@link v1Routes}), the launch flow (intent (idempotent) -> build -> confirm ->
 * status, docs/launch.md), the coin flow ({@link coinsRoutes}) and the media upload.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { pingStore } from "../../store/index";
import { insertMedia } from "../../store/media";
import { ApiError } from "../errors";
import { sendOk } from "../json";
import { SOURCE_TIMEOUT_MS, withTimeout } from "../metrics/gauges";
import { keyLaunchHandlers } from "../launch/keyFlow";
import { coinsRoutes } from "./coins";
import { IMAGE_LIMITS, InvalidImageError, sanitizeImage } from "../media/image";
import { identifyApiKey, requireApiKey, requireScope } from "../middleware/auth";
import { currentKey, storeGetter, type TrustDeps, type TrustEnv } from "../middleware/context";
import { idempotency } from "../middleware/idempotency";
import { clientIp } from "../middleware/clientIp";
import { LIMITS, storeRateLimiter } from "../middleware/rateLimit";
import { v1Descriptor } from "./descriptors";
import { candlesQuery, tradesQuery } from "../market/params";
import { candlesResponse } from "../market/candlesResponse";
import { findToken, findTokenAddress, tokenTrades, type MarketDb } from "../market/queries";
import { tokenRecord, tradeRecord } from "../market/records";
import { addressParam, describedInput, validate } from "../validation";
import { documented } from "../openapi/describe";
import { candlesBody, okBody, tokenWire, tradeWire, addressWire } from "../openapi/schemas";
import { buildDoc, confirmDoc, intentDoc, statusDoc } from "../openapi/launchDocs";
import { buildBodySchema, confirmBodySchema, statusQuerySchema } from "../launch/keyFlow";
import { intentRequestSchema } from "../launch/intent";

/** What the v1 router reads. */
export type V1Deps = {
  db: MarketDb;
  publicBaseUrl: string;
  nowSec?: () => number;
  /** Launch intent lifetime in seconds (default `LAUNCH_INTENT_TTL_SEC`, else 15 minutes). */
  intentTtlSec?: number;
};

const addressPath = z.object({ address: addressParam });

/** Builds the `/api/v1/evmchain` router. */
export function v1Routes(deps: V1Deps) {
  const nowSec = deps.nowSec ?? (() => Math.floor(Date.now() / 1000));
  return (
    new Hono()
      /**
       * GET /api/v1/evmchain/tokens/{address} — canonical token record.
       * 200 `{ok, token}`; 400 `invalid_address`; 404 `token_not_found`.
       */
      .get("/tokens/:address", documented({ tag: "v1", summary: "Canonical token record", ok: okBody({ token: tokenWire }), errors: ["invalid_address", "token_not_found"] }), validate("param", addressPath), async (c) => {
        const { address } = c.req.valid("param");
        const row = await findToken(deps.db, address);
        if (!row) throw new ApiError("token_not_found", `no launched token at ${address}`);
        return sendOk(c, { token: tokenRecord(row, deps.publicBaseUrl) });
      })
      /**
       * GET /api/v1/evmchain/tokens/{address}/trades?limit= — swaps mirrored as trades, newest
       * first. `limit` default 50, max 200. 200 `{ok, token, trades}`; 400; 404.
       */
      .get("/tokens/:address/trades", documented({ tag: "v1", summary: "Swaps mirrored as trades, newest first", ok: okBody({ token: addressWire, trades: z.array(tradeWire) }), errors: ["invalid_request", "invalid_address", "token_not_found"] }), validate("param", addressPath), validate("query", tradesQuery), async (c) => {
        const { address } = c.req.valid("param");
        const { limit } = c.req.valid("query");
        if (!(await findTokenAddress(deps.db, address))) throw new ApiError("token_not_found", `no launched token at ${address}`);
        const rows = await tokenTrades(deps.db, address, limit);
        return sendOk(c, { token: address, trades: rows.map(tradeRecord) });
      })
      /**
       * GET /api/v1/evmchain/tokens/{address}/candles?resolution=&from=&to= — OHLCV candles,
       * oldest first. `resolution` one of 1m, 5m, 15m, 1h, 4h, 1d; `from`/`to` unix seconds,
       * inclusive bounds on bucket start; default window: 300 buckets ending now; at most 1,000
       * buckets. Only buckets with trades are returned. 200 `{ok, token, resolution, from_sec,
       * to_sec, candles}`; 400 `invalid_request`/`invalid_range`/`invalid_address`; 404.
       * `format=udf` answers in the TradingView UDF `/history` shape instead (`fill`, `countback`;
       * docs/public.md "Candles for charting libraries").
       */
      .get(
        "/tokens/:address/candles",
        documented({
          tag: "v1",
          summary: "OHLCV candles, oldest first",
          description: "`format=udf` answers in the TradingView UDF `/history` shape instead (docs/public.md).",
          ok: candlesBody,
          errors: ["invalid_request", "invalid_address", "invalid_resolution", "invalid_range", "token_not_found"],
        }),
        validate("param", addressPath),
        validate("query", candlesQuery),
        async (c) => {
          const { address } = c.req.valid("param");
          if (!(await findTokenAddress(deps.db, address))) throw new ApiError("token_not_found", `no launched token at ${address}`);
          return candlesResponse(c, deps.db, address, c.req.valid("query"), nowSec());
        },
      )
  );
}

/** What the whole `/api/v1` surface needs. */
export type V1SurfaceDeps = V1Deps & TrustDeps;

/** Media URL of a stored image: `{base}/media/{id}.{ext}`. */
export function mediaUrl(publicBaseUrl: string, id: string, extension: string): string {
  return `${publicBaseUrl}/media/${id}.${extension}`;
}

/** Builds the `/api/v1` router (descriptor, health, auth + limits, every v1 endpoint). */
export function v1Surface(deps: V1SurfaceDeps) {
  const getStore = storeGetter(deps.store);
  const limits = { ...LIMITS, ...deps.limits };
  const nowSec = deps.nowSec ?? (() => Math.floor(Date.now() / 1000));
  const launchOps = keyLaunchHandlers({ ...deps, getStore, limits, nowSec, intentTtlSec: deps.intentTtlSec });
  const authenticated = [
    identifyApiKey(getStore),
    // Keyed by the API key's id; requests without a valid key are counted per client IP, so even
    // 401s carry rate headers and cannot be used to probe keys at speed.
    storeRateLimiter({
      getStore,
      prefix: "v1:",
      limit: limits.v1RequestsPerMinute,
      key: (c) => c.get("apiKey")?.id ?? `ip:${clientIp(c, deps.trustProxy ?? false)}`,
    }),
    requireApiKey(),
    requireScope(),
  ] as const;

  return (
    new Hono<TrustEnv>()
      /** GET /api/v1 — the index descriptor (open). */
      .get("/", documented({ tag: "v1", summary: "Index descriptor of the key-authenticated surface (open)", ok: okBody({ name: z.string(), version: z.literal("v1"), status: z.string(), docs: z.string(), authentication: z.record(z.string(), z.unknown()), base_url: z.string(), endpoints: z.record(z.string(), z.string()), limits: z.record(z.string(), z.unknown()), notes: z.array(z.string()), request_id: z.string() }) }), (c) => sendOk(c, v1Descriptor(deps.publicBaseUrl, limits, c.get("requestId"))))
      /**
       * GET /api/v1/health — store, RPC and indexer state (open). 200 when all are up, else 503
       * with `ok: false`, `error: "service_unavailable"` and the same fields. The RPC probe is bounded
       * to 2 s; `indexer.lag_blocks` is null while the RPC is down, `indexer.age_sec` is the age of
       * the newest indexed block (docs/operations.md "RPC outage").
       */
      .get("/health", documented({ tag: "v1", summary: "Store, RPC and indexer state (open)", ok: okBody({ status: z.literal("ok"), store: z.record(z.string(), z.unknown()), rpc: z.record(z.string(), z.unknown()), indexer: z.record(z.string(), z.unknown()), time_sec: z.number().int(), request_id: z.string() }), errors: ["service_unavailable"] }), async (c) => {
        const [store, rpc, indexer] = await Promise.all([
          getStore()
            .then(async (s) => ({ ok: true, kind: s.kind, latency_ms: await pingStore(s) }))
            .catch((err: Error) => ({ ok: false, error: err.message })),
          // Bounded: a stalled RPC makes health answer "rpc down" within 2 s instead of hanging.
          withTimeout(Promise.all([deps.publicClient.getChainId(), deps.publicClient.getBlockNumber()]), SOURCE_TIMEOUT_MS)
            .then(([chainId, block]) => ({ ok: chainId === deps.deployment.chainId, chain_id: chainId, block_number: Number(block) }))
            .catch((err: Error) => ({ ok: false, error: (err as { shortMessage?: string }).shortMessage ?? err.message })),
          indexerState(deps.indexerStatusUrl),
        ]);
        if (indexer.ok) {
          const extra = indexer as Record<string, unknown>;
          // Lag in blocks needs the chain head (null while the RPC is down); the age of the indexed
          // block does not, so it keeps growing through an outage when the chain makes blocks.
          extra.lag_blocks = "block_number" in rpc && typeof indexer.block_number === "number" ? Math.max(0, rpc.block_number - indexer.block_number) : null;
          if (typeof indexer.block_timestamp_sec === "number") extra.age_sec = Math.max(0, nowSec() - indexer.block_timestamp_sec);
        }
        const healthy = store.ok && rpc.ok && indexer.ok;
        const body = {
          status: healthy ? "ok" : "degraded",
          store,
          rpc,
          indexer,
          time_sec: nowSec(),
          request_id: c.get("requestId"),
        };
        if (healthy) return sendOk(c, body);
        return c.body(JSON.stringify({ ok: false, error: "service_unavailable", message: "a dependency is down", ...body }), 503, {
          "content-type": "application/json; charset=utf-8",
        });
      })
      .use("/evmchain/*", ...authenticated)
      .use("/coins/*", ...authenticated)
      /**
       * POST /api/v1/evmchain/launches/intent — create a launch intent (spec: Launch intent).
       * Headers: `Authorization: Bearer`, `Idempotency-Key` (required). Body: the launch request
       * fields (bounds in api/launch/intent.ts). 201 `{ok, launch_id, state, intent: {message,
       * issued_at_sec, expires_at_sec, chain_id, factory, creator, name, symbol, first_buy_wei,
       * slippage_bps, metadata, metadata_sha256}}`. Errors: 400 `invalid_request` /
       * `invalid_address` / `forbidden_field` / `invalid_image_url` / `idempotency_key_missing`,
       * 409 `idempotency_in_progress`, 422 `idempotency_key_mismatch`, 429 `quota_exceeded`.
       * Counts one coin against the key's daily "created" quota.
       */
      .post(
        "/evmchain/launches/intent",
        documented({ ...intentDoc, tag: "v1" }),
        describedInput("json", intentRequestSchema),
        idempotency({ getStore }), async (c) => {
        const { status, body } = await launchOps.intent(c, "launch_id");
        return sendOk(c, body, status);
      })
      /**
       * POST /api/v1/evmchain/launches/build `{launch_id, intent_signature}` (scope
       * `evmchain:launch:build`; spec: Endpoints, Authentication 5; EIP-191 personal_sign,
       * EIP-1271 / ERC-6492 via viem `verifyMessage`). Verifies that the intent's creator signed
       * exactly `intent.message`, then builds with the one builder (the same transaction as the
       * session surface). 200 `{ok, launch_id, state: "built", transaction: {chainId: "0x1237",
       * from, to, value (hex wei), data, gas}, policy: {minimum_pool_liquidity_wei,
       * first_buy_amount_wei, total_transaction_value_wei}, predicted_token_address,
       * predicted_pool_address, gas_limit, amount_out_minimum (token base units),
       * expected_tokens_out, slippage_bps, simulated_at_block, built_at_sec}`; repeating it on a
       * built launch returns the same body. Errors: 400 `invalid_request` / `forbidden_field`,
       * 401 `invalid_signature` (state unchanged), 404 `launch_not_found`, 409
       * `launch_state_conflict`, 410 `intent_expired` (state `expired`), 422
       * `launch_simulation_failed`, 503 `chain_unavailable`.
       */
      .post("/evmchain/launches/build", documented({ ...buildDoc, tag: "v1" }), describedInput("json", buildBodySchema("launch_id")), async (c) => {
        const { status, body } = await launchOps.build(c, "launch_id");
        return sendOk(c, body, status);
      })
      /**
       * POST /api/v1/evmchain/launches/confirm `{launch_id, tx_hash}` (scope
       * `evmchain:launch:confirm`; spec: "What the service does" 2). Runs the one verifier with
       * what was built. 200 `{ok, launch_id, state: "confirmed", tx_hash, block_number,
       * block_hash, factory, token_address, token_url, pool_address, creator, name, symbol,
       * position_ids, liquidity_wei, first_buy_wei, first_buy_tokens_out, metadata,
       * confirmed_at_sec}` (the same body on every repetition with the same hash; counts one coin
       * against the key's daily "finalized" quota once). 202 `{ok, launch_id, state: "submitted",
       * tx_hash, pending: {code: "receipt_pending", message}, retry_after_sec}` + `Retry-After`
       * while the transaction is not mined. Errors (body carries `launch_id`, `state`): 422 with
       * the verifier's code (`transaction_reverted`, `factory_not_accepted`, `creator_mismatch`,
       * `metadata_mismatch`, `value_mismatch`, `lp_not_locked`, `first_buy_missing`,
       * `first_buy_below_minimum`, `launch_event_missing`, `launch_event_ambiguous`; state
       * `failed`), 409 `tx_already_used` / `launch_state_conflict`, 404, 429 `quota_exceeded`,
       * 503 `chain_unavailable`.
       */
      .post("/evmchain/launches/confirm", documented({ ...confirmDoc, tag: "v1" }), describedInput("json", confirmBodySchema("launch_id")), async (c) => {
        const { status, body } = await launchOps.confirm(c, "launch_id");
        return sendOk(c, body, status);
      })
      /**
       * GET /api/v1/evmchain/launches/status?launch_id=|tx_hash= (scope `evmchain:launch:read`)
       * — exactly one of the two (400 otherwise). The idempotent state record of one of the
       * key's launches (`tx_hash`: the launch last submitted with it, a confirmed one first):
       * 200 `{ok, launch_id, state, terminal, next_actions, …}` (api/launch/flow.ts
       * `launchStatus`); 404 `launch_not_found`.
       */
      .get("/evmchain/launches/status", documented({ ...statusDoc, tag: "v1" }), describedInput("query", statusQuerySchema("launch_id", true)), async (c) => {
        const { status, body } = await launchOps.status(c, "launch_id", true);
        return sendOk(c, body, status);
      })
      /**
       * POST /api/v1/evmchain/media/upload — multipart/form-data with field `image` (PNG, JPEG,
       * WebP or GIF; limits in api/media/image.ts: 2 MiB, 4096 px per side, 16,777,216 pixels,
       * 256 frames). The bytes are checked and re-encoded (metadata stripped) and stored in the
       * offchain store. 201 `{ok, image_url, content_type, width, height, byte_length}`; 400 with
       * the image error identifier (`image_missing`, `image_too_large`, `image_type_unsupported`,
       * `image_corrupt`, `image_dimensions_exceeded`, `image_polyglot`), nothing stored.
       */
      .post(
        "/evmchain/media/upload",
        documented({
          tag: "v1",
          status: 201,
          summary: "Upload a logo (multipart field `image`): checked, re-encoded, hosted",
          ok: okBody({ image_url: z.string(), content_type: z.string(), width: z.number().int(), height: z.number().int(), byte_length: z.number().int() }),
          errors: ["image_missing", "image_too_large", "image_type_unsupported", "image_corrupt", "image_dimensions_exceeded", "image_polyglot"],
        }),
        describedInput("form", z.object({ image: z.file().meta({ description: "PNG, JPEG, WebP or GIF; at most 2 MiB, 4,096 px per side" }) })),
        bodyLimit({
          maxSize: IMAGE_LIMITS.maxBytes + 64 * 1024,
          onError: () => {
            throw new ApiError("image_too_large", `the upload is larger than ${IMAGE_LIMITS.maxBytes} bytes`);
          },
        }),
        async (c) => {
          const type = (c.req.header("Content-Type") ?? "").toLowerCase();
          if (!type.startsWith("multipart/form-data")) {
            throw new ApiError("image_missing", "send multipart/form-data with the file in field `image`");
          }
          let form: Record<string, unknown>;
          try {
            form = await c.req.parseBody();
          } catch {
            throw new ApiError("image_missing", "the multipart body could not be read");
          }
          const file = form.image;
          if (!(file instanceof File)) throw new ApiError("image_missing", "no file in field `image`");
          let image;
          try {
            image = await sanitizeImage(new Uint8Array(await file.arrayBuffer()));
          } catch (err) {
            if (err instanceof InvalidImageError) throw new ApiError(err.code, err.message);
            throw err;
          }
          const id = image.sha256.slice(0, 32);
          const extension = image.format === "jpeg" ? "jpg" : image.format;
          await insertMedia(await getStore(), {
            id,
            contentType: image.contentType,
            extension,
            bytes: image.bytes,
            byteLength: image.bytes.byteLength,
            width: image.width,
            height: image.height,
            apiKeyId: currentKey(c).id,
            createdAtMs: Date.now(),
          });
          return sendOk(
            c,
            {
              image_url: mediaUrl(deps.publicBaseUrl, id, extension),
              content_type: image.contentType,
              width: image.width,
              height: image.height,
              byte_length: image.bytes.byteLength,
            },
            201,
          );
        },
      )
      .route("/evmchain", v1Routes(deps))
      .route("/coins", coinsRoutes({ launchOps, getStore }))
  );
}

/** Ponder's `/status` for our chain: the latest indexed block. */
async function indexerState(url: string | undefined): Promise<{ ok: boolean; block_number?: number; block_timestamp_sec?: number; error?: string }> {
  if (!url) return { ok: false, error: "indexer status is not available in this process" };
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    if (!res.ok) return { ok: false, error: `indexer status answered ${res.status}` };
    const status = (await res.json()) as Record<string, { block?: { number?: number; timestamp?: number } }>;
    const chain = Object.values(status)[0];
    if (!chain?.block) return { ok: false, error: "indexer has not started" };
    return { ok: true, block_number: chain.block.number, block_timestamp_sec: chain.block.timestamp };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
