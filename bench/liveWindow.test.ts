import { describe, expect, it } from "vitest";
import type { RpcTraffic } from "../test/helpers/rpcProxy";
import { lagTrend, liveWindowTraffic } from "./liveWindow";

const traffic = (over: Partial<RpcTraffic>): RpcTraffic => ({
  calls: {},
  responseBytes: 0,
  responseBytesByMethod: {},
  blocksFetched: 0,
  fetchedBlockNumbers: [],
  getLogsWithoutAddress: 0,
  ...over,
});

describe("live window traffic", () => {
  it("counts only what happened between the snapshots, per block of the window", () => {
    const before = traffic({
      calls: { eth_getLogs: 50, eth_getBlockByNumber: 90 },
      responseBytes: 1_000_000,
      responseBytesByMethod: { eth_getLogs: 600_000, eth_getBlockByNumber: 400_000 },
      blocksFetched: 2,
      fetchedBlockNumbers: [10, 11],
    });
    const after = traffic({
      calls: { eth_getLogs: 54, eth_getBlockByNumber: 95, eth_chainId: 1 },
      responseBytes: 1_040_000,
      responseBytesByMethod: { eth_getLogs: 620_000, eth_getBlockByNumber: 420_000 },
      blocksFetched: 7,
      // 101 twice (a repeat), 99 before the window, 106 after it.
      fetchedBlockNumbers: [10, 11, 99, 101, 101, 102, 106],
    });
    const window = liveWindowTraffic({
      before,
      after,
      fromBlock: 100,
      toBlock: 105,
      blocksWithOurLogs: [90, 101, 101, 103, 106],
      blocksWithForeignSwaps: [101, 102, 103, 104, 110],
    });
    expect(window).toMatchObject({
      blocks: 5,
      blocksWithOurLogs: 2,
      blocksWithForeignSwaps: 4,
      foreignBlockShare: 0.8,
      blocksFetched: 5,
      distinctBlocksFetched: 2,
      blocksFetchedToBlocksWithOurLogs: 2.5,
      calls: { eth_getLogs: 4, eth_getBlockByNumber: 5, eth_chainId: 1 },
      requests: 10,
      getLogs: 4,
      getLogsPerBlock: 0.8,
      responseBytes: 40_000,
      responseBytesPerBlock: 8_000,
      getLogsPerBlockFetched: 0.8,
      responseBytesPerBlockFetched: 8_000,
      responseBytesByMethod: { eth_getLogs: 20_000, eth_getBlockByNumber: 20_000 },
    });
  });

  it("refuses an empty window and has no ratio without blocks of ours", () => {
    const none = traffic({});
    expect(() =>
      liveWindowTraffic({
        before: none,
        after: none,
        fromBlock: 5,
        toBlock: 5,
        blocksWithOurLogs: [],
        blocksWithForeignSwaps: [],
      }),
    ).toThrow(/empty live window/);
    const window = liveWindowTraffic({
      before: none,
      after: none,
      fromBlock: 5,
      toBlock: 6,
      blocksWithOurLogs: [],
      blocksWithForeignSwaps: [],
    });
    expect(window.blocksFetchedToBlocksWithOurLogs).toBeNull();
    expect(window.getLogsPerBlockFetched).toBeNull();
    expect(window.foreignBlockShare).toBe(0);
  });
});

describe("lag trend", () => {
  const series = (lags: number[]) => lags.map((lagBlocks, i) => ({ tSec: i, lagBlocks }));

  it("compares the first and last minute of a long run", () => {
    // 10 minutes at one sample a second: 1 block for 9 minutes, then 9 blocks in the last minute.
    const lags = Array.from({ length: 600 }, (_, i) => (i >= 540 ? 9 : 1));
    const trend = lagTrend(series(lags));
    expect(trend.edgeSec).toBe(60);
    expect(trend.firstMean).toBe(1);
    expect(trend.lastMean).toBeCloseTo((9 * 60 + 1) / 61, 6);
    expect(trend.max).toBe(9);
    expect(trend.growing).toBe(true);
  });

  it("uses thirds of a short run, and a lag that drains is not growing", () => {
    const trend = lagTrend(series([30, 20, 10, 2, 1, 2, 1, 2, 1, 1]));
    expect(trend.edgeSec).toBe(3);
    expect(trend.firstMean).toBe(15.5);
    expect(trend.lastMean).toBe(1.25);
    expect(trend.max).toBe(30);
    expect(trend.growing).toBe(false);
  });

  it("has nothing to say without samples", () => {
    expect(lagTrend([])).toEqual({ edgeSec: null, firstMean: null, lastMean: null, max: null, growing: null });
  });
});
