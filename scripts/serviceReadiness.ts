/**
 * Waiting for a started service (scripts/ponderProcess.ts) to be useful: indexed up to a block
 * (Ponder's `/status`), or ready by the service's own verdict (`GET /api/v1/ready`). Shared by
 * `npm start`, the benchmarks and the end-to-end tests; polls, never sleeps a fixed time.
 */
import { serviceStartTimeoutMs } from "./ponderProcess";

/**
 * Waits until the service has indexed at least `blockNumber` (Ponder's `GET /status`, chain
 * `evmchain`). `/ready` alone turns 200 at the finalized block, before the newest rows exist.
 * @param url - the service base URL
 * @param blockNumber - block that must be indexed
 * @param timeoutMs - give up after this long (default `SERVICE_START_TIMEOUT_MS`, 180 s)
 * @param onProgress - called with the indexed block (`undefined` before the first) each time it changes
 * @throws Error on timeout
 */
export async function waitIndexed(
  url: string,
  blockNumber: bigint,
  timeoutMs = serviceStartTimeoutMs(),
  onProgress?: (indexedBlock: bigint | undefined) => void,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let reported: bigint | undefined | null = null;
  while (Date.now() < deadline) {
    try {
      const status = (await (await fetch(`${url}/status`)).json()) as { evmchain?: { block?: { number?: number } } };
      const indexed = status.evmchain?.block?.number;
      const block = indexed === undefined ? undefined : BigInt(indexed);
      if (onProgress && block !== reported) {
        reported = block;
        onProgress(block);
      }
      if (block !== undefined && block >= blockNumber) return;
    } catch {
      // not listening or not indexing yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not index block ${blockNumber} within ${timeoutMs} ms`);
}

/**
 * The service's readiness endpoint (ops/readiness.ts): 200 only while the indexed head is within
 * `READY_MAX_LAG_BLOCKS` of the chain head and progressing. Ponder's own `/ready` turns 200 once its
 * historical sync reached the finalized block (block 0 on a young chain, before any history is indexed).
 */
export const SERVICE_READY_PATH = "/api/v1/ready";

/** What {@link waitReady} hands to `onProgress`: the readiness answer's block fields. */
export type ReadyProgress = {
  status: number;
  indexedBlock: number | null;
  chainHeadBlock: number | null;
  reason: string | null;
};

/**
 * Waits until the readiness endpoint answers 200: by default the service's own
 * {@link SERVICE_READY_PATH} ("serving current data"), or Ponder's `/ready` with `path: "/ready"`
 * (historical sync done; what an API replica's `ponder serve` reports and what a benchmark that
 * measures the catch-up itself waits for).
 * @param url - the service base URL
 * @param timeoutMs - give up after this long (default `SERVICE_START_TIMEOUT_MS`, 180 s)
 * @param options.path - readiness path (default {@link SERVICE_READY_PATH})
 * @param options.onProgress - called with each answer whose indexed block or status changed
 * @throws Error on timeout, naming the path and the last reason the service gave
 */
export async function waitReady(
  url: string,
  timeoutMs = serviceStartTimeoutMs(),
  options: { path?: string; onProgress?: (progress: ReadyProgress) => void } = {},
): Promise<void> {
  const path = options.path ?? SERVICE_READY_PATH;
  const deadline = Date.now() + timeoutMs;
  let last = "";
  let lastReason: string | null = null;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}${path}`);
      const body = (await res.json().catch(() => ({}))) as {
        indexed_block?: number | null;
        chain_head_block?: number | null;
        reason?: string | null;
      };
      lastReason = body.reason ?? null;
      const progress: ReadyProgress = {
        status: res.status,
        indexedBlock: body.indexed_block ?? null,
        chainHeadBlock: body.chain_head_block ?? null,
        reason: lastReason,
      };
      const key = `${progress.status}/${progress.indexedBlock}/${progress.chainHeadBlock}`;
      if (options.onProgress && key !== last) options.onProgress(progress);
      last = key;
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `${url}${path} did not turn 200 within ${timeoutMs} ms${lastReason ? ` (last reason: ${lastReason})` : ""}`,
  );
}
