import { describe, expect, it } from "vitest";
import { graduationProgressBps, priceChangeBps } from "./market";

const ETH = 10n ** 18n;

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
