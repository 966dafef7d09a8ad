/**
 * Restarts the indexer process when it stalls while the chain advances (docs/operations.md, "Readiness and stalls").
 *
 * Why a restart and not a setting: after the indexer's RPC stops answering for tens of seconds
 * (a frozen node accepts connections and never answers), Ponder 0.17's RPC client does not recover
 * by itself (docs/operations.md "Stalled indexer after an RPC freeze"): every timed-out request
 * cuts the URL's adaptive rate limit by 5 % down to its floor of 3 requests/s
 * (`ponder/dist/esm/rpc/index.js`: `RPS_DECREASE_FACTOR`, `MIN_RPS`), while the realtime poll
 * (`setInterval` every `POLLING_INTERVAL_MS`, whether or not the previous poll answered) keeps
 * queueing `eth_getBlockByNumber` requests ahead of the block fetches. After the node is back the
 * queue grows faster than the limit lets it drain, so no block is indexed for minutes ("Unable to
 * find available JSON-RPC provider within expected time"). None of it is configurable. A new
 * process starts with an empty queue and the initial limit, and resumes from its checkpoint.
 *
 * The supervisor polls the service's own readiness (`GET /api/v1/ready`, ops/readiness.ts) and
 * restarts the process once it has answered `status: "stalled"` with a known chain head (the API's
 * RPC answers: the chain advances) for `restartAfterSec`. Restarts back off (doubling from
 * `restartAfterSec`, at most `maxBackoffSec`) until the service is ready again, so a long outage
 * does not become a restart loop. Used by `npm start` (devnet and production) and by the e2e
 * harness (`startStack({ superviseIndexer })`).
 */

/** One readiness answer as the supervisor reads it. */
export type SupervisedReadiness = {
  status: "ok" | "degraded" | "stalled";
  chainHeadBlock: number | null;
  indexedBlock: number | null;
  reason: string | null;
};

/** Options of {@link superviseIndexer}. */
export type IndexerSupervisorOptions = {
  /** Base URL of the supervised service now (it may change across restarts). */
  serviceUrl: () => string;
  /** Seconds of continuous `stalled` (with a known chain head) before a restart (`INDEXER_RESTART_STALLED_SEC`). */
  restartAfterSec: number;
  /** Stops the process and starts a new one on the same database; resolves once it answers `/health`. */
  restart: (reason: string) => Promise<void>;
  /**
   * Whether the indexer's own RPC answers now (e.g. {@link rpcAnswers} on `INDEXER_RPC_URLS`):
   * a restart waits for it, since a new process cannot index through a node that does not answer
   * either (absent: not checked).
   */
  indexerRpcAnswers?: () => Promise<boolean>;
  /** Longest wait between two restarts while the service does not become ready, seconds (default 300). */
  maxBackoffSec?: number;
  /** Pause between two readiness checks, milliseconds (default 1,000). */
  checkIntervalMs?: number;
  /** Bound of one readiness request, milliseconds (default 5,000). */
  requestTimeoutMs?: number;
  /** Progress lines (restart decisions), e.g. `npm start`'s step printer. */
  onEvent?: (message: string) => void;
  /** Clock, milliseconds (default `Date.now`). */
  nowMs?: () => number;
  /** Reads the service's readiness once (default {@link readServiceReadiness} on `serviceUrl()`). */
  readReadiness?: () => Promise<SupervisedReadiness | null>;
  /**
   * Runs the next check after `delayMs` and returns its cancel (default `setTimeout`); tests step
   * the checks themselves instead of waiting.
   */
  schedule?: (check: () => Promise<void>, delayMs: number) => () => void;
};

/** A running supervisor. */
export type IndexerSupervisor = {
  /** Restarts made so far. */
  restarts: () => number;
  /** Stops supervising (a restart under way finishes). */
  stop: () => void;
};

/**
 * Reads `GET /api/v1/ready` once.
 * @returns the answer, or null when the service does not answer (starting, stopped, frozen)
 */
export async function readServiceReadiness(serviceUrl: string, timeoutMs = 5_000): Promise<SupervisedReadiness | null> {
  try {
    const res = await fetch(`${serviceUrl}/api/v1/ready`, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await res.json()) as {
      status?: string;
      chain_head_block?: number | null;
      indexed_block?: number | null;
      reason?: string | null;
    };
    if (body.status !== "ok" && body.status !== "degraded" && body.status !== "stalled") return null;
    return {
      status: body.status,
      chainHeadBlock: body.chain_head_block ?? null,
      indexedBlock: body.indexed_block ?? null,
      reason: body.reason ?? null,
    };
  } catch {
    return null;
  }
}

/**
 * Whether every URL answers `eth_blockNumber` within `timeoutMs` (the indexer's RPC is back).
 * @param urls - JSON-RPC http(s) URLs
 * @returns true when all answered with a block number
 * @example await rpcAnswers(["http://127.0.0.1:8545"]) // true
 */
export async function rpcAnswers(urls: string[], timeoutMs = 2_000): Promise<boolean> {
  const answers = await Promise.all(
    urls.map(async (url) => {
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const body = (await res.json()) as { result?: unknown };
        return typeof body.result === "string";
      } catch {
        return false;
      }
    }),
  );
  return answers.every(Boolean);
}

/**
 * Starts supervising.
 * @param options - service URL, restart threshold and action, backoff, clock
 * @returns `restarts()` and `stop()`
 * @example
 * const supervisor = superviseIndexer({ serviceUrl: () => service.url, restartAfterSec: 30, restart: () => restartService() });
 */
export function superviseIndexer(options: IndexerSupervisorOptions): IndexerSupervisor {
  const nowMs = options.nowMs ?? Date.now;
  const checkIntervalMs = options.checkIntervalMs ?? 1_000;
  const maxBackoffMs = (options.maxBackoffSec ?? 300) * 1000;
  let stopped = false;
  let restarts = 0;
  let stalledSince: number | null = null;
  let backoffMs = options.restartAfterSec * 1000;
  let notBefore = 0;
  let cancel: (() => void) | undefined;
  const schedule =
    options.schedule ??
    ((check: () => Promise<void>, delayMs: number) => {
      const timer = setTimeout(() => void check(), delayMs);
      return () => clearTimeout(timer);
    });
  const readReadiness =
    options.readReadiness ?? (() => readServiceReadiness(options.serviceUrl(), options.requestTimeoutMs));

  const tick = async () => {
    if (stopped) return;
    const readiness = await readReadiness();
    const now = nowMs();
    if (readiness?.status === "ok") {
      stalledSince = null;
      backoffMs = options.restartAfterSec * 1000;
      notBefore = 0;
    } else if (readiness?.status === "stalled" && readiness.chainHeadBlock !== null) {
      // The stall counts only while the indexer's RPC answers: through a node that does not answer
      // a new process cannot index either, and once the node is back the process gets
      // `restartAfterSec` to resume by itself (the patched Ponder does within seconds).
      if (!(await (options.indexerRpcAnswers?.() ?? Promise.resolve(true)))) {
        stalledSince = null;
      } else {
        stalledSince ??= now;
        const due = now - stalledSince >= options.restartAfterSec * 1000 && now >= notBefore;
        if (due && !stopped) {
          restarts++;
          options.onEvent?.(
            `the indexer is stalled (${readiness.reason}); restarting it (restart ${restarts}, resumes from its checkpoint)`,
          );
          try {
            await options.restart(readiness.reason ?? "stalled");
          } catch (err) {
            options.onEvent?.(`restarting the indexer failed: ${(err as Error).message}`);
          }
          stalledSince = null;
          notBefore = nowMs() + backoffMs;
          backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
        }
      }
    } else if (readiness !== null) {
      // degraded: behind but progressing, or blind (RPC down): a restart would not help
      stalledSince = null;
    }
    if (!stopped) cancel = schedule(tick, checkIntervalMs);
  };
  cancel = schedule(tick, checkIntervalMs);
  return {
    restarts: () => restarts,
    stop: () => {
      stopped = true;
      cancel?.();
    },
  };
}
