/**
 * The patched newHeads subscription (patches/ponder+0.17.7.patch, `rpc/index.js`; docs/operations.md
 * "Live heads over WebSocket"). With `chain.ws` (INDEXER_WS_URL) upstream Ponder stops polling and
 * sees new blocks only through the subscription, so a subscription that goes silent without
 * closing stops live indexing. The patched client polls beside it, and neither source hands on a
 * head lower than one the other has handed on (Ponder reads a lower head as a reorg).
 *
 * Checked on Ponder's real RPC client against a local JSON-RPC node: an HTTP server answering
 * `eth_getBlockByNumber("latest")` with the block the test sets, and a WebSocket server (the `ws`
 * package, the one Ponder's client uses) that confirms `eth_subscribe` and pushes the heads the test
 * sends. The poll runs every 20 ms.
 *
 * The same hunk polls once at the start instead of one interval after it: Ponder indexes the blocks
 * past its backfill from the first head it receives, and a subscription announces none before the
 * chain's next block.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import { loadCreateRpc, type PonderRpc, ponderRpcCommon } from "../helpers/ponderRpc";

/** A block as a node returns it (header fields Ponder requires; no transactions). */
function block(number: number, fork = "a") {
  const hash = (n: number, f: string) => `0x${f}${n.toString(16).padStart(63, "0")}`;
  return {
    number: `0x${number.toString(16)}`,
    hash: hash(number, fork),
    parentHash: hash(number - 1, "a"),
    timestamp: `0x${(1_700_000_000 + number).toString(16)}`,
    logsBloom: `0x${"0".repeat(512)}`,
    transactions: [],
  };
}
type Block = ReturnType<typeof block>;

/** The local node, the client subscribed to it, and what the client handed on, in order. */
type Node = {
  /** What `eth_getBlockByNumber("latest")` answers from now on. */
  setLatest: (b: Block) => void;
  /** Polls answered so far. */
  polls: () => number;
  /** Pushes a newHeads notification on the open subscription. */
  announce: (b: Block) => void;
  /** Each head the client handed on, as `number:hash-fork-letter`. */
  handedOn: string[];
  /** Whether a client has subscribed over the WebSocket. */
  subscribed: () => boolean;
};

const label = (b: { number: string; hash: string }) => `${Number(b.number)}:${b.hash.slice(2, 3)}`;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startNode(first: Block, options = { pollingIntervalMs: 20, ws: true }): Promise<Node> {
  let latest = first;
  let polls = 0;
  const http = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const { id } = JSON.parse(body) as { id: number };
      polls += 1;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result: latest }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  let socket: WebSocket | undefined;
  wss.on("connection", (ws) => {
    ws.on("message", (data) => {
      const { id, method } = JSON.parse(String(data)) as { id: number; method: string };
      if (method === "eth_subscribe") {
        socket = ws;
        ws.send(JSON.stringify({ jsonrpc: "2.0", id, result: "0x5ub" }));
      }
    });
  });

  const handedOn: string[] = [];
  const createRpc = await loadCreateRpc();
  const rpc: PonderRpc = createRpc({
    common: ponderRpcCommon().common,
    chain: {
      name: "heads",
      id: 1,
      pollingInterval: options.pollingIntervalMs,
      rpc: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
      ...(options.ws ? { ws: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}` } : {}),
    },
  });
  rpc.subscribe({
    onBlock: async (b) => {
      handedOn.push(label(b as Block));
    },
    onError: () => {},
  });
  cleanups.push(async () => {
    await rpc.unsubscribe();
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
  return {
    setLatest: (b) => {
      latest = b;
    },
    polls: () => polls,
    announce: (b) =>
      socket!.send(
        JSON.stringify({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription: "0x5ub", result: b } }),
      ),
    handedOn,
    subscribed: () => socket !== undefined,
  };
}

const poll = { timeout: 10_000, interval: 10 };

/** A node serving `head` to the poll, once the client has subscribed and handed `head` on. */
async function startSubscribedNode(head: number): Promise<Node> {
  const node = await startNode(block(head));
  await expect.poll(node.subscribed, poll).toBe(true);
  await expect.poll(() => node.handedOn, poll).toContain(`${head}:a`);
  return node;
}

describe("Ponder patch: newHeads beside the poll (INDEXER_WS_URL)", () => {
  it("keeps polling while the subscription is open and silent", async () => {
    const node = await startSubscribedNode(5);
    node.setLatest(block(6));
    await expect.poll(() => node.handedOn, poll).toContain("6:a");
  });

  it("hands on a subscribed head, and no polled head at or below it", async () => {
    const node = await startSubscribedNode(9);
    node.announce(block(10));
    await expect.poll(() => node.handedOn, poll).toContain("10:a");
    // A lagging HTTP node keeps answering 9 (and then 10): neither is handed on again.
    const pollsBefore = node.polls();
    await expect.poll(node.polls, poll).toBeGreaterThanOrEqual(pollsBefore + 5);
    node.setLatest(block(10));
    const pollsAt10 = node.polls();
    await expect.poll(node.polls, poll).toBeGreaterThanOrEqual(pollsAt10 + 5);
    expect(node.handedOn.slice(node.handedOn.indexOf("10:a"))).toEqual(["10:a"]);
    // A higher polled head is handed on again.
    node.setLatest(block(11));
    await expect.poll(() => node.handedOn.at(-1), poll).toBe("11:a");
  });

  it("hands on no subscribed head below the polled one; one at the same height (a reorg) it does", async () => {
    const node = await startSubscribedNode(20);
    node.announce(block(19));
    node.announce(block(20, "b"));
    node.announce(block(21));
    await expect.poll(() => node.handedOn.at(-1), poll).toBe("21:a");
    // The poll hands 20:a on at each tick until the subscription passes it, never after; 19 never.
    expect(node.handedOn.filter((h) => h !== "20:a")).toEqual(["20:b", "21:a"]);
    expect(node.handedOn.indexOf("20:b")).toBeGreaterThan(node.handedOn.lastIndexOf("20:a"));
  });

  it.each([
    ["with", true],
    ["without", false],
  ])("hands on the latest head at once, not one poll interval after the start (%s a subscription)", async (_, ws) => {
    const node = await startNode(block(30), { pollingIntervalMs: 600_000, ws });
    await expect.poll(() => node.handedOn, poll).toEqual(["30:a"]);
  });
});
