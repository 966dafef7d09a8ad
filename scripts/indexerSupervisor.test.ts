/**
 * The supervisor's readers against a real HTTP server that answers `/api/v1/ready` with a body the
 * test sets, and its decisions on an injected clock and scheduler, stepped check by check (no real
 * time waited; the real service is supervised in test/e2e/readiness.test.ts): no restart while
 * ready, degraded or blind, a restart once stalled for the threshold with the indexer's RPC
 * answering (the threshold counts from when that RPC answers again), none while it does not
 * answer, and backoff between restarts.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readServiceReadiness, rpcAnswers, superviseIndexer } from "./indexerSupervisor";

let server: Server;
let url: string;
let readiness: Record<string, unknown> = { status: "ok", chain_head_block: 10, indexed_block: 10, reason: null };
let rpcUp = true;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/api/v1/ready") {
      res.writeHead(readiness.status === "ok" ? 200 : 503, { "content-type": "application/json" });
      res.end(JSON.stringify(readiness));
      return;
    }
    if (!rpcUp) return; // a frozen node: the request is never answered
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: "0xa" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("readServiceReadiness and rpcAnswers", () => {
  it("read the readiness body and tell an answering RPC from a frozen one", async () => {
    readiness = { status: "stalled", chain_head_block: 12, indexed_block: 10, reason: "no block indexed" };
    expect(await readServiceReadiness(url)).toEqual({
      status: "stalled",
      chainHeadBlock: 12,
      indexedBlock: 10,
      reason: "no block indexed",
    });
    expect(await readServiceReadiness("http://127.0.0.1:9")).toBeNull();
    rpcUp = true;
    expect(await rpcAnswers([`${url}/rpc`])).toBe(true);
    rpcUp = false;
    expect(await rpcAnswers([`${url}/rpc`], 300)).toBe(false);
    rpcUp = true;
  });
});

describe("superviseIndexer", () => {
  it("restarts only a stall with a known chain head, once it has lasted the threshold with the indexer's RPC answering, and backs off", async () => {
    let nowMs = 0;
    let rpcAnswering = false;
    let answer = { status: "degraded", chainHeadBlock: 20, indexedBlock: 10, reason: "10 blocks behind" } as Awaited<
      ReturnType<typeof readServiceReadiness>
    >;
    const restarts: string[] = [];
    // The checks run when the test steps them: no real time passes (injected clock and scheduler).
    let next: (() => Promise<void>) | null = null;
    const step = async (checks = 1) => {
      for (let i = 0; i < checks; i++) {
        const check = next;
        next = null;
        await check?.();
      }
    };
    const supervisor = superviseIndexer({
      serviceUrl: () => url,
      restartAfterSec: 5,
      maxBackoffSec: 20,
      readReadiness: async () => answer,
      indexerRpcAnswers: async () => rpcAnswering,
      restart: async (reason) => void restarts.push(reason),
      nowMs: () => nowMs,
      schedule: (check) => {
        next = check;
        return () => {
          next = null;
        };
      },
    });
    const stalled = (chainHeadBlock: number | null, reason: string) =>
      (answer = { status: "stalled", chainHeadBlock, indexedBlock: 10, reason });
    try {
      // Degraded (behind but progressing): never a restart, however long.
      nowMs = 60_000;
      await step(3);
      expect(restarts).toEqual([]);
      // Blind stall (chain head unknown): not either.
      stalled(null, "stalled, RPC down");
      await step(3);
      expect(restarts).toEqual([]);
      stalled(25, "no block indexed for 20 s");
      await step(2);
      nowMs = 70_000; // 10 s stalled, but the indexer's RPC does not answer: no restart
      await step(3);
      expect(restarts).toEqual([]);
      // The RPC is back: the stall counts from now (the process gets the threshold to resume by
      // itself), not from when it began.
      rpcAnswering = true;
      await step(3);
      expect(restarts).toEqual([]);
      nowMs = 73_000;
      await step(3);
      expect(restarts).toEqual([]);
      // The RPC froze again before the threshold: the count starts over once it answers.
      rpcAnswering = false;
      await step(3);
      rpcAnswering = true;
      await step(2); // seen stalled with the RPC back at 73 s
      nowMs = 77_000; // 4 s since the RPC answers again: not yet
      await step(3);
      expect(restarts).toEqual([]);
      nowMs = 78_000;
      await step(1);
      expect(restarts).toEqual(["no block indexed for 20 s"]);
      await step(2); // seen stalled again at 78 s, before the clock moves
      // Still stalled after the restart (seen from 78 s on): the next one needs the threshold
      // again, and the backoff (5 s after the first restart, then 10 s after the second).
      nowMs = 82_000;
      await step(3);
      expect(restarts).toHaveLength(1);
      nowMs = 84_000;
      await step(1);
      expect(restarts).toHaveLength(2);
      await step(2); // seen stalled again at 84 s
      nowMs = 92_000; // stalled 8 s again, but within 10 s of the second restart
      await step(3);
      expect(restarts).toHaveLength(2);
      nowMs = 95_000;
      await step(1);
      expect(restarts).toHaveLength(3);
      expect(supervisor.restarts()).toBe(3);
      // Ready again: the backoff and the stall clock reset; a new stall needs the full threshold.
      answer = { status: "ok", chainHeadBlock: 30, indexedBlock: 30, reason: null };
      await step(1);
      stalled(40, "stalled again");
      nowMs = 200_000;
      await step(1);
      nowMs = 204_000;
      await step(1);
      expect(restarts).toHaveLength(3);
      nowMs = 205_000;
      await step(1);
      expect(restarts).toHaveLength(4);
    } finally {
      supervisor.stop();
    }
    expect(next).toBeNull(); // stopped: nothing scheduled
  });
});
