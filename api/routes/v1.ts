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
import { redactPrivateUrls } from "../../config/redact";
import { pingStore } from "../../store/index";
import { insertMedia } from "../../store/media";
import { ApiError } from "../errors";
import { sendOk } from "../json";
import { chainProbe } from "../chainProbe";
import { readinessMonitor } from "../readiness";
import { indexedHead } from "../market/indexedHead";
import { keyLaunchHandlers } from "../launch/keyFlow";
import { coinsRoutes } from "./coins";
import { IMAGE_LIMITS, InvalidImageError, sanitizeImage } from "../media/image";
import { decodeQueue, DecodeOverloadedError, type DecodeQueue } from "../media/decodeQueue";
import { recordUploadRejection } from "../metrics/registry";
import { identifyApiKey, requireApiKey, requireScope } from "../middleware/auth";
import { currentKey, storeGetter, type TrustDeps, type TrustEnv } from "../middleware/context";
import { idempotency } from "../middleware/idempotency";
import { clientIp } from "../middleware/clientIp";
import { LIMITS, memoryRateLimiter, storeRateLimiter } from "../middleware/rateLimit";
import { v1Descriptor } from "./descriptors";
import { candlesQuery, tradePageQuery } from "../market/params";
import { decodeCursor, encodeCursor, tradeCursorShape } from "../market/cursor";
import { tradePage } from "../market/tradeQueries";
import { candlesResponse } from "../market/candlesResponse";
import { findToken, findTokenAddress } from "../market/tokenQueries";
import type { MarketDb } from "../market/db";
import { holderList, holderPosition, tokenDetail } from "../market/holders";
import type { Deployment } from "../../config/deployment";
import type { PublicConfig } from "../../config/public";
import { tradeRecord } from "../market/tradeRecord";
import { addressParam, describedInput, limitParam, validate } from "../validation";
import { documented } from "../openapi/describe";
import { holderListDoc, tokenDetailDoc } from "../openapi/tokenDocs";
import { candlesBody, tradeWire } from "../openapi/marketWire";
import { okBody, addressWire } from "../openapi/wirePrimitives";
import { buildDoc, confirmDoc, intentDoc, statusDoc } from "../openapi/launchDocs";
import { buildBodySchema, confirmBodySchema, statusQuerySchema } from "../launch/keyFlow";
import { intentRequestSchema } from "../launch/intent";
import { swapV1Routes } from "../trade/routes";

/** What the v1 router reads. */
export type V1Deps = {
  db: MarketDb;
  publicBaseUrl: string;
  publicConfig: PublicConfig;
  /** The fee locker and position manager label holders. */
  deployment: Pick<Deployment, "contracts">;
  nowSec?: () => number;
  /** Launch intent lifetime in seconds (the service passes `LAUNCH_INTENT_TTL_SEC`; default 15 minutes). */
  intentTtlSec?: number;
  /** Bounds concurrent image decodes of the upload (default: `decodeQueue()` with its defaults). */
  imageQueue?: DecodeQueue;
};

const addressPath = z.object({ address: addressParam });
/** Holder lists: `limit` default 50, max 200; `cursor` (as the public holder list). */
const holderListQuery = z.object({ limit: limitParam(50, 200), cursor: z.string().max(400).optional() });

/** Builds the `/api/v1/evmchain` router. */
export function v1Routes(deps: V1Deps) {
  const nowSec = deps.nowSec ?? (() => Math.floor(Date.now() / 1000));
  return (
    new Hono()
      /**
       * GET /api/v1/evmchain/tokens/{address} — canonical token record with `top_holders` (the
       * public token detail record). 200 `{ok, token}`; 400 `invalid_address`; 404 `token_not_found`.
       */
      .get(
        "/tokens/:address",
        documented(
          tokenDetailDoc("v1", "Canonical token record, with its top holders", ["invalid_address", "token_not_found"]),
        ),
        validate("param", addressPath),
        async (c) => {
          const { address } = c.req.valid("param");
          const row = await findToken(deps.db, address);
          if (!row) throw new ApiError("token_not_found", `no launched token at ${address}`);
          return sendOk(c, { token: await tokenDetail(deps.db, row, deps, deps.deployment) });
        },
      )
      /**
       * GET /api/v1/evmchain/tokens/{address}/holders?limit=&cursor= — the public holder list
       * (docs/public.md "Holders"): non-zero balances, largest first, then by address; `limit`
       * default 50, max 200. 200 `{ok, token, holder_count, holders, next_cursor}`; 400
       * `invalid_request`/`invalid_cursor`/`invalid_address`; 404 `token_not_found`.
       */
      .get(
        "/tokens/:address/holders",
        documented(holderListDoc("v1", ["invalid_request", "invalid_cursor", "invalid_address", "token_not_found"])),
        validate("param", addressPath),
        validate("query", holderListQuery),
        async (c) => {
          const { address } = c.req.valid("param");
          const { limit, cursor } = c.req.valid("query");
          const after = cursor !== undefined ? holderPosition(cursor) : undefined;
          return sendOk(c, await holderList(deps.db, address, limit, after, deps.deployment));
        },
      )
      /**
       * GET /api/v1/evmchain/tokens/{address}/trades?limit=&cursor=&before_timestamp= — swaps
       * mirrored as trades, newest first (block, log index). `limit` default 50, max 200;
       * `cursor` = the previous page's `next_cursor` (the public trade lists' keyset cursor,
       * docs/public.md "Lists and cursors"); `before_timestamp` (unix seconds) keeps trades with an
       * earlier block time. 200 `{ok, token, trades, next_cursor}` (`next_cursor` null after a
       * short page); 400 `invalid_request`/`invalid_cursor`/`invalid_address`; 404 `token_not_found`.
       */
      .get(
        "/tokens/:address/trades",
        documented({
          tag: "v1",
          summary: "Swaps mirrored as trades, newest first, paged by cursor and/or before_timestamp",
          ok: okBody({ token: addressWire, trades: z.array(tradeWire), next_cursor: z.string().nullable() }),
          errors: ["invalid_request", "invalid_cursor", "invalid_address", "token_not_found"],
        }),
        validate("param", addressPath),
        validate("query", tradePageQuery),
        async (c) => {
          const { address } = c.req.valid("param");
          const { limit, cursor, before_timestamp } = c.req.valid("query");
          const position = cursor !== undefined ? decodeCursor(cursor, tradeCursorShape) : undefined;
          const token = await findTokenAddress(deps.db, address);
          if (!token) throw new ApiError("token_not_found", `no launched token at ${address}`);
          const rows = await tradePage(deps.db, {
            limit,
            token,
            before: position ? { b: BigInt(position.b), l: position.l } : undefined,
            beforeTimestampSec: before_timestamp !== undefined ? BigInt(before_timestamp) : undefined,
          });
          const last = rows.at(-1);
          return sendOk(c, {
            token: address,
            trades: rows.map(tradeRecord),
            next_cursor:
              rows.length === limit && last ? encodeCursor({ b: last.blockNumber.toString(), l: last.logIndex }) : null,
          });
        },
      )
      /**
       * GET /api/v1/evmchain/tokens/{address}/candles?resolution=&from=&to= — OHLCV candles,
       * oldest first. `resolution` one of 1m, 5m, 15m, 1h, 4h, 1d; `from`/`to` unix seconds,
       * inclusive bounds on bucket start; default window: 300 buckets ending now; at most 1,440
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
          if (!(await findTokenAddress(deps.db, address)))
            throw new ApiError("token_not_found", `no launched token at ${address}`);
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
  const imageQueue = deps.imageQueue ?? decodeQueue();
  const probe = deps.chainProbe ?? chainProbe({ client: deps.publicClient, expectedChainId: deps.deployment.chainId });
  const readiness = deps.readiness ?? readinessMonitor({ indexedHead: () => indexedHead(deps.db), probe });
  // Open health is throttled per client IP in this process's memory (like the public surface):
  // each call reads the store and Ponder's /status (docs/trust.md "Limits").
  const healthLimiter = memoryRateLimiter({
    prefix: "health:",
    limit: limits.healthRequestsPerMinute,
    key: (c) => clientIp(c, deps.trustProxy ?? false),
  });
  // Readiness and the descriptor are open too: their own per-IP budgets (docs/security.md).
  const readyLimiter = memoryRateLimiter({
    prefix: "ready:",
    limit: limits.readyRequestsPerMinute,
    key: (c) => clientIp(c, deps.trustProxy ?? false),
  });
  const descriptorLimiter = memoryRateLimiter({
    prefix: "v1-open:",
    limit: limits.openV1RequestsPerMinute,
    key: (c) => clientIp(c, deps.trustProxy ?? false),
  });
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
      .get(
        "/",
        documented({
          tag: "v1",
          summary: "Index descriptor of the key-authenticated surface (open)",
          ok: okBody({
            name: z.string(),
            version: z.literal("v1"),
            status: z.string(),
            docs: z.string(),
            authentication: z.record(z.string(), z.unknown()),
            base_url: z.string(),
            endpoints: z.record(z.string(), z.string()),
            limits: z.record(z.string(), z.unknown()),
            notes: z.array(z.string()),
            request_id: z.string(),
          }),
          errors: ["rate_limited"],
        }),
        descriptorLimiter,
        (c) => sendOk(c, v1Descriptor(deps.publicBaseUrl, limits, c.get("requestId"), deps.intentTtlSec)),
      )
      /**
       * GET /api/v1/ready — whether this process serves current data (open; what a load balancer
       * routes by; docs/operations.md "Readiness and stalls"). 200 `{ok: true, ready: true,
       * status: "ok", reason: null, indexed_block, chain_head_block, lag_blocks,
       * indexed_block_age_sec, behind_for_sec, max_lag_blocks, max_indexed_age_sec}` while the
       * indexed head (Ponder's checkpoint) is at most `READY_MAX_LAG_BLOCKS` behind the chain head
       * the RPC reports and not stalled (behind with the same block for more than
       * `READY_MAX_INDEXED_AGE_SEC`); else 503 `{ok: false, error: "service_unavailable",
       * message: reason, ready: false, status: "degraded" | "stalled", …same fields}`. Block
       * numbers and seconds are JSON numbers (null when unknown: the RPC down, nothing indexed).
       * Per client IP at most `READY_RATE_LIMIT_PER_MINUTE` calls (600: load balancers poll it;
       * the RPC probe is shared and cached for 1 s, the indexed head is one one-row read), then
       * 429 `rate_limited` with `Retry-After`. On the indexer (`ponder start`) the literal
       * `/ready` answers the same (api/metrics/access.ts); a `ponder serve` replica keeps
       * Ponder's `/ready` (historical sync reached the finalized block).
       */
      .get(
        "/ready",
        documented({
          tag: "v1",
          summary:
            "Readiness: 200 only while the indexed head is within READY_MAX_LAG_BLOCKS of the chain head and progressing (open)",
          ok: okBody({
            ready: z.literal(true),
            status: z.literal("ok"),
            reason: z.null(),
            indexed_block: z.number().int(),
            chain_head_block: z.number().int(),
            lag_blocks: z.number().int(),
            indexed_block_timestamp_sec: z.number().int(),
            indexed_block_age_sec: z.number().int(),
            behind_for_sec: z.number().int(),
            max_lag_blocks: z.number().int(),
            max_indexed_age_sec: z.number().int(),
          }),
          errors: ["rate_limited", "service_unavailable"],
        }),
        readyLimiter,
        async (c) => {
          const r = await readiness();
          c.header("Cache-Control", "no-store");
          if (r.ready) return sendOk(c, r);
          return c.body(
            JSON.stringify({
              ok: false,
              error: "service_unavailable",
              message: r.reason,
              request_id: c.get("requestId"),
              ...r,
            }),
            503,
            {
              "content-type": "application/json; charset=utf-8",
            },
          );
        },
      )
      /**
       * GET /api/v1/health — store, RPC and indexer state (open). 200 `{ok: true, status: "ok",
       * lag_blocks, indexed_block_age_sec, reason: null, readiness, store, rpc, indexer, time_sec}`
       * when all are up and the indexer is ready (see `GET /api/v1/ready`); else 503 with `ok:
       * false`, `error: "service_unavailable"`, `status: "degraded"` (a dependency down, or the
       * indexer more than `READY_MAX_LAG_BLOCKS` behind) or `"stalled"` (no block indexed for
       * more than `READY_MAX_INDEXED_AGE_SEC` while the chain is ahead), `reason` and the same
       * fields. `lag_blocks` (blocks) is null while the RPC is down; `indexed_block_age_sec`
       * (seconds since the indexed block's timestamp) is not, so it keeps growing through an
       * outage while the chain makes blocks (docs/operations.md "RPC outage"). `indexer` keeps its
       * earlier fields (`ok`, `block_number`, `block_timestamp_sec`, `lag_blocks`, `age_sec`) and
       * adds `status`. The RPC probe is bounded to 2 s and shared with the session `/status` for
       * one second (api/chainProbe.ts). Per client IP at most `HEALTH_RATE_LIMIT_PER_MINUTE`
       * calls (60), then 429 `rate_limited` with `Retry-After`.
       */
      .get(
        "/health",
        documented({
          tag: "v1",
          summary: "Store, RPC and indexer state: ok, degraded or stalled (open)",
          ok: okBody({
            status: z.literal("ok"),
            lag_blocks: z.number().int().nullable(),
            indexed_block_age_sec: z.number().int().nullable(),
            reason: z.string().nullable(),
            readiness: z.record(z.string(), z.unknown()),
            store: z.record(z.string(), z.unknown()),
            rpc: z.record(z.string(), z.unknown()),
            indexer: z.record(z.string(), z.unknown()),
            time_sec: z.number().int(),
            request_id: z.string(),
          }),
          errors: ["rate_limited", "service_unavailable"],
        }),
        healthLimiter,
        async (c) => {
          const [store, rpc, ready] = await Promise.all([
            getStore()
              .then(async (s) => ({ ok: true, kind: s.kind, latency_ms: await pingStore(s) }))
              .catch((err: Error) => ({ ok: false, error: err.message })),
            // Shared and cached for a second (api/chainProbe.ts): N concurrent calls make one probe;
            // bounded, so a stalled RPC makes health answer "rpc down" within 2 s instead of hanging.
            probe().then(({ checked_at_ms: _, ...rpc }) =>
              "error" in rpc ? { ...rpc, error: redactPrivateUrls(rpc.error, [deps.deployment.rpcUrl]) } : rpc,
            ),
            readiness(),
          ]);
          const redact = (text: string | null) =>
            text === null ? null : redactPrivateUrls(text, [deps.deployment.rpcUrl]);
          const indexer =
            ready.indexed_block === null
              ? { ok: false, status: ready.status, error: redact(ready.reason) }
              : {
                  ok: true,
                  status: ready.status,
                  block_number: ready.indexed_block,
                  block_timestamp_sec: ready.indexed_block_timestamp_sec,
                  lag_blocks: ready.lag_blocks,
                  age_sec: ready.indexed_block_age_sec,
                };
          const healthy = store.ok && rpc.ok && ready.ready;
          const reason = healthy
            ? null
            : (redact(ready.reason) ??
              ("error" in store
                ? `the offchain store is unavailable: ${store.error}`
                : "the RPC answers for another chain"));
          const body = {
            status: healthy ? "ok" : ready.status === "stalled" ? "stalled" : "degraded",
            lag_blocks: ready.lag_blocks,
            indexed_block_age_sec: ready.indexed_block_age_sec,
            reason,
            readiness: { ...ready, reason: redact(ready.reason) },
            store,
            rpc,
            indexer,
            time_sec: nowSec(),
            request_id: c.get("requestId"),
          };
          if (healthy) return sendOk(c, body);
          return c.body(
            JSON.stringify({ ok: false, error: "service_unavailable", message: body.reason, ...body }),
            503,
            {
              "content-type": "application/json; charset=utf-8",
            },
          );
        },
      )
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
        idempotency({ getStore }),
        async (c) => {
          const { status, body } = await launchOps.intent(c, "launch_id");
          return sendOk(c, body, status);
        },
      )
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
      .post(
        "/evmchain/launches/build",
        documented({ ...buildDoc, tag: "v1" }),
        describedInput("json", buildBodySchema("launch_id")),
        async (c) => {
          const { status, body } = await launchOps.build(c, "launch_id");
          return sendOk(c, body, status);
        },
      )
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
      .post(
        "/evmchain/launches/confirm",
        documented({ ...confirmDoc, tag: "v1" }),
        describedInput("json", confirmBodySchema("launch_id")),
        async (c) => {
          const { status, body } = await launchOps.confirm(c, "launch_id");
          return sendOk(c, body, status);
        },
      )
      /**
       * GET /api/v1/evmchain/launches/status?launch_id=|tx_hash= (scope `evmchain:launch:read`)
       * — exactly one of the two (400 otherwise). The idempotent state record of one of the
       * key's launches (`tx_hash`: the launch last submitted with it, a confirmed one first):
       * 200 `{ok, launch_id, state, terminal, next_actions, …}` (api/launch/flow.ts
       * `launchStatus`); 404 `launch_not_found`.
       */
      .get(
        "/evmchain/launches/status",
        documented({ ...statusDoc, tag: "v1" }),
        describedInput("query", statusQuerySchema("launch_id", true)),
        async (c) => {
          const { status, body } = await launchOps.status(c, "launch_id", true);
          return sendOk(c, body, status);
        },
      )
      /**
       * POST /api/v1/evmchain/media/upload — multipart/form-data with field `image` (PNG, JPEG,
       * WebP or GIF; limits in api/media/image.ts: 2 MiB, 4096 px per side, 16,777,216 pixels,
       * 256 frames). The bytes are checked and re-encoded (metadata stripped) and stored in the
       * offchain store. 201 `{ok, image_url, content_type, width, height, byte_length}`; 400 with
       * the image error identifier (`image_missing`, `image_too_large`, `image_type_unsupported`,
       * `image_corrupt`, `image_dimensions_exceeded`, `image_polyglot`), nothing stored. Decodes run
       * in a bounded queue (one per core, two waiting per slot, 10 s wait): overload is 503
       * `image_processing_busy` with `Retry-After`, nothing stored.
       */
      .post(
        "/evmchain/media/upload",
        documented({
          tag: "v1",
          status: 201,
          summary: "Upload a logo (multipart field `image`): checked, re-encoded, hosted",
          ok: okBody({
            image_url: z.string(),
            content_type: z.string(),
            width: z.number().int(),
            height: z.number().int(),
            byte_length: z.number().int(),
          }),
          errors: [
            "image_missing",
            "image_too_large",
            "image_type_unsupported",
            "image_corrupt",
            "image_dimensions_exceeded",
            "image_polyglot",
            "image_processing_busy",
          ],
        }),
        describedInput(
          "form",
          z.object({
            image: z.file().meta({ description: "PNG, JPEG, WebP or GIF; at most 2 MiB, 4,096 px per side" }),
          }),
        ),
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
            // The decode waits for a slot of the bounded queue (api/media/decodeQueue.ts).
            image = await sanitizeImage(new Uint8Array(await file.arrayBuffer()), { schedule: imageQueue.run });
          } catch (err) {
            if (err instanceof InvalidImageError) throw new ApiError(err.code, err.message);
            if (err instanceof DecodeOverloadedError) {
              // Overload is the server's state, never the client's fault: 503 + Retry-After.
              recordUploadRejection("image_processing_busy");
              c.header("Retry-After", String(err.retryAfterSec));
              throw new ApiError("image_processing_busy", `${err.message}; retry after ${err.retryAfterSec} s`);
            }
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
      // Swap builds for the key's wallet (docs/trade.md), behind the key, its limit and scope.
      .route("/evmchain", swapV1Routes({ ...deps, getStore, buildsPerMinute: limits.swapBuildsPerMinute }))
      .route("/coins", coinsRoutes({ launchOps, getStore }))
  );
}
