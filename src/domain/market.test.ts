import { describe, expect, it } from "vitest";
import { graduationProgressBps, priceChangeBps, TRENDING_DECAY_PPM, trendingScore } from "./market";

const ETH = 10n ** 18n;

describe("trendingScore", () => {
  it("has an exact decay table halving every 6 hours", () => {
    expect(TRENDING_DECAY_PPM).toHaveLength(24);
    expect(TRENDING_DECAY_PPM[0]).toBe(1_000_000n);
    expect(TRENDING_DECAY_PPM[1]).toBe(890_899n);
    expect(TRENDING_DECAY_PPM[6]).toBe(500_000n);
    expect(TRENDING_DECAY_PPM[12]).toBe(250_000n);
    expect(TRENDING_DECAY_PPM[23]).toBe(70_154n);
  });
  it("weights volume and trades by age", () => {
    const now = 100 * 3600 + 1800; // inside hour 100
    const score = trendingScore(
      [
        { bucketStartSec: 100n * 3600n, volumeWei: ETH, tradeCount: 2 }, // age 0: 1.02 ETH
        { bucketStartSec: 94n * 3600n, volumeWei: 2n * ETH, tradeCount: 0 }, // age 6: 1 ETH
        { bucketStartSec: 76n * 3600n, volumeWei: 100n * ETH, tradeCount: 9 }, // age 24: out
        { bucketStartSec: 101n * 3600n, volumeWei: 100n * ETH, tradeCount: 9 }, // future: out
      ],
      now,
    );
    expect(score).toBe(1_020_000_000_000_000_000n + ETH);
  });
  it("is zero without recent buckets", () => {
    expect(trendingScore([], 1_700_000_000)).toBe(0n);
  });
});

describe("graduationProgressBps", () => {
  it("floors and caps", () => {
    expect(graduationProgressBps(3_070_000_000_000_000_000n, 10n * ETH)).toBe(3070);
    expect(graduationProgressBps(9_999_999_999_999_999_999n, 10n * ETH)).toBe(9999);
    expect(graduationProgressBps(11n * ETH, 10n * ETH)).toBe(10_000);
    expect(graduationProgressBps(1n, 0n)).toBe(10_000);
  });
});

describe("priceChangeBps", () => {
  it("is signed and truncates toward zero", () => {
    expect(priceChangeBps(150n, 100n)).toBe(5000);
    expect(priceChangeBps(50n, 100n)).toBe(-5000);
    expect(priceChangeBps(100_001n, 300_000n)).toBe(-6666);
    expect(priceChangeBps(1n, null)).toBeNull();
    expect(priceChangeBps(1n, 0n)).toBeNull();
  });
});
