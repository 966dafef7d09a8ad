/**
 * Where a live trade's latency goes (bench/live.ts `--stages`): the indexer's own debug log
 * (Ponder's JSON lines at `PONDER_LOG_LEVEL=debug`) gives, per block number, when Ponder first
 * received it as a new head, when it had fetched the block's logs, and when it had indexed and
 * committed it. With the benchmark's own times (block mined, trade pushed over SSE), each trade's
 * latency splits into four stages that add up to its whole:
 * - `poll`: block mined -> Ponder received it as the new head (its polling interval + one RPC call);
 * - `fetch`: received -> block data fetched (eth_getLogs, receipts);
 * - `index`: fetched -> indexed and committed (queueing behind earlier blocks, our handlers, the commit);
 * - `push`: committed -> received by the SSE client (the stream hub's checkpoint poll, its read, the wire).
 * Every finality-depth blocks Ponder also finalizes (moves the finalized blocks into its sync store
 * and prunes its reorg tables); each trade records whether it waited across one.
 * All times are epoch milliseconds (the benchmark converts `performance.now()` with
 * `performance.timeOrigin`; Ponder's log `time` is `Date.now()`).
 */
import { percentile } from "./stats";

/** Epoch-ms times of one block's steps, as Ponder logged them. */
export type BlockTimes = {
  receivedMs?: number;
  fetchedMs?: number;
  indexedMs?: number;
  /** Ponder's own duration of the block's indexing transaction ("Indexed block" `duration`), ms. */
  indexDurationMs?: number;
};

/** One "Finalized block" step of Ponder's indexing (every finality-depth blocks), epoch ms. */
export type FinalizeTimes = { startMs: number; endMs: number };

/** The Ponder log messages each step is read from (ponder 0.17 sync-realtime and runtime). */
const STEP_BY_MESSAGE: Record<string, keyof BlockTimes> = {
  "Received new head block": "receivedMs",
  "Fetched block data": "fetchedMs",
  "Indexed block": "indexedMs",
};

/** Ponder's debug log read once: per-block step times and the finalize steps. */
export type PonderLogSteps = {
  /** Step times per block number, epoch ms. */
  blocks: Map<number, BlockTimes>;
  /** The "Finalized block" steps, in log order, epoch ms. */
  finalizes: FinalizeTimes[];
};

/**
 * Reads Ponder's JSON log lines (one string, newline-separated) once into per-block step times and
 * the finalize steps ("Finalized block", logged at its end with its `duration`). The first line of
 * each block step wins (a block seen twice, e.g. as a duplicate head, keeps its first time). Lines
 * that are not JSON or carry no block number are skipped.
 */
export function readPonderLog(log: string): PonderLogSteps {
  const blocks = new Map<number, BlockTimes>();
  const finalizes: FinalizeTimes[] = [];
  for (const line of log.split("\n")) {
    if (!line.startsWith("{")) continue;
    let entry: { msg?: unknown; number?: unknown; time?: unknown; duration?: unknown };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.msg === "Finalized block" && typeof entry.time === "number") {
      const durationMs = typeof entry.duration === "number" ? entry.duration : 0;
      finalizes.push({ startMs: entry.time - durationMs, endMs: entry.time });
      continue;
    }
    const step = typeof entry.msg === "string" ? STEP_BY_MESSAGE[entry.msg] : undefined;
    if (!step || typeof entry.number !== "number" || typeof entry.time !== "number") continue;
    const times = blocks.get(entry.number) ?? {};
    times[step] ??= entry.time;
    if (step === "indexedMs" && typeof entry.duration === "number") times.indexDurationMs ??= entry.duration;
    blocks.set(entry.number, times);
  }
  return { blocks, finalizes };
}

/** One trade as the benchmark saw it, epoch milliseconds. */
export type TradeTimes = { blockNumber: number; minedMs: number; pushedMs: number };

type Stage = "poll" | "fetch" | "index" | "push";

/** Per-stage p50/p99 (ms) over the trades whose block has all three steps logged. */
export type StageSummary = {
  trades: number;
  stagesMs: Record<Stage, { p50: number | null; p99: number | null }>;
  /** For the slowest 1 % of trades (by whole latency), the mean share of each stage. */
  slowestShare: Record<Stage, number | null>;
  /** Ponder's own indexing time per block (its transaction, without queueing), ms. */
  blockIndexDurationMs: { p50: number | null; p99: number | null; max: number | null; blocks: number };
  /**
   * The ten slowest trades: seconds since the first trade, whole latency, each stage, and the
   * indexing time of their block; clustered times point at a stall, spread ones at a steady cost.
   */
  slowest: {
    atSec: number;
    wholeMs: number;
    stagesMs: Record<Stage, number>;
    blockIndexDurationMs: number | null;
    /** A finalize step ran while this trade waited (between mined and pushed). */
    duringFinalize: boolean;
  }[];
  /** Ponder's finalize steps: how many, and their duration, ms. */
  finalizeDurationMs: { p50: number | null; max: number | null; count: number };
  /** Share of all trades that waited across a finalize step, and of the slowest 1 %. */
  waitedAcrossFinalize: { all: number | null; slowest: number | null };
};

/**
 * Splits each trade's latency (mined -> pushed) into the four stages and summarises them.
 * Negative gaps (a clock read racing a log line by a millisecond) count as 0.
 * @param trades each trade's block, mined and pushed times (epoch ms)
 * @param steps the indexer's log as {@link readPonderLog} read it
 */
export function summariseStages(trades: readonly TradeTimes[], { blocks, finalizes }: PonderLogSteps): StageSummary {
  const rows: (Record<Stage, number> & {
    whole: number;
    minedMs: number;
    blockIndexMs: number | null;
    duringFinalize: boolean;
  })[] = [];
  for (const trade of trades) {
    const block = blocks.get(trade.blockNumber);
    if (block?.receivedMs === undefined || block.fetchedMs === undefined || block.indexedMs === undefined) continue;
    rows.push({
      poll: Math.max(0, block.receivedMs - trade.minedMs),
      fetch: Math.max(0, block.fetchedMs - block.receivedMs),
      index: Math.max(0, block.indexedMs - block.fetchedMs),
      push: Math.max(0, trade.pushedMs - block.indexedMs),
      whole: trade.pushedMs - trade.minedMs,
      minedMs: trade.minedMs,
      blockIndexMs: block.indexDurationMs ?? null,
      duringFinalize: finalizes.some((f) => f.startMs < trade.pushedMs && f.endMs > trade.minedMs),
    });
  }
  const stages = ["poll", "fetch", "index", "push"] as const;
  const slowest = [...rows].sort((a, b) => b.whole - a.whole).slice(0, Math.max(1, Math.ceil(rows.length / 100)));
  const stagesMs = {} as StageSummary["stagesMs"];
  const slowestShare = {} as StageSummary["slowestShare"];
  for (const stage of stages) {
    const values = rows.map((r) => r[stage]);
    stagesMs[stage] = { p50: percentile(values, 0.5), p99: percentile(values, 0.99) };
    const shares = slowest.filter((r) => r.whole > 0).map((r) => r[stage] / r.whole);
    slowestShare[stage] = shares.length ? shares.reduce((s, v) => s + v, 0) / shares.length : null;
  }
  const firstMinedMs = Math.min(...trades.map((t) => t.minedMs));
  const durations = [...blocks.values()].flatMap((b) => (b.indexDurationMs === undefined ? [] : [b.indexDurationMs]));
  const round = (ms: number) => Math.round(ms);
  const shareAcross = (list: typeof rows) =>
    list.length ? list.filter((r) => r.duringFinalize).length / list.length : null;
  const finalizeMs = finalizes.map((f) => f.endMs - f.startMs);
  return {
    trades: rows.length,
    stagesMs,
    slowestShare,
    blockIndexDurationMs: {
      p50: percentile(durations, 0.5),
      p99: percentile(durations, 0.99),
      max: durations.length ? Math.max(...durations) : null,
      blocks: durations.length,
    },
    slowest: [...rows]
      .sort((a, b) => b.whole - a.whole)
      .slice(0, 10)
      .map((r) => ({
        atSec: Math.round((r.minedMs - firstMinedMs) / 100) / 10,
        wholeMs: round(r.whole),
        stagesMs: { poll: round(r.poll), fetch: round(r.fetch), index: round(r.index), push: round(r.push) },
        blockIndexDurationMs: r.blockIndexMs,
        duringFinalize: r.duringFinalize,
      })),
    finalizeDurationMs: {
      p50: percentile(finalizeMs, 0.5),
      max: finalizeMs.length ? Math.max(...finalizeMs) : null,
      count: finalizeMs.length,
    },
    waitedAcrossFinalize: { all: shareAcross(rows), slowest: shareAcross(slowest) },
  };
}
