/**
 * Slow clients against the real service (docs/security.md "Slow clients and lost data";
 * ops/httpServerLimits.ts): an anonymous slow-body flood from many client addresses, slow headers,
 * and an authenticated slow body, on the embedded PGlite `npm start` uses, with the service's
 * open-file limit lowered so the flood is larger than the descriptors the process may open (the
 * outside finding: ~21,000 slow connections against 20,000 descriptors emptied the served index).
 *
 * Clients are told apart by their loopback source address (127.0.0.2, 127.0.0.3, …: the whole
 * 127.0.0.0/8 is loopback on Linux), so the attackers and the reader at 127.0.0.1 are separate
 * clients of the per-client connection cap.
 */
import { readdirSync } from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEther } from "viem";
import { launchToken } from "../../devnet/actions";
import { scaledMs } from "../helpers/deadlines";
import { startStack, until, type Stack } from "../helpers/harness";

/** The service's open-file limit: below the flood's connection count. */
const FILE_LIMIT = 1_024;
/** Attacker addresses and connections per address: 1,200 connections in all. */
const ATTACKERS = 20;
const CONNECTIONS_PER_ATTACKER = 60;
const PER_CLIENT_CAP = 50;
const HEADERS_TIMEOUT_MS = 3_000;

let stack: Stack;
let port: number;
let seeded: string[];

beforeAll(async () => {
  stack = await startStack({
    schema: "e2e_slowclients",
    database: "pglite",
    openFileLimit: FILE_LIMIT,
    env: {
      HTTP_MAX_CONNECTIONS_PER_CLIENT: String(PER_CLIENT_CAP),
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_BODY_GRACE_MS: "1000",
      HTTP_BODY_MIN_BYTES_PER_SEC: "1024",
    },
  });
  port = Number(new URL(stack.service.url).port);
  for (const [i, symbol] of ["SLOWA", "SLOWB"].entries())
    await launchToken(stack.wallet(i + 1), stack.publicClient, stack.manifest, {
      name: `Slow ${symbol}`,
      symbol,
      firstBuyWei: parseEther("0.01"),
    });
  seeded = await until(
    "the two launches indexed",
    async () => {
      const list = await readTokens();
      return list.length >= 2 ? list : undefined;
    },
    scaledMs(60_000),
  );
});

afterAll(async () => {
  await stack?.stop();
});

/** The newest tokens' addresses as the reader (127.0.0.1) sees them; throws on a non-200 answer. */
async function readTokens(): Promise<string[]> {
  const res = await stack.request("/api/public/tokens/new?limit=10");
  if (res.status !== 200) throw new Error(`tokens/new answered ${res.status}: ${JSON.stringify(res.body)}`);
  return (res.body.tokens as { address: string }[]).map((t) => t.address).sort();
}

/** Open file descriptors of the service process now. */
function serviceDescriptors(): number {
  return readdirSync(`/proc/${stack.service.child.pid}/fd`).length;
}

/** One raw client connection: what it received and whether it is closed. */
type RawClient = { socket: net.Socket; received: string; closed: boolean };

/**
 * Opens a raw TCP connection from `localAddress`, sends `head`, then one byte of `trickle` every
 * `trickleMs` while the connection is open.
 */
function openRaw(localAddress: string, head: string, trickle: string, trickleMs: number): RawClient {
  const socket = net.connect({ host: "127.0.0.1", port, localAddress });
  const client: RawClient = { socket, received: "", closed: false };
  socket.on("connect", () => socket.write(head));
  socket.on("data", (chunk) => {
    client.received += chunk.toString();
  });
  socket.on("error", () => {});
  let at = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write(trickle[at++ % trickle.length]!);
  }, trickleMs);
  socket.on("close", () => {
    client.closed = true;
    clearInterval(timer);
  });
  return client;
}

/** The status line's code of a raw answer, or null when nothing was answered. */
function statusOf(client: RawClient): number | null {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(client.received);
  return match ? Number(match[1]) : null;
}

describe("slow clients (ops/httpServerLimits.ts)", () => {
  it("an anonymous slow-body flood larger than the open-file limit holds no connection, and the index stays served during and after it", async () => {
    const head =
      "POST /api/v1/evmchain/launches/intent HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{";
    const clients: RawClient[] = [];
    let mostDescriptors = 0;
    const duringReads: string[][] = [];
    for (let a = 0; a < ATTACKERS; a++) {
      for (let i = 0; i < CONNECTIONS_PER_ATTACKER; i++) clients.push(openRaw(`127.0.0.${a + 2}`, head, " ", 1_000));
      mostDescriptors = Math.max(mostDescriptors, serviceDescriptors());
      duringReads.push(await readTokens());
    }
    // Every flood connection ends quickly: refused from its headers (401 before any body byte is
    // read), over the per-client cap (429), or over maxConnections (closed unanswered).
    await until(
      "every flood connection closed",
      async () => clients.every((c) => c.closed) || undefined,
      scaledMs(20_000),
    );
    mostDescriptors = Math.max(mostDescriptors, serviceDescriptors());
    const statuses = new Map<string, number>();
    const samples = new Map<string, string>();
    for (const c of clients) {
      const key = String(statusOf(c) ?? "closed unanswered");
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (!samples.has(key)) samples.set(key, c.received.slice(0, 400));
    }
    // Only refusals: 401 from the headers, 429 over a cap, 408 when a loaded machine reaches the
    // body-rate deadline before the 401, Node's own 400 when the trickle reaches a connection it is
    // closing, or closed unanswered; never a body read to the end (a 201, or a
    // 400 of the body parser, which would carry the JSON error body).
    expect(
      [...statuses.keys()].every((k) => ["401", "400", "408", "429", "closed unanswered"].includes(k)),
      JSON.stringify([...statuses, ...samples]),
    ).toBe(true);
    expect(statuses.get("401") ?? 0).toBeGreaterThan(0);
    expect(clients.filter((c) => c.received.includes('"error":"invalid_request"'))).toHaveLength(0);
    expect(mostDescriptors).toBeLessThan(FILE_LIMIT);
    for (const read of duringReads) expect(read).toEqual(seeded);
    expect(await readTokens()).toEqual(seeded);
    const ready = await stack.request("/api/v1/ready");
    expect(ready.status).toBe(200);
  });

  it("slow headers are cut at the headers deadline, and a client's connections over its cap are answered 429 at once", async () => {
    const clients = Array.from({ length: PER_CLIENT_CAP + 20 }, () =>
      openRaw("127.0.0.40", "GET /api/public/tokens/new HTTP/1.1\r\nHost: x\r\n", "X-Slow: y\r\n", 500),
    );
    const refused = await until(
      "20 connections over the cap answered 429",
      async () => {
        const over = clients.filter((c) => statusOf(c) === 429);
        return over.length >= 20 ? over : undefined;
      },
      scaledMs(10_000),
    );
    expect(refused).toHaveLength(20);
    expect(refused[0]!.received).toContain('"error":"too_many_connections"');
    expect(refused[0]!.received.toLowerCase()).toContain("retry-after: 5");
    // The capped ones: closed by Node's headersTimeout (408), not served.
    await until(
      "every slow-header connection closed",
      async () => clients.every((c) => c.closed) || undefined,
      scaledMs(HEADERS_TIMEOUT_MS * 4),
    );
    expect(clients.filter((c) => statusOf(c) === 200)).toHaveLength(0);
    // The reader at another address was served throughout.
    expect(await readTokens()).toEqual(seeded);
  });

  it("an authenticated body slower than the minimum rate is answered 408 request_timeout and closed", async () => {
    const head = `POST /api/v1/evmchain/launches/intent HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${stack.apiKey}\r\nIdempotency-Key: slow-body-1\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{`;
    const client = openRaw("127.0.0.50", head, " ", 200);
    await until("the slow body closed", async () => client.closed || undefined, scaledMs(15_000));
    expect(statusOf(client)).toBe(408);
    expect(client.received).toContain('"error":"request_timeout"');
    expect(await readTokens()).toEqual(seeded);
  });
});
