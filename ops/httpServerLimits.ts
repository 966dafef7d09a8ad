/**
 * Connection and time bounds of the service's HTTP server (docs/security.md "Slow clients";
 * docs/operations.md "HTTP server bounds").
 *
 * Node's `http.Server` bounds a request's headers (`headersTimeout`), the whole request with its
 * body (`requestTimeout`), idle keep-alive connections (`keepAliveTimeout`) and the process's
 * connections (`maxConnections`). It has no per-client connection cap and no minimum body data
 * rate, which is what a slow-body flood uses: one client opening thousands of connections, each
 * sending a byte every 20 s, holds one file descriptor per connection until the process can open
 * no more files (and the embedded database with it). This module adds the two missing bounds:
 *
 * - **per client**: at most `maxConnectionsPerClient` open connections per client address
 *   (IPv6 grouped by prefix, like every per-IP budget); a connection over the cap is answered
 *   `429` with `Retry-After` and closed before anything is parsed. Peers that are trusted proxies
 *   (`TRUST_PROXY`) are not capped: every client behind them shares their address;
 * - **minimum body rate**: a request with a body must deliver it at `bodyMinBytesPerSec` on
 *   average once `bodyGraceMs` have passed, measured on the socket (`socket.bytesRead`, so the body
 *   stream is never touched); a slower one is answered `408 request_timeout` and closed.
 *
 * A response sent before the request's body was read to the end (a 401, 413 or 429 decided from
 * the headers) carries `Connection: close`: Node would otherwise keep reading the unread body to
 * reuse the connection, and the client would hold it as long as it keeps sending.
 *
 * `maxConnections` is clamped below the process's open-file limit (`/proc/self/limits` on Linux)
 * minus {@link FD_RESERVE}, so connections can never take the descriptors the database, the RPC
 * client and the log need.
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, RequestListener, Server, ServerOptions, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** The bounds, all settable (config/env.ts `HTTP_*`). */
export type HttpServerLimits = {
  /** Longest wait for a request's complete headers, ms (Node `headersTimeout`). */
  headersTimeoutMs: number;
  /** Longest a whole request (headers and body) may take to arrive, ms (Node `requestTimeout`). */
  requestTimeoutMs: number;
  /** Longest an idle keep-alive connection stays open between requests, ms (Node `keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
  /** Most open connections of the process (Node `maxConnections`; clamped by the open-file limit). */
  maxConnections: number;
  /** Most open connections of one client address (IPv6 grouped by prefix). */
  maxConnectionsPerClient: number;
  /** Slowest average body rate accepted after the grace period, bytes per second. */
  bodyMinBytesPerSec: number;
  /** Time a body may take before its rate is checked, ms. */
  bodyGraceMs: number;
};

/** Defaults (docs/operations.md "HTTP server bounds"). */
export const DEFAULT_HTTP_SERVER_LIMITS: HttpServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 4_096,
  maxConnectionsPerClient: 64,
  bodyMinBytesPerSec: 1_024,
  bodyGraceMs: 5_000,
};

/** File descriptors kept out of `maxConnections` for the database, RPC sockets, logs and files. */
export const FD_RESERVE = 256;

/** How the server tells clients apart; built from the trust and IPv6 settings. */
export type ClientIdentity = {
  /** Whether a direct peer is a trusted proxy (not capped). */
  isTrustedProxy: (address: string) => boolean;
  /** The budget key of a direct peer (IPv6 grouped by prefix). */
  clientKey: (address: string) => string;
};

/**
 * The soft open-file limit of this process, or null where it cannot be read (not Linux).
 * @param limitsText - the text of `/proc/self/limits` (tests pass their own)
 * @example openFileLimit("Max open files            1024                 524288               files") // 1024
 */
export function openFileLimit(limitsText?: string): number | null {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync("/proc/self/limits", "utf8");
    } catch {
      return null;
    }
  }
  const match = /^Max open files\s+(\d+|unlimited)\s/m.exec(text);
  if (!match) return null;
  return match[1] === "unlimited" ? null : Number(match[1]);
}

/**
 * `maxConnections` as applied: the configured value, at most the open-file limit minus
 * {@link FD_RESERVE} (and at least 16).
 * @example effectiveMaxConnections(4096, 1024) // 768
 */
export function effectiveMaxConnections(configured: number, fileLimit: number | null): number {
  if (fileLimit === null) return configured;
  return Math.max(16, Math.min(configured, fileLimit - FD_RESERVE));
}

/**
 * Whether the request announces a body (`Content-Length` > 0 or chunked transfer coding).
 * @example hasRequestBody({ headers: { "content-length": "10" } }) // true
 */
export function hasRequestBody(req: Pick<IncomingMessage, "headers">): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}

/**
 * The body's deadline check: whether `receivedBytes` in `elapsedMs` is below the minimum average
 * rate once the grace period is over.
 * @example bodyTooSlow(3, 20_000, { bodyMinBytesPerSec: 1024, bodyGraceMs: 5000 }) // true
 */
export function bodyTooSlow(
  receivedBytes: number,
  elapsedMs: number,
  limits: Pick<HttpServerLimits, "bodyMinBytesPerSec" | "bodyGraceMs">,
): boolean {
  if (elapsedMs <= limits.bodyGraceMs) return false;
  return receivedBytes < (limits.bodyMinBytesPerSec * (elapsedMs - limits.bodyGraceMs)) / 1000;
}

/** One error body, as the app's error shape (the catalogue codes `too_many_connections`, `request_timeout`). */
function errorText(error: string, message: string): string {
  return JSON.stringify({ ok: false, error, message });
}

/** What the body-rate watchdog holds per request. */
type BodyWatch = { req: IncomingMessage; res: ServerResponse; startMs: number; startBytes: number };

/** Marks a socket refused by the per-client cap: the listener never hands its requests to the app. */
const OVER_CAP = Symbol("launch-service.overConnectionCap");

/** The bounds of one server: a listener wrapper and the server configuration (module doc). */
export type HttpServerGuard = {
  /**
   * Constructor options: the timeouts, and how often Node checks them
   * (`connectionsCheckingInterval`, default 30 s, which would let a 10 s headers deadline run 40 s).
   */
  options: ServerOptions;
  /** Wraps the server's request listener (refused sockets, `Connection: close` on unread bodies). */
  wrapListener: (listener: RequestListener) => RequestListener;
  /** Applies Node's options and the per-client and body-rate bounds; returns the applied `maxConnections`. */
  configure: (server: Server) => { maxConnections: number };
};

/**
 * Builds the bounds of the service's HTTP server (module doc).
 * @param limits - the bounds
 * @param identity - proxy trust and client grouping of direct peers
 * @param options.fileLimit - the open-file limit (default: read from the process)
 * @param options.nowMs - monotonic clock, ms (tests)
 * @param options.checkIntervalMs - how often slow bodies are checked (default 1,000)
 * @example
 * const guard = httpServerGuard(DEFAULT_HTTP_SERVER_LIMITS, { isTrustedProxy: () => false, clientKey: (a) => a });
 * const server = http.createServer(guard.wrapListener(app)); guard.configure(server);
 */
export function httpServerGuard(
  limits: HttpServerLimits,
  identity: ClientIdentity,
  options: { fileLimit?: number | null; nowMs?: () => number; checkIntervalMs?: number } = {},
): HttpServerGuard {
  const nowMs = options.nowMs ?? (() => performance.now());
  return {
    options: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, limits.headersTimeoutMs / 4)),
    },
    wrapListener: (listener) =>
      function boundedListener(req: IncomingMessage, res: ServerResponse) {
        if ((req.socket as Socket & { [OVER_CAP]?: true })[OVER_CAP]) {
          req.socket.destroy();
          return;
        }
        if (hasRequestBody(req)) {
          const writeHead = res.writeHead;
          res.writeHead = function writeHeadClosing(this: ServerResponse, ...args: unknown[]) {
            // Answered before the body was read to the end: close instead of draining it.
            if (!req.complete && !this.headersSent) this.setHeader("connection", "close");
            return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
          } as typeof res.writeHead;
        }
        return listener(req, res);
      },
    configure: (server) => {
      const maxConnections = effectiveMaxConnections(
        limits.maxConnections,
        options.fileLimit === undefined ? openFileLimit() : options.fileLimit,
      );
      // The timeouts are constructor options ({@link HttpServerGuard.options}): Node reads some of
      // them only there.
      server.maxConnections = maxConnections;
      capConnectionsPerClient(server, limits.maxConnectionsPerClient, identity);
      watchBodyRates(server, limits, nowMs, options.checkIntervalMs ?? 1_000);
      return { maxConnections };
    },
  };
}

/** Counts open connections per client key; a connection over the cap gets a 429 and is closed. */
function capConnectionsPerClient(server: Server, cap: number, identity: ClientIdentity): void {
  const open = new Map<string, number>();
  // Before Node's own listener, so a refused socket is marked before its parser exists.
  server.prependListener("connection", (socket: Socket & { [OVER_CAP]?: true }) => {
    const address = socket.remoteAddress;
    if (!address || identity.isTrustedProxy(address)) return;
    const key = identity.clientKey(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > cap) {
      socket[OVER_CAP] = true;
      const body = errorText(
        "too_many_connections",
        `at most ${cap} open connections per client; close some and retry`,
      );
      socket.end(
        `HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 5\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
        () => socket.destroy(),
      );
      return;
    }
    open.set(key, count);
    socket.once("close", () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

/** Answers 408 and closes a request whose body arrives below the minimum average rate. */
function watchBodyRates(server: Server, limits: HttpServerLimits, nowMs: () => number, checkIntervalMs: number): void {
  const watched = new Set<BodyWatch>();
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!hasRequestBody(req) || req.complete) return;
    const watch: BodyWatch = { req, res, startMs: nowMs(), startBytes: req.socket.bytesRead };
    watched.add(watch);
    const done = () => watched.delete(watch);
    req.once("end", done);
    req.once("close", done);
    res.once("close", done);
  });
  const timer = setInterval(() => {
    const now = nowMs();
    for (const watch of watched) {
      const { req, res } = watch;
      if (req.complete) {
        watched.delete(watch);
        continue;
      }
      if (!bodyTooSlow(req.socket.bytesRead - watch.startBytes, now - watch.startMs, limits)) continue;
      watched.delete(watch);
      if (!res.headersSent) {
        const body = errorText(
          "request_timeout",
          `the request body arrived slower than ${limits.bodyMinBytesPerSec} bytes/s`,
        );
        res.writeHead(408, {
          "content-type": "application/json; charset=utf-8",
          "content-length": Buffer.byteLength(body),
          "cache-control": "no-store",
          connection: "close",
        });
        res.end(body);
      }
      req.socket.destroySoon();
    }
  }, checkIntervalMs);
  timer.unref();
  server.once("close", () => clearInterval(timer));
}
