/**
 * Whether this process serves current data: the service's own readiness (docs/operations.md
 * "Readiness and stalls"), shared by `GET /api/v1/ready`, `GET /api/v1/health`, the session `GET /status`
 * (`readiness`) and the scrape-time gauges (`launch_indexer_*`).
 *
 * Ponder's own `/ready` turns 200 once its historical sync reached the *finalized* block, which
 * on a young chain is block 0: it said "ready" with the whole history unindexed, and it never
 * turns 503 again when indexing stops. This module compares the indexed head (Ponder's
 * checkpoint in the database, so an API replica sees the indexer's progress too) with the chain
 * head the service sees through its RPC (the shared, 1 s cached probe of `ops/chainProbe.ts`):
 *
 * - `ok` (ready): the indexed head is at most `maxLagBlocks` (`READY_MAX_LAG_BLOCKS`) behind the
 *   chain head, and not stalled;
 * - `degraded` (not ready): the lag is above that bound (catching up after a start or an
 *   outage), the chain head is unknown (RPC down), or nothing is indexed yet;
 * - `stalled` (not ready): the chain is ahead of the indexed block and that block has neither
 *   changed nor been younger than `maxIndexedAgeSec` (`READY_MAX_INDEXED_AGE_SEC`) for that long:
 *   indexing stopped while the chain advances.
 *
 * "Stalled" needs two clocks to agree, so that neither a backfill (old blocks, but the indexed
 * block changes all the time) nor a quiet chain (an old head block, but the chain is not ahead
 * until the next block comes) looks stalled: the age of the indexed block (wall clock minus its
 * timestamp) and how long this process has seen the chain ahead of that same block. The second
 * is this process's observation, taken on every check (health, ready, status, scrape).
 * docs/operations.md "Readiness and stalls".
 */
import type { ChainProbeResult } from "./chainProbe";
import type { IndexedHead } from "../market/indexedHead";

/** The bounds of {@link assessIndexer} (`READY_MAX_LAG_BLOCKS`, `READY_MAX_INDEXED_AGE_SEC`). */
export type ReadinessPolicy = {
  /** Most blocks the indexed head may be behind the chain head and still be ready. */
  maxLagBlocks: number;
  /** Seconds the indexed block may stay behind the chain head (and be that old) before it is a stall. */
  maxIndexedAgeSec: number;
  /**
   * The same bound before this process has seen the indexer caught up once (the first backfill,
   * where one batch may hold the checkpoint for a while on a loaded machine); default
   * {@link BACKFILL_STALL_SEC}.
   */
  backfillStallSec?: number;
};

/** Seconds without a new indexed block before a first backfill counts as stalled (5 minutes). */
const BACKFILL_STALL_SEC = 300;

/** Defaults for a chain with ~100 ms blocks (docs/operations.md "Readiness and stalls"). */
const DEFAULT_READINESS_POLICY: ReadinessPolicy = {
  maxLagBlocks: 30,
  maxIndexedAgeSec: 15,
  backfillStallSec: BACKFILL_STALL_SEC,
};

/**
 * `ok`: serving current data; `degraded`: behind, or a dependency unknown; `stalled`: no progress
 * while the chain advances, or the indexed head this process saw is gone (the index was lost);
 * `npm start`'s supervisor restarts a stalled service (scripts/indexerSupervisor.ts).
 */
export type IndexerStatus = "ok" | "degraded" | "stalled";

/**
 * One readiness answer (JSON field names as served; block numbers and seconds are JSON numbers,
 * `null` where unknown).
 */
export type Readiness = {
  ready: boolean;
  status: IndexerStatus;
  /** Why it is not `ok` (`null` when it is), one sentence for operators. */
  reason: string | null;
  /** Newest fully indexed block (Ponder's checkpoint), null before the first. */
  indexed_block: number | null;
  /** The chain head through the service's RPC, null while the RPC does not answer. */
  chain_head_block: number | null;
  /** `chain_head_block - indexed_block` (at least 0), null when either is unknown. */
  lag_blocks: number | null;
  /** The indexed block's timestamp, unix seconds, null before the first block. */
  indexed_block_timestamp_sec: number | null;
  /** Wall-clock seconds since the indexed block's timestamp (at least 0), null before the first block. */
  indexed_block_age_sec: number | null;
  /** Seconds this process has seen the chain ahead of the current indexed block (0 when caught up). */
  behind_for_sec: number;
  max_lag_blocks: number;
  max_indexed_age_sec: number;
};

/** What one check observed. */
export type IndexerObservation = {
  indexed: IndexedHead | null;
  /** The error when the indexed head could not be read (database down). */
  indexedError?: string;
  chainHead: number | null;
  /** The probe's error when the chain head is unknown. */
  chainError?: string;
  /** Seconds the chain has been seen ahead of `indexed` (see {@link ProgressTracker}). */
  behindForSec: number;
  /**
   * Whether this process has seen the indexer caught up (lag within the bound) at least once;
   * before that it is backfilling and the stall bound is `backfillStallSec`. Default true.
   */
  caughtUpOnce?: boolean;
  /** Wall clock, unix seconds. */
  nowSec: number;
  /**
   * The highest block this process has seen indexed (null: none yet). A missing head after one was
   * seen is not a start-up state: the served index was lost, and only a restart brings it back.
   */
  highestIndexedBefore?: bigint | null;
};

/**
 * Pure decision from one observation.
 * @param o - indexed head, chain head, time behind, clock
 * @param policy - the two bounds
 * @returns the readiness answer
 * @example
 * assessIndexer({ indexed: { blockNumber: 0n, timestampSec: 1_700_000_000n }, chainHead: 24, behindForSec: 0, nowSec: 1_700_000_030 }, { maxLagBlocks: 3, maxIndexedAgeSec: 15 })
 * // { ready: false, status: "degraded", reason: "indexed block 0 is 24 blocks behind the chain head 24 (ready at most 3)", lag_blocks: 24, … }
 */
export function assessIndexer(o: IndexerObservation, policy: ReadinessPolicy): Readiness {
  const indexedBlock = o.indexed ? Number(o.indexed.blockNumber) : null;
  const age = o.indexed ? Math.max(0, o.nowSec - Number(o.indexed.timestampSec)) : null;
  const lag = indexedBlock !== null && o.chainHead !== null ? Math.max(0, o.chainHead - indexedBlock) : null;
  const base = {
    indexed_block: indexedBlock,
    chain_head_block: o.chainHead,
    lag_blocks: lag,
    indexed_block_timestamp_sec: o.indexed ? Number(o.indexed.timestampSec) : null,
    indexed_block_age_sec: age,
    behind_for_sec: Math.max(0, Math.floor(o.behindForSec)),
    max_lag_blocks: policy.maxLagBlocks,
    max_indexed_age_sec: policy.maxIndexedAgeSec,
  };
  const answer = (status: IndexerStatus, reason: string | null): Readiness => ({
    ready: status === "ok",
    status,
    reason,
    ...base,
  });
  if (indexedBlock === null && !o.indexedError && o.highestIndexedBefore != null)
    return answer(
      "stalled",
      `the indexed head is gone (block ${o.highestIndexedBefore} was indexed before): the index this process serves is lost; restart the service`,
    );
  if (indexedBlock === null)
    return answer(
      "degraded",
      o.indexedError
        ? `the indexed head cannot be read: ${o.indexedError}`
        : "the indexer has not recorded a block yet",
    );
  // Stalled: behind the chain (as last seen), and both the block's age and the time seen behind
  // exceed the bound. Checked before the RPC: a stall seen before an outage stays a stall. A
  // first backfill (never caught up in this process) gets the longer bound: one batch may hold
  // the checkpoint for a while, and that is progress, not a stall.
  const stallSec = (o.caughtUpOnce ?? true) ? policy.maxIndexedAgeSec : (policy.backfillStallSec ?? BACKFILL_STALL_SEC);
  if (age !== null && Math.min(age, o.behindForSec) > stallSec) {
    return answer(
      "stalled",
      `no block indexed for ${Math.floor(o.behindForSec)} s while the chain is ahead (indexed block ${indexedBlock}, ${age} s old; bound ${stallSec} s)`,
    );
  }
  if (o.chainHead === null || lag === null)
    return answer("degraded", `the chain head is unknown (RPC: ${o.chainError ?? "no answer"})`);
  if (lag > policy.maxLagBlocks)
    return answer(
      "degraded",
      `indexed block ${indexedBlock} is ${lag} blocks behind the chain head ${o.chainHead} (ready at most ${policy.maxLagBlocks})`,
    );
  return answer("ok", null);
}

/**
 * Remembers, per process, since when the chain has been ahead of the current indexed block.
 * A new indexed block resets it; a caught-up observation (lag 0) clears it; an unknown chain head
 * (RPC down) keeps it as it was.
 */
export class ProgressTracker {
  private block: bigint | null = null;
  private behindSinceMs: number | null = null;
  /** Whether an observation within `maxLagBlocks` was seen (the first backfill is over). */
  caughtUpOnce = false;
  /** The highest indexed block observed (null before the first). */
  highestIndexed: bigint | null = null;

  /** Notes that the indexer was within the ready lag at least once. */
  noteCaughtUp(): void {
    this.caughtUpOnce = true;
  }

  /**
   * Records one observation.
   * @param indexedBlock - the indexed head's number (null before the first)
   * @param lagBlocks - blocks behind, or null when the chain head is unknown
   * @param nowMs - clock, milliseconds
   * @returns seconds the chain has been seen ahead of this block (0 when caught up or new)
   * @example tracker.observe(10n, 2, 5_000) // 0, then tracker.observe(10n, 4, 25_000) // 20
   */
  observe(indexedBlock: bigint | null, lagBlocks: number | null, nowMs: number): number {
    if (indexedBlock !== null && (this.highestIndexed === null || indexedBlock > this.highestIndexed))
      this.highestIndexed = indexedBlock;
    if (indexedBlock !== this.block) {
      this.block = indexedBlock;
      this.behindSinceMs = lagBlocks !== null && lagBlocks > 0 ? nowMs : null;
      return 0;
    }
    if (lagBlocks === 0) this.behindSinceMs = null;
    else if (lagBlocks !== null && this.behindSinceMs === null) this.behindSinceMs = nowMs;
    return this.behindSinceMs === null ? 0 : Math.max(0, nowMs - this.behindSinceMs) / 1000;
  }
}

/** Sources and settings of {@link readinessMonitor}. */
export type ReadinessMonitorOptions = {
  /** The indexed head (Ponder's checkpoint; `indexedHead(db)`), null before the first block. */
  indexedHead: () => Promise<IndexedHead | null>;
  /** The shared chain probe (ops/chainProbe.ts). */
  probe: () => Promise<ChainProbeResult>;
  policy?: ReadinessPolicy;
  /** Clock in milliseconds since the epoch (default `Date.now`; tests inject one). */
  nowMs?: () => number;
};

/**
 * One readiness check per call, with one progress tracker per monitor (build one per process).
 * @returns `check()`, resolving a {@link Readiness}; it never rejects (a failing source is a `degraded` answer)
 * @example
 * const readiness = readinessMonitor({ indexedHead: () => indexedHead(db), probe });
 * await readiness(); // { ready: true, status: "ok", reason: null, indexed_block: 1234, chain_head_block: 1235, lag_blocks: 1, … }
 */
export function readinessMonitor(options: ReadinessMonitorOptions): () => Promise<Readiness> {
  const policy = options.policy ?? DEFAULT_READINESS_POLICY;
  const nowMs = options.nowMs ?? Date.now;
  const tracker = new ProgressTracker();
  return async () => {
    const [indexed, probe] = await Promise.all([
      options.indexedHead().then(
        (head) => ({ head, error: undefined }),
        (err: Error) => ({ head: null, error: err.message }),
      ),
      options.probe(),
    ]);
    const chainHead = "block_number" in probe && probe.ok ? probe.block_number : null;
    const chainError = "error" in probe ? probe.error : chainHead === null ? "wrong chain id" : undefined;
    const now = nowMs();
    const lag = indexed.head && chainHead !== null ? Math.max(0, chainHead - Number(indexed.head.blockNumber)) : null;
    const highestIndexedBefore = tracker.highestIndexed;
    const behindForSec = tracker.observe(indexed.head?.blockNumber ?? null, lag, now);
    if (lag !== null && lag <= policy.maxLagBlocks) tracker.noteCaughtUp();
    return assessIndexer(
      {
        indexed: indexed.head,
        indexedError: indexed.error,
        chainHead,
        chainError,
        behindForSec,
        caughtUpOnce: tracker.caughtUpOnce,
        nowSec: Math.floor(now / 1000),
        highestIndexedBefore,
      },
      policy,
    );
  };
}
