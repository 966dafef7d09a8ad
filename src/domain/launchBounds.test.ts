import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { gasLimitWithMargin, MAX_FIRST_BUY_WEI } from "./launchBounds";

describe("launch bounds", () => {
  it("adds 30% and 100,000 gas to an estimate, rounding down", () => {
    expect(gasLimitWithMargin(1_000_000n)).toBe(1_400_000n);
    expect(gasLimitWithMargin(7n)).toBe(100_009n);
  });
  it("caps the first buy at 100 ETH in wei", () => {
    expect(MAX_FIRST_BUY_WEI).toBe(parseEther("100"));
  });
});
