/**
 * The process's one source of the Server-Sent Events streams (`/api/public/stream/trades`,
 * `/api/public/stream/events`; docs/public.md "Streams"): a single poller watches the indexer's
 * checkpoint and fans new rows out to every connection. No connection reads the database in a
 * loop; a connection reads it once, to catch up from its `Last-Event-ID`.
 *
 * Per stream kind the hub keeps one channel (market/streamChannel.ts: the confirmed boundary,
 * the unconfirmed window, and the invariants that make `Last-Event-ID` resumption exact). Here:
 * - A connection registers only between two polls (never while one runs) and only once its
 *   catch-up has reached `bound`, so no row falls between the catch-up and the live fan-out.
 * - The poller runs only while a connection exists; it reads the checkpoint every
 *   `pollIntervalMs`, and the window again when the checkpoint moves (or every
 *   {@link WINDOW_REREAD_MS}, for a reorg that leaves the checkpoint unchanged).
 */
import { logEvent } from "../ops/ponderInternals";
import type { MarketDb } from "./db";
import { indexerProgress } from "./confirmedBound";
import { streamAdmission } from "./streamAdmission";
import {
  advance,
  type Channel,
  type ChannelSource,
  ensureStarted,
  forgetWhenIdle,
  isActive,
  newChannel,
  progressKey,
  type Subscriber,
  wantsRow,
} from "./streamChannel";
import { STREAM_SOURCES } from "./streamRows";
import { STREAM_DEFAULTS, type StreamKind, type StreamRequest, type StreamSettings } from "./streamSettings";
import type { FrameQueue } from "./streamQueue";
import { ShuttingDownError } from "./errors";

/** The unconfirmed window is re-read at least this often even when the checkpoint stands still. */
const WINDOW_REREAD_MS = 1_000;

/** The hub's interface to the routes. */
export type StreamHub = ReturnType<typeof streamHub>;

/**
 * Creates the hub (one per process; `http/index.ts` closes it on shutdown).
 * @param options.db - Ponder's read-only database
 * @param options.confirmationBlocks - `EVENTS_CONFIRMATION_BLOCKS`
 * @param options.settings - overrides of {@link STREAM_DEFAULTS}
 * @param options.onEmit - called once per row whose frame was queued (freshness metrics)
 * @param options.onHead - called with every checkpoint the poller reads (freshness metrics)
 */
export function streamHub(options: {
  db: MarketDb;
  confirmationBlocks: number;
  settings?: Partial<StreamSettings>;
  onEmit?: ChannelSource["onEmit"];
  onHead?: (checkpoint: string | null) => void;
}) {
  const settings = { ...STREAM_DEFAULTS, ...options.settings };
  const { db } = options;
  const page = Math.max(1, Math.min(500, Math.floor(settings.maxQueuedFrames / 2)));
  const source: ChannelSource = {
    db,
    confirmationBlocks: options.confirmationBlocks,
    pageRows: page,
    onEmit: options.onEmit,
  };
  const channels: Record<StreamKind, Channel> = { trades: newChannel("trades"), events: newChannel("events") };
  const queues = new Set<FrameQueue>();
  const admission = streamAdmission(settings);
  let closed = false;
  let polling = false;
  let lastWindowReadMs = 0;
  let lastKeepAliveMs = performance.now();

  async function tick(): Promise<void> {
    const nowMs = performance.now();
    if (nowMs - lastKeepAliveMs >= settings.keepAliveMs) {
      lastKeepAliveMs = nowMs;
      for (const queue of queues) if (queue.size === 0) queue.push({ comment: "keep-alive" });
    }
    const progress = await indexerProgress(db);
    options.onHead?.(progress?.checkpoint ?? null);
    if (progress === null) return;
    const key = progressKey(progress);
    const reread = nowMs - lastWindowReadMs >= WINDOW_REREAD_MS;
    for (const ch of Object.values(channels)) {
      if (!ch.ready || ch.subs.size === 0 || (ch.checkpoint === key && !reread)) continue;
      try {
        await advance(ch, progress, source);
      } catch (err) {
        // The boundary may have moved past rows not yet sent: end these streams rather than leave
        // a gap; their clients reconnect and catch up from their Last-Event-ID.
        for (const sub of ch.subs) sub.queue.close("error");
        ch.subs.clear();
        forgetWhenIdle(ch);
        throw err;
      }
    }
    if (reread) lastWindowReadMs = nowMs;
  }

  function startPolling(): void {
    if (polling) return;
    polling = true;
    void (async () => {
      while (!closed && Object.values(channels).some(isActive)) {
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

  return {
    settings,
    /**
     * Counts a new connection against the caps.
     * @returns `release`, to call once when the connection ends
     * @throws TooManyStreamsError over the per-IP or per-process cap; ShuttingDownError while
     *   shutting down
     */
    admit(ip: string): { release: () => void } {
      if (closed) throw new ShuttingDownError("the service is shutting down; reconnect shortly");
      return admission.admit(ip);
    },
    /**
     * Reads the stream's boundary and window if nobody listens yet (call before the response
     * starts, so its failures are ordinary error answers).
     * @throws NotIndexedYetError before the indexer's first block
     */
    prepare(kind: StreamKind): Promise<void> {
      return ensureStarted(channels[kind], source);
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
        await ensureStarted(ch, source);
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
          if (row.id <= cursor || !wantsRow(sub, row)) continue;
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
        forgetWhenIdle(ch);
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
