import { describe, expect, it } from "vitest";
import {
  liveOptions,
  liveTradingFlags,
  parseBenchFlags,
  scaleHistoryFlags,
  scaleLiveOptions,
  scaleOptions,
} from "./harness";

describe("benchmark flags", () => {
  it("keeps every flag of live, scale and scale-live", () => {
    expect(Object.keys(liveOptions).sort()).toEqual(
      [
        "count-queries",
        "cpu-prof-dir",
        "database",
        "duration-sec",
        "http-poll-ms",
        "out",
        "rpc-urls",
        "stages",
        "trade-interval-ms",
        "ws",
      ].sort(),
    );
    expect(Object.keys(scaleOptions).sort()).toEqual(
      [
        "launches",
        "launches-per-block",
        "swaps",
        "swaps-per-transaction",
        "foreign-pools",
        "foreign-factor",
        "foreign-swaps-per-transaction",
        "variants",
        "single-node",
        "out",
        "no-warmup",
        "cpu-prof-dir",
      ].sort(),
    );
    expect(Object.keys(scaleLiveOptions).sort()).toEqual(
      [
        "duration-sec",
        "launches",
        "launches-per-block",
        "swaps",
        "swaps-per-transaction",
        "foreign-pools",
        "foreign-swaps-per-transaction",
        "foreign-interval-ms",
        "rpc-urls",
        "phases",
        "trade-interval-ms",
        "http-poll-ms",
        "stages",
        "out",
      ].sort(),
    );
  });

  it("gives each benchmark its own defaults", () => {
    expect({ ...parseBenchFlags("live", liveOptions, ["live"]) }).toEqual({
      "duration-sec": "60",
      "trade-interval-ms": "200",
      database: "pglite",
      "http-poll-ms": "50",
      "rpc-urls": "1",
      stages: false,
      "count-queries": false,
      ws: false,
    });
    expect({ ...parseBenchFlags("scale", scaleOptions, ["scale"]) }).toEqual({
      launches: "1010",
      "launches-per-block": "30",
      swaps: "10000",
      "swaps-per-transaction": "150",
      "foreign-pools": "100",
      "foreign-factor": "10",
      "foreign-swaps-per-transaction": "20",
      variants: "unpatched,threshold",
      "single-node": false,
      "no-warmup": false,
    });
    expect({ ...parseBenchFlags("scale-live", scaleLiveOptions, ["scale-live"]) }).toEqual({
      "duration-sec": "600",
      launches: "1010",
      "launches-per-block": "30",
      swaps: "1000",
      "swaps-per-transaction": "150",
      "foreign-pools": "20",
      "foreign-swaps-per-transaction": "3",
      "foreign-interval-ms": "50",
      "rpc-urls": "4",
      phases: "baseline,foreign",
      "trade-interval-ms": "200",
      "http-poll-ms": "50",
      stages: false,
    });
  });

  it("reads given flags into numbers, wherever the benchmark's name stands", () => {
    const values = parseBenchFlags("scale-live", scaleLiveOptions, [
      "--duration-sec",
      "180",
      "scale-live",
      "--launches=1200",
      "--swaps",
      "500",
      "--foreign-pools",
      "7",
      "--rpc-urls",
      "2",
      "--stages",
      "--out",
      "run-1",
    ]);
    expect(liveTradingFlags(values)).toEqual({
      durationSec: 180,
      tradeIntervalMs: 200,
      httpPollMs: 50,
      rpcUrls: 2,
      withStages: true,
    });
    expect(scaleHistoryFlags(values)).toEqual({
      launches: 1200,
      launchesPerBlock: 30,
      swaps: 500,
      swapsPerTransaction: 150,
      foreignPools: 7,
      foreignSwapsPerTransaction: 3,
    });
    expect(values.out).toBe("run-1");
  });

  it("rejects a flag the benchmark does not have", () => {
    expect(() => parseBenchFlags("scale", scaleOptions, ["scale", "--duration-sec", "5"])).toThrow(/Unknown option/);
  });
});
