/**
 * A hosted JSON-RPC provider in front of a local node (anvil), for the `rpc` benchmark: every
 * request pays a round trip, the provider answers at most `capRps` requests per wall-clock second
 * (over it: HTTP 429, as hosted providers do) and refuses answers larger than `maxResponseBytes`
 * (a JSON-RPC error in dRPC's words, which Ponder's `eth_getLogs` retry helper answers by halving
 * the block range).
 *
 * The rate is counted per wall-clock second on arrival (the window Ponder's own limiter counts in);
 * the round trip is added before the request is forwarded, so the node sees requests at the pace
 * a remote provider would. Only `node:http`.
 */
import { createServer, request as httpRequest, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** Options of {@link startProviderProxy}. */
export type ProviderProxyOptions = {
  /** The node's JSON-RPC URL (http). */
  target: string;
  /** Round trip added to every request, ms (default 50). */
  roundTripMs?: number;
  /** Requests answered per wall-clock second; more get 429 (default 200). */
  capRps?: number;
  /** Largest answer body relayed, bytes; larger ones become a JSON-RPC error (default 10 MB). */
  maxResponseBytes?: number;
};

/** What the provider saw, cumulative since it started (or since the last `reset`). */
export type ProviderCounts = {
  /** Requests answered by the node (a batch counts as one HTTP request). */
  served: number;
  /** Requests answered 429 (over the per-second cap). */
  throttled: number;
  /** Answers refused for their size. */
  oversized: number;
  /** JSON-RPC calls served per method. */
  calls: Record<string, number>;
  /** Most requests that arrived within one wall-clock second (429s included). */
  maxArrivalsPerSecond: number;
  /** Most requests admitted (not answered 429) within one wall-clock second of their arrival. */
  maxServedPerSecond: number;
  /** Bytes of the answers relayed. */
  responseBytes: number;
  /**
   * Seconds during which at least one request was in flight (arrival to answer): divided by the
   * round trip, about how many round trips lay on the client's critical path.
   */
  busySec: number;
  /** Most requests in flight at once. */
  maxInFlight: number;
};

/** A running provider. */
export type ProviderProxy = {
  /** `http://127.0.0.1:<port>`: the URL to give the client. */
  url: string;
  counts: () => ProviderCounts;
  /** Starts the counts from zero (e.g. between two runs through the same provider). */
  reset: () => void;
  stop: () => Promise<void>;
};

const methodsOf = (body: Buffer): string[] => {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed]).map((c) => String((c as { method?: unknown })?.method));
  } catch {
    return ["unparsable"];
  }
};

const idOf = (body: Buffer): unknown => {
  try {
    return (JSON.parse(body.toString("utf8")) as { id?: unknown }).id ?? null;
  } catch {
    return null;
  }
};

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

/**
 * Starts the provider on a free port of 127.0.0.1.
 * @example const provider = await startProviderProxy({ target: anvil.rpcUrl, roundTripMs: 50, capRps: 200 });
 */
export async function startProviderProxy(options: ProviderProxyOptions): Promise<ProviderProxy> {
  const target = new URL(options.target);
  const roundTripMs = options.roundTripMs ?? 50;
  const capRps = options.capRps ?? 200;
  const maxResponseBytes = options.maxResponseBytes ?? 10 * 2 ** 20;
  const fresh = (): ProviderCounts => ({
    served: 0,
    throttled: 0,
    oversized: 0,
    calls: {},
    maxArrivalsPerSecond: 0,
    maxServedPerSecond: 0,
    responseBytes: 0,
    busySec: 0,
    maxInFlight: 0,
  });
  let counts = fresh();
  let second = 0;
  let arrivals = 0;
  let admitted = 0;
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let busySince = 0;
  /** Tracks a request from its arrival until its answer is sent. */
  const track = (res: ServerResponse) => {
    if (inFlight++ === 0) busySince = performance.now();
    counts.maxInFlight = Math.max(counts.maxInFlight, inFlight);
    res.on("close", () => {
      if (--inFlight === 0) counts.busySec += (performance.now() - busySince) / 1000;
    });
  };

  const forward = (body: Buffer, res: ServerResponse) => {
    const upstream = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(body.length) },
      },
      (up) => {
        const chunks: Buffer[] = [];
        up.on("data", (chunk: Buffer) => chunks.push(chunk));
        up.on("end", () => {
          const answer = Buffer.concat(chunks);
          if (answer.length > maxResponseBytes) {
            counts.oversized++;
            return json(res, 200, {
              jsonrpc: "2.0",
              id: idOf(body),
              error: { code: -32000, message: `response size should not greater than ${maxResponseBytes} bytes` },
            });
          }
          counts.served++;
          for (const method of methodsOf(body)) counts.calls[method] = (counts.calls[method] ?? 0) + 1;
          counts.responseBytes += answer.length;
          res.writeHead(up.statusCode ?? 502, { "content-type": "application/json" });
          res.end(answer);
        });
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent)
        json(res, 502, { jsonrpc: "2.0", id: idOf(body), error: { code: -32603, message: "upstream error" } });
    });
    upstream.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      track(res);
      const now = Math.floor(Date.now() / 1000);
      if (now !== second) [second, arrivals, admitted] = [now, 0, 0];
      counts.maxArrivalsPerSecond = Math.max(counts.maxArrivalsPerSecond, ++arrivals);
      if (admitted >= capRps) {
        counts.throttled++;
        // The 429 comes back after the same round trip as an answer would.
        setTimeout(
          () => json(res, 429, { jsonrpc: "2.0", id: idOf(body), error: { code: 429, message: "rate limited" } }),
          roundTripMs,
        );
        return;
      }
      counts.maxServedPerSecond = Math.max(counts.maxServedPerSecond, ++admitted);
      setTimeout(() => forward(body, res), roundTripMs);
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts: () => structuredClone(counts),
    reset: () => {
      counts = fresh();
    },
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
