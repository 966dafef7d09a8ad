import { describe, expect, it } from "vitest";
import { readPonderLog, summariseStages } from "./liveStages";

const line = (msg: string, number: number, time: number, duration?: number) =>
  JSON.stringify({ level: 20, time, msg, number, duration });

describe("live latency stages", () => {
  it("reads the first time of each step per block and skips other lines", () => {
    const log = [
      line("Received new head block", 7, 1_000),
      line("Received new head block", 7, 1_050), // a duplicate head keeps the first time
      line("Fetched block data", 7, 1_020),
      "not json",
      JSON.stringify({ msg: "Indexed block", time: 5 }), // no block number
      line("Indexed block", 7, 1_080, 12),
      line("Some other message", 7, 999),
    ].join("\n");
    const { blocks } = readPonderLog(log);
    expect(blocks.get(7)).toEqual({
      receivedMs: 1_000,
      fetchedMs: 1_020,
      indexedMs: 1_080,
      indexDurationMs: 12,
    });
    expect(blocks.size).toBe(1);
  });

  it("splits each trade into stages that add up to its whole latency", () => {
    const log = [
      line("Received new head block", 1, 1_040),
      line("Fetched block data", 1, 1_060),
      line("Indexed block", 1, 1_100, 30),
      line("Received new head block", 2, 2_090),
      line("Fetched block data", 2, 2_100),
      line("Indexed block", 2, 2_600, 480),
      JSON.stringify({ time: 2_500, msg: "Finalized block", number: 1, duration: 300 }),
    ].join("\n");
    const steps = readPonderLog(log);
    expect(steps.finalizes).toEqual([{ startMs: 2_200, endMs: 2_500 }]);
    const summary = summariseStages(
      [
        { blockNumber: 1, minedMs: 1_000, pushedMs: 1_130 },
        { blockNumber: 2, minedMs: 2_000, pushedMs: 2_620 },
        { blockNumber: 3, minedMs: 3_000, pushedMs: 3_100 }, // block 3 never logged: left out
      ],
      steps,
    );
    expect(summary.trades).toBe(2);
    expect(summary.stagesMs.poll).toEqual({ p50: 40, p99: 90 });
    expect(summary.stagesMs.index).toEqual({ p50: 40, p99: 500 });
    expect(summary.stagesMs.push).toEqual({ p50: 20, p99: 30 });
    // The slowest trade (block 2, 620 ms) spent 500 ms indexing.
    expect(summary.slowestShare.index).toBeCloseTo(500 / 620);
    expect(summary.blockIndexDurationMs).toEqual({ p50: 30, p99: 480, max: 480, blocks: 2 });
    expect(summary.slowest[0]).toEqual({
      atSec: 1,
      wholeMs: 620,
      stagesMs: { poll: 90, fetch: 10, index: 500, push: 20 },
      blockIndexDurationMs: 480,
      duringFinalize: true,
    });
    expect(summary.slowest[1]!.duringFinalize).toBe(false);
    expect(summary.finalizeDurationMs).toEqual({ p50: 300, max: 300, count: 1 });
    expect(summary.waitedAcrossFinalize).toEqual({ all: 0.5, slowest: 1 });
    const shares = Object.values(summary.slowestShare).reduce((s, v) => s! + v!, 0);
    expect(shares).toBeCloseTo(1);
  });
});
