/**
 * Gauges computed when Prometheus scrapes: the indexed head (block and timestamp), the chain head
 * seen through the API's RPC, the indexing lag in blocks, and the events feed's newest ids.
 *
 * One snapshot is taken per scrape (shared by the gauges, cached {@link SNAPSHOT_TTL_MS}); a
 * source that fails (database or RPC) leaves its gauges empty for that scrape instead of failing
 * the scrape, and counts `metrics_collect_errors_total{source}`.
 */
import client from "prom-client";
import { metrics } from "./registry";

/** Where the scrape-time values come from (wired in `api/index.ts`). */
export type GaugeSources = {
  /** Newest fully indexed block and its timestamp (unix seconds), null before the first. */
  indexedHead: () => Promise<{ blockNumber: bigint; timestampSec: bigint } | null>;
  /** The chain's newest block number (RPC `eth_blockNumber`). */
  chainHead: () => Promise<bigint>;
  /** Newest event id (any) and newest confirmed event id, null when there is none. */
  eventsHead: (indexedHeadBlock: bigint) => Promise<{ newestId: bigint | null; confirmedId: bigint | null }>;
};

/** How long one snapshot serves concurrent collectors, milliseconds. */
export const SNAPSHOT_TTL_MS = 500;
/** Upper bound of one source's answer during a scrape, milliseconds. */
export const SOURCE_TIMEOUT_MS = 2_000;

type Snapshot = {
  indexed?: { blockNumber: bigint; timestampSec: bigint } | null;
  chain?: bigint;
  events?: { newestId: bigint | null; confirmedId: bigint | null };
};

/**
 * Rejects with "timed out after {ms} ms" unless `promise` settles first (the work itself goes on).
 * Used wherever an answer must come within a bound even when a dependency hangs.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}

type GaugeState = { sources?: GaugeSources; cached?: { at: number; value: Promise<Snapshot> } };
const shared = globalThis as { __launchServiceGauges?: GaugeState };
const state: GaugeState = (shared.__launchServiceGauges ??= {});

async function takeSnapshot(sources: GaugeSources): Promise<Snapshot> {
  const snap: Snapshot = {};
  const [indexed, chain] = await Promise.allSettled([
    withTimeout(sources.indexedHead(), SOURCE_TIMEOUT_MS),
    withTimeout(sources.chainHead(), SOURCE_TIMEOUT_MS),
  ]);
  if (indexed.status === "fulfilled") snap.indexed = indexed.value;
  else collectErrors().inc({ source: "database" });
  if (chain.status === "fulfilled") snap.chain = chain.value;
  else collectErrors().inc({ source: "rpc" });
  if (snap.indexed) {
    try {
      snap.events = await withTimeout(sources.eventsHead(snap.indexed.blockNumber), SOURCE_TIMEOUT_MS);
    } catch {
      collectErrors().inc({ source: "database" });
    }
  }
  return snap;
}

function snapshot(): Promise<Snapshot> | undefined {
  if (!state.sources) return undefined;
  const now = Date.now();
  if (!state.cached || now - state.cached.at > SNAPSHOT_TTL_MS) state.cached = { at: now, value: takeSnapshot(state.sources) };
  return state.cached.value;
}

type GaugeSet = ReturnType<typeof createGauges>;
const gaugeHolder = globalThis as { __launchServiceGaugeSet?: GaugeSet };

function createGauges() {
  const registers = [metrics.registry];
  const gauge = (name: string, help: string, read: (s: Snapshot, g: client.Gauge) => void, labelNames: string[] = []) =>
    new client.Gauge({
      name,
      help,
      labelNames,
      registers,
      async collect() {
        this.reset();
        const snap = await snapshot();
        if (snap) read(snap, this);
      },
    });
  return {
    collectErrors: new client.Counter({
      name: "metrics_collect_errors_total",
      help: "Scrape-time gauge sources that failed or timed out (their gauges are absent from that scrape), by source.",
      labelNames: ["source"] as const,
      registers,
    }),
    indexedBlock: gauge("indexer_head_block", "Newest block the indexer has fully processed (block number).", (s, g) => {
      if (s.indexed) g.set(Number(s.indexed.blockNumber));
    }),
    indexedTimestamp: gauge("indexer_head_timestamp_seconds", "Timestamp of the newest indexed block, unix seconds (lag in seconds: time() - this).", (s, g) => {
      if (s.indexed) g.set(Number(s.indexed.timestampSec));
    }),
    chainBlock: gauge("chain_head_block", "Newest block of the chain as the API's RPC reports it (block number).", (s, g) => {
      if (s.chain !== undefined) g.set(Number(s.chain));
    }),
    lagBlocks: gauge("indexer_lag_blocks", "Blocks the indexer is behind the RPC's head (chain_head_block - indexer_head_block, at least 0).", (s, g) => {
      if (s.chain !== undefined && s.indexed) g.set(Math.max(0, Number(s.chain - s.indexed.blockNumber)));
    }),
    eventsHead: gauge(
      "events_feed_head_id",
      "Newest id of GET /api/public/events: state=indexed (any event) or state=confirmed (what the feed serves without include_pending).",
      (s, g) => {
        if (s.events?.newestId != null) g.set({ state: "indexed" }, Number(s.events.newestId));
        if (s.events?.confirmedId != null) g.set({ state: "confirmed" }, Number(s.events.confirmedId));
      },
      ["state"],
    ),
  };
}

function collectErrors() {
  return gauges().collectErrors;
}

function gauges(): GaugeSet {
  return (gaugeHolder.__launchServiceGaugeSet ??= createGauges());
}

/**
 * Installs the scrape-time gauges (once per process) and points them at `sources` (the newest
 * call wins, so a reloaded API module rewires them).
 * @param sources - database and RPC readers
 */
export function registerServiceGauges(sources: GaugeSources): void {
  gauges();
  state.sources = sources;
  state.cached = undefined;
}
