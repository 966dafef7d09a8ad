/**
 * The readiness rules (ops/readiness.ts) with an injected clock: ready within the lag bound,
 * degraded when behind or blind, stalled when the chain stays ahead of the same old block, and
 * neither a backfill nor a quiet chain mistaken for a stall. The real service is exercised in
 * test/e2e/readiness.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { ChainProbeResult } from "./chainProbe";
import type { IndexedHead } from "../market/indexedHead";
import { assessIndexer, ProgressTracker, readinessMonitor, type ReadinessPolicy } from "./readiness";

const policy: ReadinessPolicy = { maxLagBlocks: 3, maxIndexedAgeSec: 15 };
const T0 = 1_700_000_000;
const head = (blockNumber: number, timestampSec = T0): IndexedHead => ({
  blockNumber: BigInt(blockNumber),
  timestampSec: BigInt(timestampSec),
});

describe("assessIndexer", () => {
  it("is ready within the lag bound and says why not beyond it", () => {
    expect(assessIndexer({ indexed: head(21), chainHead: 24, behindForSec: 0, nowSec: T0 + 1 }, policy)).toMatchObject({
      ready: true,
      status: "ok",
      reason: null,
      lag_blocks: 3,
      indexed_block_age_sec: 1,
    });
    const behind = assessIndexer({ indexed: head(0), chainHead: 24, behindForSec: 0, nowSec: T0 + 30 }, policy);
    expect(behind).toMatchObject({
      ready: false,
      status: "degraded",
      lag_blocks: 24,
      indexed_block: 0,
      chain_head_block: 24,
    });
    expect(behind.reason).toContain("24 blocks behind");
  });

  it("is not ready before the first indexed block or without the chain head", () => {
    expect(assessIndexer({ indexed: null, chainHead: 5, behindForSec: 0, nowSec: T0 }, policy)).toMatchObject({
      ready: false,
      status: "degraded",
      reason: "the indexer has not recorded a block yet",
      lag_blocks: null,
    });
    const blind = assessIndexer(
      { indexed: head(5), chainHead: null, chainError: "timed out after 2000 ms", behindForSec: 0, nowSec: T0 + 3 },
      policy,
    );
    expect(blind).toMatchObject({ ready: false, status: "degraded", lag_blocks: null, indexed_block_age_sec: 3 });
    expect(blind.reason).toContain("timed out after 2000 ms");
  });

  it("is stalled only when the block is old and the chain has been ahead of it past the bound", () => {
    // Behind within the lag bound, but the same block for 16 s and 20 s old: stalled.
    expect(
      assessIndexer({ indexed: head(10), chainHead: 11, behindForSec: 16, nowSec: T0 + 20 }, policy),
    ).toMatchObject({ ready: false, status: "stalled" });
    // A backfill: old blocks, but progressing (seen behind only just now).
    expect(
      assessIndexer({ indexed: head(10), chainHead: 900, behindForSec: 0, nowSec: T0 + 86_400 }, policy).status,
    ).toBe("degraded");
    // A quiet chain: the head block is an hour old, a new block just came.
    expect(
      assessIndexer({ indexed: head(10), chainHead: 11, behindForSec: 1, nowSec: T0 + 3_600 }, policy).status,
    ).toBe("ok");
    // A stall seen before the RPC went away stays a stall.
    expect(
      assessIndexer({ indexed: head(10), chainHead: null, behindForSec: 40, nowSec: T0 + 60 }, policy).status,
    ).toBe("stalled");
  });
});

describe("ProgressTracker", () => {
  it("counts the time behind on the same block, resets on progress, clears when caught up, keeps it while blind", () => {
    const t = new ProgressTracker();
    expect(t.observe(10n, 2, 0)).toBe(0);
    expect(t.observe(10n, 4, 20_000)).toBe(20);
    expect(t.observe(10n, null, 30_000)).toBe(30);
    expect(t.observe(11n, 5, 31_000)).toBe(0);
    expect(t.observe(11n, 6, 33_000)).toBe(2);
    expect(t.observe(11n, 0, 34_000)).toBe(0);
    expect(t.observe(11n, 1, 40_000)).toBe(0);
    expect(t.observe(11n, 1, 41_500)).toBe(1.5);
  });
});

describe("readinessMonitor", () => {
  it("gives a first backfill the longer bound: degraded while one batch holds the checkpoint, stalled only past it", async () => {
    // A fresh service against a chain with history: block 10 indexed (old), the chain at 310.
    let nowMs = (T0 + 1_000) * 1000;
    const probe: ChainProbeResult = { ok: true, chain_id: 4663, block_number: 310, checked_at_ms: 0 };
    const check = readinessMonitor({
      indexedHead: async () => head(10, T0),
      probe: async () => probe,
      policy: { ...policy, backfillStallSec: 300 },
      nowMs: () => nowMs,
    });
    expect(await check()).toMatchObject({ ready: false, status: "degraded", lag_blocks: 300 });
    nowMs += 60_000; // 60 s on the same batch: past the live bound (15 s), within the backfill bound
    expect(await check()).toMatchObject({ ready: false, status: "degraded", behind_for_sec: 60 });
    nowMs += 241_000; // 301 s: a backfill that makes no progress is a stall too
    expect(await check()).toMatchObject({ ready: false, status: "stalled", behind_for_sec: 301 });
  });

  it("turns stalled when the chain advances and the indexed head does not, and ready again when it catches up", async () => {
    let nowMs = (T0 + 1) * 1000;
    let indexed: IndexedHead | null = head(20, T0);
    let chain = 20;
    let probe: ChainProbeResult = { ok: true, chain_id: 4663, block_number: chain, checked_at_ms: 0 };
    const check = readinessMonitor({
      indexedHead: async () => indexed,
      probe: async () => probe,
      policy,
      nowMs: () => nowMs,
    });
    expect(await check()).toMatchObject({ ready: true, status: "ok" });
    // The chain moves 2 blocks, the indexer does not: within the lag bound, not yet a stall.
    chain = 22;
    probe = { ...probe, block_number: chain };
    nowMs += 5_000;
    expect(await check()).toMatchObject({ ready: true, status: "ok", lag_blocks: 2, behind_for_sec: 0 });
    nowMs += 16_000;
    expect(await check()).toMatchObject({ ready: false, status: "stalled", lag_blocks: 2, behind_for_sec: 16 });
    // The RPC goes away: still stalled (as last seen), the chain head unknown.
    probe = { ok: false, error: "HTTP request failed.", checked_at_ms: 0 };
    expect(await check()).toMatchObject({ ready: false, status: "stalled", chain_head_block: null, lag_blocks: null });
    // It comes back and the indexer catches up.
    probe = { ok: true, chain_id: 4663, block_number: 23, checked_at_ms: 0 };
    indexed = head(23, T0 + 22);
    expect(await check()).toMatchObject({ ready: true, status: "ok", lag_blocks: 0 });
    // A database error is an answer, not an exception.
    const failing = readinessMonitor({
      indexedHead: () => Promise.reject(new Error("connection refused")),
      probe: async () => probe,
      policy,
    });
    expect(await failing()).toMatchObject({
      ready: false,
      status: "degraded",
      reason: "the indexed head cannot be read: connection refused",
    });
  });
});

describe("readinessMonitor: a lost index", () => {
  it("calls a head that disappears after one was seen stalled (the index was lost), not a start-up state", async () => {
    const nowMs = (T0 + 1) * 1000;
    let indexed: IndexedHead | null = head(20, T0);
    const probe: ChainProbeResult = { ok: true, chain_id: 4663, block_number: 20, checked_at_ms: 0 };
    const check = readinessMonitor({
      indexedHead: async () => indexed,
      probe: async () => probe,
      policy,
      nowMs: () => nowMs,
    });
    expect(await check()).toMatchObject({ ready: true, status: "ok" });
    indexed = null;
    const lost = await check();
    expect(lost).toMatchObject({ ready: false, status: "stalled", indexed_block: null });
    expect(lost.reason).toContain("block 20 was indexed before");
    // A process that never saw a head is starting up: degraded, not stalled.
    const fresh = readinessMonitor({
      indexedHead: async () => null,
      probe: async () => probe,
      policy,
      nowMs: () => nowMs,
    });
    expect(await fresh()).toMatchObject({ status: "degraded", reason: "the indexer has not recorded a block yet" });
  });
});
