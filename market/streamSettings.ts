/**
 * What the Server-Sent Events streams offer and how they are bounded: the two stream kinds, a
 * connection's request, and the `STREAM_*` settings with their documented defaults.
 */

/** The two streams. */
export type StreamKind = "trades" | "events";

/** Limits and timings of the streams (`STREAM_*` settings, config/env.ts). */
export type StreamSettings = {
  /** How often the poller reads the indexer's checkpoint, milliseconds (`STREAM_POLL_INTERVAL_MS`). */
  pollIntervalMs: number;
  /** Interval of the `: keep-alive` comment, milliseconds (`STREAM_KEEPALIVE_SEC` × 1000). */
  keepAliveMs: number;
  /** Open streams per client IP (`STREAM_MAX_PER_IP`). */
  maxPerIp: number;
  /** Open streams per process (`STREAM_MAX_CONNECTIONS`). */
  maxConnections: number;
  /** Unsent frames one connection may hold before it is dropped as slow (`STREAM_MAX_QUEUED_FRAMES`). */
  maxQueuedFrames: number;
};

/** Documented defaults (README, `.env.example`). */
export const STREAM_DEFAULTS: StreamSettings = {
  pollIntervalMs: 25,
  keepAliveMs: 15_000,
  maxPerIp: 5,
  maxConnections: 1_000,
  maxQueuedFrames: 1_000,
};

/** What a stream connection asks for. */
export type StreamRequest = {
  /** Lowercase token address, or all tokens. */
  token?: `0x${string}`;
  /** Send `pending` previews and `reorg` frames. */
  includePending: boolean;
  /** Resume after this id (`Last-Event-ID`); absent: from the current confirmed boundary. */
  sinceId?: bigint;
};
