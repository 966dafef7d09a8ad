/**
 * Gauges computed when Prometheus scrapes: the indexed head (block and timestamp), the chain head
 * seen through the API's RPC, the indexing lag in blocks, and the events feed's newest ids.
 *
 * One snapshot is taken per scrape (shared by the gauges, cached {@link SNAPSHOT_TTL_MS}); a
 * source that fails (database or RPC) leaves its gauges empty for that scrape instead of failing
 * the scrape, and counts `launchpad_metrics_collect_errors_total{source}`.
 */
import client from "prom-client";
import type { Readiness } from "../readiness";
import { metrics } from "./registry";
import { SOURCE_TIMEOUT_MS, withTimeout } from "../../market/timeout";

export { SOURCE_TIMEOUT_MS, withTimeout };

/** Where the scrape-time values come from (wired in `http/index.ts`). */
export type GaugeSources = {
  /** Newest fully indexed block and its timestamp (unix seconds), null before the first. */
  indexedHead: () => Promise<{ blockNumber: bigint; timestampSec: bigint } | null>;
  /** The chain's newest block number (RPC `eth_blockNumber`). */
  chainHead: () => Promise<bigint>;
  /** Newest event id (any) and newest confirmed event id, null when there is none. */
  eventsHead: (indexedHeadBlock: bigint) => Promise<{ newestId: bigint | null; confirmedId: bigint | null }>;
  /** The service's readiness check (ops/readiness.ts; absent: the readiness gauges have no sample). */
  readiness?: () => Promise<Readiness>;
};

/** How long one snapshot serves concurrent collectors, milliseconds. */
const SNAPSHOT_TTL_MS = 500;

type Snapshot = {
  indexed?: { blockNumber: bigint; timestampSec: bigint } | null;
  chain?: bigint;
  events?: { newestId: bigint | null; confirmedId: bigint | null };
  readiness?: Readiness;
};

type GaugeState = { sources?: GaugeSources; cached?: { at: number; value: Promise<Snapshot> } };
const shared = globalThis as { __launchServiceGauges?: GaugeState };
const state: GaugeState = (shared.__launchServiceGauges ??= {});

async function takeSnapshot(sources: GaugeSources): Promise<Snapshot> {
  const snap: Snapshot = {};
  const [indexed, chain, readiness] = await Promise.allSettled([
    withTimeout(sources.indexedHead(), SOURCE_TIMEOUT_MS),
    withTimeout(sources.chainHead(), SOURCE_TIMEOUT_MS),
    sources.readiness ? withTimeout(sources.readiness(), SOURCE_TIMEOUT_MS) : Promise.resolve(undefined),
  ]);
  // The readiness check never rejects (a failing source is a "degraded" answer); a timeout is a
  // database that does not answer.
  if (readiness.status === "fulfilled") snap.readiness = readiness.value;
  else collectErrors().inc({ source: "database" });
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
  if (!state.cached || now - state.cached.at > SNAPSHOT_TTL_MS)
    state.cached = { at: now, value: takeSnapshot(state.sources) };
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
      name: "launchpad_metrics_collect_errors_total",
      help: "Scrape-time gauge sources that failed or timed out (their gauges are absent from that scrape), by source.",
      labelNames: ["source"] as const,
      registers,
    }),
    indexedBlock: gauge(
      "launchpad_indexer_head_block",
      "Newest block the indexer has fully processed (block number).",
      (s, g) => {
        if (s.indexed) g.set(Number(s.indexed.blockNumber));
      },
    ),
    indexedTimestamp: gauge(
      "launchpad_indexer_head_timestamp_seconds",
      "Timestamp of the newest indexed block, unix seconds (lag in seconds: time() - this).",
      (s, g) => {
        if (s.indexed) g.set(Number(s.indexed.timestampSec));
      },
    ),
    chainBlock: gauge(
      "launchpad_chain_head_block",
      "Newest block of the chain as the API's RPC reports it (block number).",
      (s, g) => {
        if (s.chain !== undefined) g.set(Number(s.chain));
      },
    ),
    lagBlocks: gauge(
      "launchpad_indexer_lag_blocks",
      "Blocks the indexer is behind the RPC's head (launchpad_chain_head_block - launchpad_indexer_head_block, at least 0).",
      (s, g) => {
        if (s.chain !== undefined && s.indexed) g.set(Math.max(0, Number(s.chain - s.indexed.blockNumber)));
      },
    ),
    ready: gauge(
      "launchpad_indexer_ready",
      "1 while GET /api/v1/ready answers 200 (indexed head within READY_MAX_LAG_BLOCKS of the chain head and progressing), else 0.",
      (s, g) => {
        if (s.readiness) g.set(s.readiness.ready ? 1 : 0);
      },
    ),
    status: gauge(
      "launchpad_indexer_status",
      "The indexer's health status as /api/v1/health reports it: 1 for the current status (ok, degraded or stalled), 0 for the others.",
      (s, g) => {
        if (s.readiness)
          for (const status of ["ok", "degraded", "stalled"] as const)
            g.set({ status }, s.readiness.status === status ? 1 : 0);
      },
      ["status"],
    ),
    behindFor: gauge(
      "launchpad_indexer_behind_seconds",
      "Seconds this process has seen the chain ahead of the same indexed block (0 when caught up or progressing); stalled beyond READY_MAX_INDEXED_AGE_SEC.",
      (s, g) => {
        if (s.readiness) g.set(s.readiness.behind_for_sec);
      },
    ),
    eventsHead: gauge(
      "launchpad_events_feed_head_id",
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
