import { describe, expect, it } from "vitest";
import { feeGrowthInsideX128, uncollectedAmount } from "./uncollectedFees";

const MAX_256 = (1n << 256n) - 1n;

describe("feeGrowthInsideX128 (Tick.getFeeGrowthInside)", () => {
  it("takes the outside growth below and above the range as the current tick sees it", () => {
    // Current tick inside the range: global minus both outsides.
    expect(feeGrowthInsideX128(0, 1_000n, -200, 100n, 200, 300n)).toBe(600n);
    // Current tick below the range: the lower tick's outside counts from the other side.
    expect(feeGrowthInsideX128(-400, 1_000n, -200, 100n, 200, 300n)).toBe((1n << 256n) - 200n); // 1,000 - 900 - 300, wrapped
    // At the upper tick the range is not active (upper bound exclusive).
    expect(feeGrowthInsideX128(200, 1_000n, -200, 100n, 200, 300n)).toBe(1_000n - 100n - (1_000n - 300n));
  });

  it("wraps modulo 2^256 as the unchecked contract arithmetic does", () => {
    // Outside growth initialised above the global value (a tick crossed after growth): the
    // difference is negative in integers and wraps.
    expect(feeGrowthInsideX128(0, 10n, -200, 20n, 200, 0n)).toBe(MAX_256 + 1n - 10n);
  });
});

describe("uncollectedAmount (NonfungiblePositionManager.collect)", () => {
  it("adds the owed amount and the accrued fees, floored per Q128 division", () => {
    const q128 = 1n << 128n;
    expect(uncollectedAmount(5n, q128, 30n, 10n)).toBe(25n);
    expect(uncollectedAmount(0n, 3n, q128 - 1n, 0n)).toBe(2n); // floor((2^128-1)*3 / 2^128)
    expect(uncollectedAmount(7n, 0n, 1_000n, 0n)).toBe(7n); // no liquidity: no poke, owed only
    // Growth wrapped past 2^256 since the last update still counts as the small difference.
    expect(uncollectedAmount(0n, q128, 5n, MAX_256)).toBe(6n);
  });
});
