/**
 * One stream kind's state in the stream hub (market/streamHub.ts), a "channel": its confirmed
 * boundary, its unconfirmed window, its connections, and the poll step that moves them forward.
 *
 * Invariants:
 * - Ids are the events feed's ids (`src/domain/events.ts`); a trade's id is its `trade` event's.
 * - `bound`: every id below it is *confirmed* (market/confirmedBound.ts: its block is at least
 *   `EVENTS_CONFIRMATION_BLOCKS` below the indexed head and at or below the indexer's finalized
 *   block): such a row never changes or disappears, not even after a crash recovery.
 *   Only confirmed rows are sent with an SSE `id`, in ascending id order, each once per
 *   connection; so a client's `Last-Event-ID` is always a confirmed position and resuming after
 *   it has no gap and no duplicate, across reconnects, restarts and reorgs.
 * - `pending`: the rows at or above `bound` (the unconfirmed window, at most
 *   {@link PENDING_WINDOW_MAX}). They are previews (`event: pending`, no `id`), pushed as soon as
 *   the indexer writes them. A preview that a later read no longer finds (a reorg dropped or
 *   changed it) is named in an `event: reorg` frame to every connection that was shown it.
 */
import { toJsonText } from "../src/domain/json";
import type { MarketDb } from "./db";
import { confirmedEventBound, type IndexerProgress, indexerProgress } from "./confirmedBound";
import { MAX_ID, STREAM_SOURCES, type StreamRow } from "./streamRows";
import type { StreamKind, StreamRequest } from "./streamSettings";
import type { FrameQueue } from "./streamQueue";
import { NotIndexedYetError } from "./errors";

/** Most unconfirmed rows tracked per stream (≈ 30 blocks of heavy trading); later ones wait. */
const PENDING_WINDOW_MAX = 5_000;

/** One connection of a channel: its queue, what it asked for, the last confirmed id it was sent, the previews it was shown (by key). */
export type Subscriber = { queue: FrameQueue; request: StreamRequest; cursor: bigint; previewed: Set<string> };

/** One stream kind's state (the invariants above). */
export type Channel = {
  kind: StreamKind;
  /** Connections receiving the live fan-out. */
  subs: Set<Subscriber>;
  /** Connections still catching up (they keep the poller running). */
  attaching: number;
  bound: bigint;
  pending: Map<string, StreamRow>;
  /** The indexer progress (`progressKey`) `bound` and `pending` were read at. */
  checkpoint: string | null;
  /** The first read of `bound` and `pending` since the channel was idle. */
  started: Promise<void> | null;
  ready: boolean;
  /** The poll step running now, if any (a catch-up waits for it). */
  ticking: Promise<void> | null;
};

/** Where a channel reads: the indexer's database, the confirmation depth and the page size of a read. */
export type ChannelSource = {
  db: MarketDb;
  /** `EVENTS_CONFIRMATION_BLOCKS`. */
  confirmationBlocks: number;
  /** Most rows per database read. */
  pageRows: number;
  /** Called once per row whose frame was queued to at least one connection (freshness metrics). */
  onEmit?: (stream: StreamKind, frame: "pending" | "confirmed", blockTimestampSec: number) => void;
};

/** A channel before its first connection (nothing read). */
export function newChannel(kind: StreamKind): Channel {
  return {
    kind,
    subs: new Set(),
    attaching: 0,
    bound: 0n,
    pending: new Map(),
    checkpoint: null,
    started: null,
    ready: false,
    ticking: null,
  };
}

/** What a channel compares to see whether the indexer moved: its checkpoint and finalized block. */
export const progressKey = (p: IndexerProgress) => `${p.checkpoint}/${p.finalizedBlock}`;

/** Whether the connection asked for this row's token (or for every token). */
export function wantsRow(sub: Subscriber, row: StreamRow): boolean {
  return !sub.request.token || sub.request.token === row.token;
}

/** Whether any connection holds the channel (live or catching up). */
export function isActive(ch: Channel): boolean {
  return ch.subs.size + ch.attaching > 0;
}

/**
 * Reads the channel's boundary and unconfirmed window once (first connection after idle); a
 * failed read is forgotten, so the next connection tries again.
 * @throws NotIndexedYetError before the indexer's first block
 */
export function ensureStarted(ch: Channel, source: ChannelSource): Promise<void> {
  ch.started ??= (async () => {
    const progress = await indexerProgress(source.db);
    if (progress === null) throw new NotIndexedYetError("the indexer has not processed a block yet");
    const bound = confirmedEventBound(progress, source.confirmationBlocks);
    const window = await STREAM_SOURCES[ch.kind](source.db, bound - 1n, MAX_ID, PENDING_WINDOW_MAX);
    ch.bound = bound;
    ch.pending = new Map(window.map((r) => [r.key, r]));
    ch.checkpoint = progressKey(progress);
    ch.ready = true;
  })().catch((err) => {
    ch.started = null;
    throw err;
  });
  return ch.started;
}

/**
 * One poll of one channel at a new checkpoint: publishes the newly confirmed rows (with their
 * ids), names dropped previews in `reorg` frames, and pushes new previews to the connections
 * that asked for them.
 */
export async function advance(ch: Channel, progress: IndexerProgress, source: ChannelSource): Promise<void> {
  const { db, pageRows } = source;
  let done!: () => void;
  ch.ticking = new Promise((resolve) => (done = resolve));
  try {
    const read = STREAM_SOURCES[ch.kind];
    const oldBound = ch.bound;
    const target = confirmedEventBound(progress, source.confirmationBlocks);
    // Confirmed rows never change, so the boundary only moves up (a reorg rewinds the head, not it).
    const newBound = target > oldBound ? target : oldBound;
    ch.bound = newBound;
    const unseen = new Map(ch.pending);
    for (let after = oldBound - 1n; after < newBound - 1n; ) {
      const rows = await read(db, after, newBound, pageRows);
      for (const row of rows) {
        unseen.delete(row.key);
        let queued = false;
        for (const sub of ch.subs) {
          sub.previewed.delete(row.key);
          if (row.id <= sub.cursor) continue;
          sub.cursor = row.id;
          if (wantsRow(sub, row)) {
            sub.queue.push({ id: String(row.id), data: row.confirmedJson });
            queued = true;
          }
        }
        if (queued) source.onEmit?.(ch.kind, "confirmed", row.timestampSec);
      }
      if (rows.length < pageRows) break;
      after = rows.at(-1)!.id;
    }
    const window = await read(db, newBound - 1n, MAX_ID, PENDING_WINDOW_MAX);
    const next = new Map(window.map((r) => [r.key, r]));
    for (const key of next.keys()) unseen.delete(key);
    const fresh = window.filter((r) => !ch.pending.has(r.key));
    ch.pending = next;
    ch.checkpoint = progressKey(progress);
    const previewed = new Set<StreamRow>();
    for (const sub of ch.subs) {
      const dropped = [...unseen.values()].filter((r) => sub.previewed.delete(r.key));
      if (dropped.length > 0)
        sub.queue.push({ event: "reorg", data: toJsonText({ dropped: dropped.map((r) => r.dropped) }) });
      if (!sub.request.includePending) continue;
      for (const row of fresh) {
        if (row.id <= sub.cursor || !wantsRow(sub, row)) continue;
        sub.previewed.add(row.key);
        sub.queue.push({ event: "pending", data: row.pendingJson });
        previewed.add(row);
      }
    }
    for (const row of previewed) source.onEmit?.(ch.kind, "pending", row.timestampSec);
  } finally {
    ch.ticking = null;
    done();
  }
}

/** Forgets a channel's window once nobody listens (the next connection reads it afresh). */
export function forgetWhenIdle(ch: Channel): void {
  if (isActive(ch)) return;
  ch.started = null;
  ch.ready = false;
  ch.pending = new Map();
}
