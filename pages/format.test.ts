import { describe, expect, it } from "vitest";
import { bpsToPercent, compactNumberText, compactPrice, formatAmount, percentToBps, shortAddress } from "./format";

describe("formatAmount", () => {
  it("formats base units exactly, truncating fraction digits and grouping thousands", () => {
    expect(formatAmount(1234567890000000000n, 18, 4)).toBe("1.2345");
    expect(formatAmount("1000000000000000000", 18)).toBe("1");
    expect(formatAmount(0n)).toBe("0");
    expect(formatAmount(10n ** 27n)).toBe("1,000,000,000");
    expect(formatAmount(20214988733848086916022490n, 18, 2)).toBe("20,214,988.73");
    // Beyond a float's 15-17 digits: still exact.
    expect(formatAmount(123456789012345678901234567n, 18, 9)).toBe("123,456,789.012345678");
  });
  it("keeps four significant digits of tiny amounts", () => {
    expect(formatAmount(3755028913n, 18, 6)).toBe("0.000000003755");
    expect(formatAmount(1n, 18, 6)).toBe("0.000000000000000001");
  });
  it("shortens addresses", () => {
    expect(shortAddress("0x1D84b75127c5e16B0980f0C678886a13A7bD17Fc")).toBe("0x1D84…17Fc");
  });
});

describe("compactPrice", () => {
  it("writes long zero runs as a subscript count, four significant digits", () => {
    expect(compactPrice(3755028913n)).toBe("0.0₈3755");
    expect(compactPrice(1234567000000000000n)).toBe("1.234");
    expect(compactPrice(12345000000000000n)).toBe("0.01234");
    expect(compactPrice(0n)).toBe("0");
    expect(compactNumberText(3.755028913e-9)).toBe("0.0₈3755");
    expect(compactNumberText("0.00000000000012")).toBe("0.0₁₂12");
  });
});

describe("percentToBps", () => {
  it("converts a typed percentage to exact basis points", () => {
    expect(percentToBps("0.5")).toBe(50);
    expect(percentToBps("3")).toBe(300);
    expect(percentToBps("12.25")).toBe(1225);
    expect(percentToBps("0.07")).toBe(7);
    expect(percentToBps(" 50 ")).toBe(5000);
  });
  it("refuses what is not a percentage with at most two decimals", () => {
    for (const bad of ["", "abc", "0.555", "-1", "1e2", "1.2.3"]) expect(percentToBps(bad)).toBeNull();
  });
  it("round-trips through bpsToPercent", () => {
    for (const bps of [0, 7, 50, 300, 1225, 5000]) expect(percentToBps(bpsToPercent(bps))).toBe(bps);
  });
});
