/**
 * The open part of `/api/v1` (no API key): the index descriptor (`GET /api/v1`), readiness
 * (`GET /api/v1/ready`, what a load balancer routes by) and health (`GET /api/v1/health`). Each has
 * its own per-client-IP budget in this process's memory, visible on its route: health reads the
 * store and the RPC, readiness is polled by load balancers (docs/trust.md "Limits",
 * docs/operations.md "Readiness and stalls").
 */
import { Hono } from "hono";
import { z } from "zod";
import type { Deployment } from "../../../config/deployment";
import type { ProxyTrust } from "../../../config/proxyTrust";
import { redactPrivateUrls } from "../../../config/redact";
import { pingStore, type Store } from "../../../store/index";
import type { ChainProbeResult } from "../../../ops/chainProbe";
import { sendOk } from "../../json";
import { clientIp } from "../../middleware/clientIp";
import type { TrustEnv } from "../../middleware/context";
import type { Limits } from "../../../config/limits";
import { memoryRateLimiter } from "../../middleware/rateLimit";
import { documented } from "../../openapi/describe";
import { okBody } from "../../../src/domain/wire";
import type { Readiness } from "../../../ops/readiness";
import { v1Descriptor } from "../descriptors";

/** What the open v1 routes need (built once by `createApp`). */
export type V1OpenDeps = {
  publicBaseUrl: string;
  deployment: Pick<Deployment, "rpcUrl">;
  getStore: () => Promise<Store>;
  limits: Limits;
  /** Which peers are trusted proxies for the per-IP budgets. */
  trustProxy?: ProxyTrust;
  /** IPv6 grouping of per-IP budgets (`CLIENT_IPV6_PREFIX_BITS`). */
  ipv6PrefixBits?: number;
  /** The shared, cached RPC probe (ops/chainProbe.ts). */
  chainProbe: () => Promise<ChainProbeResult>;
  /** The service's readiness check (ops/readiness.ts). */
  readiness: () => Promise<Readiness>;
  /** Clock, unix seconds (`time_sec` of health). */
  nowSec: () => number;
  /** Launch intent lifetime in seconds (stated by the descriptor). */
  intentTtlSec: number;
};

/** Builds the open routes of `/api/v1` (mount at `/api/v1`). */
export function v1OpenRoutes(deps: V1OpenDeps) {
  const { getStore, limits, nowSec, readiness } = deps;
  const probe = deps.chainProbe;
  const perIp = (prefix: string, limit: number) =>
    memoryRateLimiter({ prefix, limit, key: (c) => clientIp(c, deps.trustProxy ?? false, deps.ipv6PrefixBits) });
  // Open health is throttled per client IP in this process's memory (like the public surface):
  // each call reads the store and the RPC (docs/trust.md "Limits").
  const healthLimiter = perIp("health:", limits.healthRequestsPerMinute);
  // Readiness and the descriptor are open too: their own per-IP budgets (docs/security.md).
  const readyLimiter = perIp("ready:", limits.readyRequestsPerMinute);
  const descriptorLimiter = perIp("v1-open:", limits.openV1RequestsPerMinute);
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
       * `/ready` answers the same (ops/metrics/access.ts); a `ponder serve` replica keeps
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
       * one second (ops/chainProbe.ts). Per client IP at most `HEALTH_RATE_LIMIT_PER_MINUTE`
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
            // Shared and cached for a second (ops/chainProbe.ts): N concurrent calls make one probe;
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
  );
}
