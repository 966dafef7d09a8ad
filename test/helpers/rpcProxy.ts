/**
 * A JSON-RPC HTTP proxy for fault tests: sits between the service and a node (anvil) and, on
 * demand, simulates an RPC outage.
 *
 * Modes (switch at any time with `setMode`):
 * - `pass`: forwards every request to the target and relays the answer;
 * - `refuse`: the node is down: each request's connection is destroyed without an answer
 *   (`refuseWith: "close"`, the default) or answered `503 Service Unavailable` (`refuseWith: 503`);
 * - `stall`: the node hangs: requests are accepted and held without an answer. Held requests are
 *   forwarded when the mode goes back to `pass` (a late answer the client may have given up on),
 *   and dropped by `stop`.
 *
 * In `pass` mode it doubles as a counter: {@link diffCounts} of two `counts()` snapshots is what a
 * client sent in between, per JSON-RPC method (the RPC-budget test and the build benchmark), and
 * `traffic()` adds what came back: calls per method (batches split), response bytes, and the
 * blocks fetched with `eth_getBlockByNumber` / `eth_getBlockByHash` (the scale benchmark and
 * `test/e2e/scale.test.ts`).
 *
 * Only `node:http`; no dependencies.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What the proxy does with requests. */
export type RpcProxyMode = "pass" | "refuse" | "stall";

/** A running proxy. */
export type RpcProxy = {
  /** `http://127.0.0.1:<port>`: give this to the client under test. */
  url: string;
  mode: () => RpcProxyMode;
  /** Switches the mode; `pass` releases held (stalled) requests to the target. */
  setMode: (mode: RpcProxyMode) => void;
  /** Requests received per mode (counted on arrival), by JSON-RPC method (`batch` for arrays). */
  counts: () => Record<RpcProxyMode, Record<string, number>>;
  /** Requests held right now (`stall`). */
  held: () => number;
  /**
   * The JSON-RPC calls held right now (`stall`), oldest first: method and params as sent (a batch
   * is listed call by call), e.g. `[{ method: "eth_getTransactionReceipt", params: ["0x…"] }]`.
   */
  heldCalls: () => Array<{ method: string; params: unknown[] }>;
  /** What was forwarded and answered so far (`pass` mode), see {@link RpcTraffic}. */
  traffic: () => RpcTraffic;
  /** Closes the server and every connection (held requests included). */
  stop: () => Promise<void>;
};

/** Forwarded JSON-RPC traffic, cumulative since the proxy started. */
export type RpcTraffic = {
  /** JSON-RPC calls per method, a batch counted call by call, e.g. `{ eth_getLogs: 20 }`. */
  calls: Record<string, number>;
  /** Bytes of the answers received from the target (bodies, all methods). */
  responseBytes: number;
  /** The same per method of the request (`batch` for arrays). */
  responseBytesByMethod: Record<string, number>;
  /** Block fetches answered with a block (`eth_getBlockByNumber` and `eth_getBlockByHash` calls). */
  blocksFetched: number;
  /** Numbers of the blocks those fetches returned, in arrival order (repeats kept). */
  fetchedBlockNumbers: number[];
  /**
   * `eth_getLogs` calls over a block range without an `address` (topics only): what Ponder sends
   * for a `factory()` with at least `factoryAddressCountThreshold` children.
   */
  getLogsWithoutAddress: number;
};

const BLOCK_METHODS = new Set(["eth_getBlockByNumber", "eth_getBlockByHash"]);

/** Block numbers in a JSON-RPC answer (single or batch) to block fetches; `[]` when unparsable. */
function blockNumbersOf(body: Buffer): number[] {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((answer) => {
      const number = (answer as { result?: { number?: unknown } } | null)?.result?.number;
      return typeof number === "string" ? [Number(BigInt(number))] : [];
    });
  } catch {
    return [];
  }
}

/** Options of {@link startRpcProxy}. */
export type RpcProxyOptions = {
  /** Upstream JSON-RPC URL (http). */
  target: string;
  /** Initial mode (default `pass`). */
  mode?: RpcProxyMode;
  /** How `refuse` fails a request: destroy the connection (default) or answer 503. */
  refuseWith?: "close" | 503;
  /** Port on 127.0.0.1 (default: any free port). */
  port?: number;
};

function callsOf(body: Buffer): Array<{ method: string; params: unknown[] }> {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed]).map((call) => {
      const { method, params } = (call ?? {}) as { method?: unknown; params?: unknown };
      return { method: typeof method === "string" ? method : "unknown", params: Array.isArray(params) ? params : [] };
    });
  } catch {
    return [];
  }
}

function methodOf(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { method?: unknown } | unknown[];
    if (Array.isArray(parsed)) return "batch";
    return typeof parsed.method === "string" ? parsed.method : "unknown";
  } catch {
    return "unparsable";
  }
}

/**
 * Requests per JSON-RPC method between two snapshots of one mode's counts (`after - before`),
 * leaving out methods whose count did not change.
 * @param before - e.g. `proxy.counts().pass` taken before a call
 * @param after - the same, taken after it
 * @returns requests per method, e.g. `{ eth_call: 2, eth_getBlockByNumber: 1 }`; `{}` when none
 * @example diffCounts({ eth_call: 3 }, { eth_call: 5, eth_chainId: 1 }) // { eth_call: 2, eth_chainId: 1 }
 */
export function diffCounts(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [method, count] of Object.entries(after)) {
    const d = count - (before[method] ?? 0);
    if (d !== 0) delta[method] = d;
  }
  return delta;
}

/**
 * Starts the proxy.
 * @example const proxy = await startRpcProxy({ target: anvil.rpcUrl }); proxy.setMode("stall");
 */
export async function startRpcProxy(options: RpcProxyOptions): Promise<RpcProxy> {
  const target = new URL(options.target);
  let mode: RpcProxyMode = options.mode ?? "pass";
  const counts: Record<RpcProxyMode, Record<string, number>> = { pass: {}, refuse: {}, stall: {} };
  const held = new Set<{ body: Buffer; req: IncomingMessage; res: ServerResponse }>();
  const sockets = new Set<Socket>();
  const traffic: RpcTraffic = {
    calls: {},
    responseBytes: 0,
    responseBytesByMethod: {},
    blocksFetched: 0,
    fetchedBlockNumbers: [],
    getLogsWithoutAddress: 0,
  };

  /** Records one forwarded request and its answer. */
  const record = (body: Buffer, answer: Buffer) => {
    const calls = callsOf(body);
    for (const { method, params } of calls) {
      traffic.calls[method] = (traffic.calls[method] ?? 0) + 1;
      const filter = params[0] as { address?: unknown; blockHash?: unknown } | undefined;
      if (method === "eth_getLogs" && filter && filter.address == null && filter.blockHash == null)
        traffic.getLogsWithoutAddress++;
    }
    const method = methodOf(body);
    traffic.responseBytes += answer.length;
    traffic.responseBytesByMethod[method] = (traffic.responseBytesByMethod[method] ?? 0) + answer.length;
    if (calls.some((call) => BLOCK_METHODS.has(call.method))) {
      // A batch mixing block fetches with other calls is not something Ponder or viem sends.
      const numbers = blockNumbersOf(answer);
      traffic.blocksFetched += numbers.length;
      traffic.fetchedBlockNumbers.push(...numbers);
    }
  };

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    if (res.destroyed || req.socket.destroyed) return;
    const upstream = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers: {
          "content-type": req.headers["content-type"] ?? "application/json",
          "content-length": String(body.length),
        },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, { "content-type": up.headers["content-type"] ?? "application/json" });
        const answer: Buffer[] = [];
        up.on("data", (chunk: Buffer) => answer.push(chunk));
        up.on("end", () => record(body, Buffer.concat(answer)));
        up.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end("upstream error");
    });
    upstream.end(body);
  };

  const fail = (req: IncomingMessage, res: ServerResponse) => {
    if (options.refuseWith === 503) {
      res.writeHead(503, { "content-type": "text/plain", connection: "close" });
      res.end("rpc proxy: refusing");
    } else {
      req.socket.destroy();
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const method = methodOf(body);
      // The mode when the request is complete decides its fate.
      const now = mode;
      counts[now][method] = (counts[now][method] ?? 0) + 1;
      if (now === "pass") return forward(req, res, body);
      if (now === "refuse") return fail(req, res);
      const entry = { body, req, res };
      held.add(entry);
      res.on("close", () => held.delete(entry));
    });
  });
  // Held requests may wait long; never let Node time them out on our side.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.keepAliveTimeout = 5_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    mode: () => mode,
    setMode: (next) => {
      mode = next;
      if (next === "refuse") {
        // A node that went down drops its open (keep-alive) connections too.
        for (const entry of held) entry.req.socket.destroy();
        held.clear();
        for (const socket of sockets) socket.destroy();
      } else if (next === "pass") {
        for (const entry of [...held]) {
          held.delete(entry);
          forward(entry.req, entry.res, entry.body);
        }
      }
    },
    counts: () => structuredClone(counts),
    held: () => held.size,
    heldCalls: () => [...held].flatMap((entry) => callsOf(entry.body)),
    traffic: () => structuredClone(traffic),
    stop: async () => {
      held.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
