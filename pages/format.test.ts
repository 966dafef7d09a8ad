import { describe, expect, it } from "vitest";
import {
  bpsToPercent,
  changeText,
  compactNumberText,
  compactPrice,
  explorerLink,
  formatAmount,
  percentToBps,
  relativeTime,
  shareText,
  shortAddress,
  timeTickLabel,
  usdText,
  utcTime,
} from "./format";

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
    expect(formatAmount(3755028913n, 18, 6)).toBe("0.0₈3755");
    expect(formatAmount(1n, 18, 6)).toBe("0.0₁₇1");
    expect(formatAmount(-3755028913n, 18, 6)).toBe("-0.0₈3755");
    // Two or fewer zeros after the point fit the digits allowed: no subscript.
    expect(formatAmount(1234n * 10n ** 12n, 18, 2)).toBe("0.001234");
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

describe("relativeTime", () => {
  it("says how long ago in the largest whole unit", () => {
    const now = 1_764_148_211;
    expect(relativeTime(now, now)).toBe("just now");
    expect(relativeTime(now + 30, now)).toBe("just now"); // a browser clock behind the chain
    expect(relativeTime(now - 42, now)).toBe("42 s ago");
    expect(relativeTime(now - 125, now)).toBe("2 min ago");
    expect(relativeTime(now - 3599, now)).toBe("59 min ago");
    expect(relativeTime(now - 5 * 3600 - 10, now)).toBe("5 h ago");
    expect(relativeTime(now - 3 * 86_400, now)).toBe("3 d ago");
  });
  it("gives the absolute time in UTC next to it", () => {
    expect(utcTime(1_764_148_211)).toBe("2025-11-26 09:10:11 UTC");
  });
});

describe("changeText", () => {
  it("signs the 24 h change and keeps two decimals", () => {
    expect(changeText(1234)).toBe("+12.34 %");
    expect(changeText(-50)).toBe("-0.50 %");
    expect(changeText(0)).toBe("0.00 %");
    expect(changeText(250_000)).toBe("+2500.00 %");
    expect(changeText(null)).toBe("—");
  });
});

describe("chart axis labels", () => {
  const t = Date.UTC(2025, 10, 26, 9, 5, 7) / 1000;
  it("are short for every tick kind (never cut to '23:')", () => {
    expect(timeTickLabel(t, 0)).toBe("2025");
    expect(timeTickLabel(t, 1)).toBe("Nov");
    expect(timeTickLabel(t, 2)).toBe("26 Nov");
    expect(timeTickLabel(t, 3)).toBe("09:05");
    expect(timeTickLabel(t, 4)).toBe("09:05:07");
    for (const kind of [0, 1, 2, 3, 4]) expect(timeTickLabel(t, kind).length).toBeLessThanOrEqual(8);
  });
  it("price labels are compact at every magnitude", () => {
    expect(compactNumberText(0.000_001_234_56)).toBe("0.0₅1234");
    expect(compactNumberText(0.012_345)).toBe("0.01234");
    expect(compactNumberText(1234.5678)).toBe("1,234");
    expect(compactNumberText(1e-18)).toBe("0.0₁₇1");
    for (const v of [1e-15, 3.3e-9, 0.5, 12.3456, 98765.4321])
      expect(compactNumberText(v).length).toBeLessThanOrEqual(9);
  });
});

describe("explorerLink", () => {
  it("links addresses and transactions under the configured explorer, nothing without one", () => {
    expect(explorerLink("https://scan.example/", "tx", "0xab")).toBe("https://scan.example/tx/0xab");
    expect(explorerLink("https://scan.example/base", "address", "0x12")).toBe("https://scan.example/base/address/0x12");
    expect(explorerLink(undefined, "tx", "0xab")).toBeNull();
    expect(explorerLink("", "address", "0x12")).toBeNull();
  });
});

describe("usdText", () => {
  it("writes dollars and cents from $1, the compact form below, and nothing without a value", () => {
    expect(usdText("1234.5678")).toBe("$1,234.57");
    expect(usdText("3000")).toBe("$3,000.00");
    expect(usdText("0.5")).toBe("$0.5");
    expect(usdText("0.000000003755028913")).toBe("$0.0₈3755");
    expect(usdText(null)).toBeNull();
    expect(usdText(undefined)).toBeNull();
    expect(usdText("not a number")).toBeNull();
  });
});

describe("shareText", () => {
  it("writes a holder's share of the supply in percent, never 0 % for a holder", () => {
    expect(shareText(1234)).toBe("12.34 %");
    expect(shareText(10_000)).toBe("100 %");
    expect(shareText(50)).toBe("0.5 %");
    expect(shareText(1)).toBe("0.01 %");
    expect(shareText(0)).toBe("< 0.01 %");
  });
});
