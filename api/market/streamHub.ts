/**
 * The process's one source of the Server-Sent Events streams (`/api/public/stream/trades`,
 * `/api/public/stream/events`; docs/public.md "Streams"): a single poller watches the indexer's
 * checkpoint and fans new rows out to every connection. No connection reads the database in a
 * loop; a connection reads it once, to catch up from its `Last-Event-ID`.
 *
 * Invariants (per stream kind, a "channel"):
 * - Ids are the events feed's ids (`src/domain/events.ts`); a trade's id is its `trade` event's.
 * - `bound`: every id below it is *confirmed* (its block is at least `EVENTS_CONFIRMATION_BLOCKS`
 *   below the indexed head, Ponder's finality depth): such a row never changes or disappears.
 *   Only confirmed rows are sent with an SSE `id`, in ascending id order, each once per
 *   connection; so a client's `Last-Event-ID` is always a confirmed position and resuming after
 *   it has no gap and no duplicate, across reconnects, restarts and reorgs.
 * - `pending`: the rows at or above `bound` (the unconfirmed window, at most
 *   {@link PENDING_WINDOW_MAX}). They are previews (`event: pending`, no `id`), pushed as soon as
 *   the indexer writes them. A preview that a later read no longer finds (a reorg dropped or
 *   changed it) is named in an `event: reorg` frame to every connection that was shown it.
 * - A connection registers only between two polls (never while one runs) and only once its
 *   catch-up has reached `bound`, so no row falls between the catch-up and the live fan-out.
 * - The poller runs only while a connection exists; it reads the checkpoint every
 *   `pollIntervalMs`, and the window again when the checkpoint moves (or every
 *   {@link WINDOW_REREAD_MS}, for a reorg that leaves the checkpoint unchanged).
 */
import { ApiError } from "../errors";
import { toJsonText } from "../json";
import { decodeCheckpointBlock, logEvent } from "../../ops/ponderInternals";
import { firstEventIdAfterBlock } from "../../src/domain/events";
import type { MarketDb } from "./db";
import { indexedCheckpoint } from "./indexedHead";
import { streamAdmission } from "./streamAdmission";
import { MAX_ID, STREAM_SOURCES, type StreamRow } from "./streamRows";
import { STREAM_DEFAULTS, type StreamKind, type StreamRequest, type StreamSettings } from "./streamSettings";
import type { FrameQueue } from "./streamQueue";

/** Most unconfirmed rows tracked per stream (≈ 30 blocks of heavy trading); later ones wait. */
const PENDING_WINDOW_MAX = 5_000;
/** The unconfirmed window is re-read at least this often even when the checkpoint stands still. */
const WINDOW_REREAD_MS = 1_000;

type Subscriber = { queue: FrameQueue; request: StreamRequest; cursor: bigint; previewed: Set<string> };

type Channel = {
  kind: StreamKind;
  subs: Set<Subscriber>;
  attaching: number;
  bound: bigint;
  pending: Map<string, StreamRow>;
  checkpoint: string | null;
  started: Promise<void> | null;
  ready: boolean;
  ticking: Promise<void> | null;
};

/** The hub's interface to the routes. */
export type StreamHub = ReturnType<typeof streamHub>;

/**
 * Creates the hub (one per process; `api/index.ts` closes it on shutdown).
 * @param options.db - Ponder's read-only database
 * @param options.confirmationBlocks - `EVENTS_CONFIRMATION_BLOCKS`
 * @param options.settings - overrides of {@link STREAM_DEFAULTS}
 */
export function streamHub(options: { db: MarketDb; confirmationBlocks: number; settings?: Partial<StreamSettings> }) {
  const settings = { ...STREAM_DEFAULTS, ...options.settings };
  const { db } = options;
  const page = Math.max(1, Math.min(500, Math.floor(settings.maxQueuedFrames / 2)));
  const channels: Record<StreamKind, Channel> = { trades: newChannel("trades"), events: newChannel("events") };
  const queues = new Set<FrameQueue>();
  const admission = streamAdmission(settings);
  let closed = false;
  let polling = false;
  let lastWindowReadMs = 0;
  let lastKeepAliveMs = performance.now();

  function newChannel(kind: StreamKind): Channel {
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

  const confirmedBound = (checkpoint: string) =>
    firstEventIdAfterBlock(decodeCheckpointBlock(checkpoint).blockNumber - BigInt(options.confirmationBlocks));
  const matches = (sub: Subscriber, row: StreamRow) => !sub.request.token || sub.request.token === row.token;
  const active = (ch: Channel) => ch.subs.size + ch.attaching > 0;

  /** Reads the channel's boundary and unconfirmed window once (first connection after idle). */
  function ensureStarted(ch: Channel): Promise<void> {
    ch.started ??= (async () => {
      const checkpoint = await indexedCheckpoint(db);
      if (checkpoint === null) throw new ApiError("not_indexed_yet", "the indexer has not processed a block yet");
      const bound = confirmedBound(checkpoint);
      const window = await STREAM_SOURCES[ch.kind](db, bound - 1n, MAX_ID, PENDING_WINDOW_MAX);
      ch.bound = bound;
      ch.pending = new Map(window.map((r) => [r.key, r]));
      ch.checkpoint = checkpoint;
      ch.ready = true;
    })().catch((err) => {
      ch.started = null;
      throw err;
    });
    return ch.started;
  }

  /** One poll of one channel: publish newly confirmed rows, dropped previews, new previews. */
  async function advance(ch: Channel, checkpoint: string): Promise<void> {
    let done!: () => void;
    ch.ticking = new Promise((resolve) => (done = resolve));
    try {
      const source = STREAM_SOURCES[ch.kind];
      const oldBound = ch.bound;
      const target = confirmedBound(checkpoint);
      // Confirmed rows never change, so the boundary only moves up (a reorg rewinds the head, not it).
      const newBound = target > oldBound ? target : oldBound;
      ch.bound = newBound;
      const unseen = new Map(ch.pending);
      for (let after = oldBound - 1n; after < newBound - 1n; ) {
        const rows = await source(db, after, newBound, page);
        for (const row of rows) {
          unseen.delete(row.key);
          for (const sub of ch.subs) {
            sub.previewed.delete(row.key);
            if (row.id <= sub.cursor) continue;
            sub.cursor = row.id;
            if (matches(sub, row)) sub.queue.push({ id: String(row.id), data: row.confirmedJson });
          }
        }
        if (rows.length < page) break;
        after = rows.at(-1)!.id;
      }
      const window = await source(db, newBound - 1n, MAX_ID, PENDING_WINDOW_MAX);
      const next = new Map(window.map((r) => [r.key, r]));
      for (const key of next.keys()) unseen.delete(key);
      const fresh = window.filter((r) => !ch.pending.has(r.key));
      ch.pending = next;
      ch.checkpoint = checkpoint;
      for (const sub of ch.subs) {
        const dropped = [...unseen.values()].filter((r) => sub.previewed.delete(r.key));
        if (dropped.length > 0)
          sub.queue.push({ event: "reorg", data: toJsonText({ dropped: dropped.map((r) => r.dropped) }) });
        if (!sub.request.includePending) continue;
        for (const row of fresh) {
          if (row.id <= sub.cursor || !matches(sub, row)) continue;
          sub.previewed.add(row.key);
          sub.queue.push({ event: "pending", data: row.pendingJson });
        }
      }
    } finally {
      ch.ticking = null;
      done();
    }
  }

  async function tick(): Promise<void> {
    const nowMs = performance.now();
    if (nowMs - lastKeepAliveMs >= settings.keepAliveMs) {
      lastKeepAliveMs = nowMs;
      for (const queue of queues) if (queue.size === 0) queue.push({ comment: "keep-alive" });
    }
    const checkpoint = await indexedCheckpoint(db);
    if (checkpoint === null) return;
    const reread = nowMs - lastWindowReadMs >= WINDOW_REREAD_MS;
    for (const ch of Object.values(channels)) {
      if (!ch.ready || ch.subs.size === 0 || (ch.checkpoint === checkpoint && !reread)) continue;
      try {
        await advance(ch, checkpoint);
      } catch (err) {
        // The boundary may have moved past rows not yet sent: end these streams rather than leave
        // a gap; their clients reconnect and catch up from their Last-Event-ID.
        for (const sub of ch.subs) sub.queue.close("error");
        ch.subs.clear();
        maybeStop(ch);
        throw err;
      }
    }
    if (reread) lastWindowReadMs = nowMs;
  }

  function startPolling(): void {
    if (polling) return;
    polling = true;
    void (async () => {
      while (!closed && Object.values(channels).some(active)) {
        await new Promise((resolve) => setTimeout(resolve, settings.pollIntervalMs));
        try {
          await tick();
        } catch (err) {
          logEvent("error", { msg: "Stream poll failed", error: (err as Error).message });
        }
      }
      polling = false;
    })();
  }

  /** Forgets a channel's window once nobody listens (the next connection reads it afresh). */
  function maybeStop(ch: Channel): void {
    if (active(ch)) return;
    ch.started = null;
    ch.ready = false;
    ch.pending = new Map();
  }

  return {
    settings,
    /**
     * Counts a new connection against the caps.
     * @returns `release`, to call once when the connection ends
     * @throws ApiError 429 `too_many_streams` over the per-IP or per-process cap; 503
     *   `service_unavailable` while shutting down
     */
    admit(ip: string): { release: () => void } {
      if (closed) throw new ApiError("service_unavailable", "the service is shutting down; reconnect shortly");
      return admission.admit(ip);
    },
    /**
     * Reads the stream's boundary and window if nobody listens yet (call before the response
     * starts, so its failures are ordinary error answers).
     * @throws ApiError 503 `not_indexed_yet` before the indexer's first block
     */
    prepare(kind: StreamKind): Promise<void> {
      return ensureStarted(channels[kind]);
    },
    /**
     * Feeds `queue` with the stream: the confirmed rows after `request.sinceId` from the
     * database (paced by the queue), then the live fan-out, previews included on request.
     * @returns `detach`, to call once when the connection ends
     */
    attach(kind: StreamKind, request: StreamRequest, queue: FrameQueue): () => void {
      const ch = channels[kind];
      const sub: Subscriber = { queue, request, cursor: -1n, previewed: new Set() };
      queues.add(queue);
      ch.attaching++;
      let attaching = true;
      const finishAttach = () => {
        if (!attaching) return;
        attaching = false;
        ch.attaching--;
      };
      startPolling();
      void (async () => {
        await ensureStarted(ch);
        let cursor = request.sinceId ?? ch.bound - 1n;
        for (;;) {
          if (queue.closedBy) return;
          if (ch.ticking) {
            await ch.ticking;
            continue;
          }
          const target = ch.bound;
          if (cursor >= target - 1n) break;
          const rows = await STREAM_SOURCES[kind](db, cursor, target, page, request.token);
          for (const row of rows) queue.push({ id: String(row.id), data: row.confirmedJson });
          cursor = rows.length < page ? target - 1n : rows.at(-1)!.id;
          await queue.room();
        }
        // From the check above to here nothing awaits: no poll publishes in between.
        sub.cursor = cursor;
        ch.subs.add(sub);
        finishAttach();
        if (!request.includePending) return;
        const window = [...ch.pending.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        for (const row of window) {
          if (row.id <= cursor || !matches(sub, row)) continue;
          sub.previewed.add(row.key);
          queue.push({ event: "pending", data: row.pendingJson });
        }
      })()
        .catch((err) => {
          logEvent("error", { msg: "Stream catch-up failed", stream: kind, error: (err as Error).message });
          queue.close("error");
        })
        .finally(finishAttach);
      return () => {
        finishAttach();
        ch.subs.delete(sub);
        queues.delete(queue);
        maybeStop(ch);
      };
    },
    /** Open connections now (all, and per stream). */
    stats() {
      return {
        connections: admission.connections,
        trades: channels.trades.subs.size,
        events: channels.events.subs.size,
      };
    },
    /** Ends every stream (a last `: shutdown` comment) and refuses new ones; for the shutdown sequence. */
    close(): void {
      closed = true;
      for (const queue of queues) {
        queue.push({ comment: "shutdown" });
        queue.close("shutdown");
      }
    },
  };
}
