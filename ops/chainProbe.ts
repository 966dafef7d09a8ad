/**
 * The RPC part of the open health answers (`GET /api/v1/health`, the session `GET /status`):
 * the chain id and the head block, probed once and shared.
 *
 * Both endpoints are unauthenticated, so without a cache every call cost the RPC two requests
 * (docs/security.md, "Abuse limits"). {@link chainProbe} keeps one answer for `ttlMs` (default
 * {@link CHAIN_PROBE_TTL_MS}, one second) in an `lru-cache` whose `fetch` is single-flight: N
 * concurrent callers of an expired (or empty) entry share one probe, i.e. one `eth_chainId` and
 * one `eth_blockNumber`. A failed probe (RPC refused, stalled past the timeout, wrong chain) is
 * cached the same way, so an outage does not multiply requests either. docs/operations.md
 * "Health probes".
 */
import { LRUCache } from "lru-cache";
import type { PublicClient } from "viem";
import { SOURCE_TIMEOUT_MS, withTimeout } from "../market/timeout";

/** How long one probe answer is reused, in milliseconds (docs/operations.md "Health probes"). */
const CHAIN_PROBE_TTL_MS = 1_000;

/**
 * One probe's result. `ok` is true when the RPC answered both calls and the chain id is the
 * deployment's; `error` is viem's `shortMessage` (or the timeout's message) when it did not answer.
 */
export type ChainProbeResult =
  | { ok: boolean; chain_id: number; block_number: number; checked_at_ms: number }
  | { ok: false; error: string; checked_at_ms: number };

/** Options of {@link chainProbe}. */
export type ChainProbeOptions = {
  /** viem client on the deployment's RPC. */
  client: Pick<PublicClient, "getChainId" | "getBlockNumber">;
  /** The deployment's chain id; another id is `ok: false`. */
  expectedChainId: number;
  /** Reuse window in milliseconds (default {@link CHAIN_PROBE_TTL_MS}; 0 probes on every call). */
  ttlMs?: number;
  /** Bound on one probe in milliseconds (default `SOURCE_TIMEOUT_MS`, 2 s). */
  timeoutMs?: number;
  /** Clock in milliseconds (default `performance.now`; tests inject one instead of sleeping). */
  nowMs?: () => number;
};

/**
 * Builds a shared, cached chain probe.
 *
 * @param options - client, expected chain id, reuse window, timeout, clock
 * @returns a function resolving the current {@link ChainProbeResult}; it never rejects
 * @example
 * const probe = chainProbe({ client, expectedChainId: 4663 });
 * await probe(); // { ok: true, chain_id: 4663, block_number: 1234, checked_at_ms: 1795330000000 }
 */
export function chainProbe(options: ChainProbeOptions): () => Promise<ChainProbeResult> {
  const ttlMs = options.ttlMs ?? CHAIN_PROBE_TTL_MS;
  const timeoutMs = options.timeoutMs ?? SOURCE_TIMEOUT_MS;
  const probeOnce = async (): Promise<ChainProbeResult> => {
    try {
      // Both calls settle before the probe does (no request outlives a failed probe unseen);
      // the whole probe is bounded by the timeout.
      const [chainId, block] = await withTimeout(
        Promise.allSettled([options.client.getChainId(), options.client.getBlockNumber({ cacheTime: 0 })]).then(
          ([id, head]) => {
            if (id.status === "rejected") throw id.reason;
            if (head.status === "rejected") throw head.reason;
            return [id.value, head.value] as const;
          },
        ),
        timeoutMs,
      );
      return {
        ok: chainId === options.expectedChainId,
        chain_id: chainId,
        block_number: Number(block),
        checked_at_ms: Date.now(),
      };
    } catch (err) {
      const e = err as { shortMessage?: string; message?: string };
      return { ok: false, error: e.shortMessage ?? e.message ?? String(err), checked_at_ms: Date.now() };
    }
  };
  if (ttlMs <= 0) return probeOnce;
  const cache = new LRUCache<"probe", ChainProbeResult>({
    max: 1,
    ttl: ttlMs,
    // Expiry is checked against this clock; resolution 0 reads it on every check.
    ttlResolution: 0,
    ...(options.nowMs ? { perf: { now: options.nowMs } } : {}),
    fetchMethod: probeOnce,
  });
  return async () => (await cache.fetch("probe"))!;
}
