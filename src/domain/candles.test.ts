import { describe, expect, it } from "vitest";
import {
  bucketStartSec,
  countbackStartSec,
  isSecondResolution,
  RESOLUTION_SECONDS,
  RESOLUTIONS,
  secondBarsRetentionStartSec,
  STORED_RESOLUTIONS,
} from "./candles";

describe("bucketStartSec", () => {
  it("floors to the resolution, UTC aligned", () => {
    expect(bucketStartSec(1_700_000_123n, "1m")).toBe(1_700_000_100n);
    expect(bucketStartSec(1_700_000_163n, "1m")).toBe(1_700_000_160n);
    expect(bucketStartSec(1_700_000_463n, "5m")).toBe(1_700_000_400n);
    expect(bucketStartSec(1_700_000_123n, "5m")).toBe(1_700_000_100n);
    expect(bucketStartSec(1_700_000_123n, "15m")).toBe(1_700_000_100n);
    expect(bucketStartSec(1_700_000_123n, "1h")).toBe(1_699_999_200n);
    expect(bucketStartSec(1_700_000_123n, "4h")).toBe(1_699_992_000n);
    // 2023-11-14T22:13:43Z -> 2023-11-14T00:00:00Z
    expect(bucketStartSec(1_700_000_123n, "1d")).toBe(1_699_920_000n);
  });

  it("keeps an exact boundary in its own bucket", () => {
    expect(bucketStartSec(1_699_920_000n, "1d")).toBe(1_699_920_000n);
    expect(bucketStartSec(1_699_919_999n, "1d")).toBe(1_699_833_600n);
  });

  it("lists resolutions shortest first", () => {
    expect(RESOLUTIONS).toEqual(["1s", "15s", "1m", "5m", "15m", "1h", "4h", "1d"]);
    expect(RESOLUTIONS.map((r) => RESOLUTION_SECONDS[r])).toEqual([1, 15, 60, 300, 900, 3600, 14400, 86400]);
  });

  it("stores only minute and longer resolutions; 1s and 15s are second bars", () => {
    expect(STORED_RESOLUTIONS).toEqual(["1m", "5m", "15m", "1h", "4h", "1d"]);
    expect(RESOLUTIONS.filter(isSecondResolution)).toEqual(["1s", "15s"]);
  });

  it("buckets second bars on whole seconds and 15 s edges", () => {
    expect(bucketStartSec(1_700_000_014n, "1s")).toBe(1_700_000_014n);
    expect(bucketStartSec(1_700_000_014n, "15s")).toBe(1_700_000_010n);
    expect(bucketStartSec(1_700_000_010n, "15s")).toBe(1_700_000_010n);
    expect(bucketStartSec(1_700_000_009n, "15s")).toBe(1_699_999_995n);
  });

  it("starts second-bar retention at the first bucket at or after head − 24 h, never before the epoch", () => {
    expect(secondBarsRetentionStartSec("1s", 1_700_086_407)).toBe(1_700_000_007);
    expect(secondBarsRetentionStartSec("15s", 1_700_086_407)).toBe(1_700_000_010);
    expect(secondBarsRetentionStartSec("15s", 1_700_086_410)).toBe(1_700_000_010);
    expect(secondBarsRetentionStartSec("1s", 3_600)).toBe(0);
  });

  it("rejects negative timestamps", () => {
    expect(() => bucketStartSec(-1n, "1m")).toThrow(RangeError);
  });

  it("starts a countback window countback - 1 buckets before its end, never before the epoch", () => {
    expect(countbackStartSec(1_700_000_000, "1m", 3)).toBe(1_699_999_880);
    expect(countbackStartSec(1_700_000_000, "1h", 1)).toBe(1_700_000_000);
    expect(countbackStartSec(100, "1d", 5)).toBe(0);
  });
});
