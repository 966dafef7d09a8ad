import { describe, expect, it } from "vitest";
import { formatAmount, shortAddress } from "./format";

describe("formatAmount", () => {
  it("formats wei exactly, truncating fraction digits", () => {
    expect(formatAmount(1234567890000000000n, 18, 4)).toBe("1.2345");
    expect(formatAmount("1000000000000000000", 18)).toBe("1");
    expect(formatAmount(0n)).toBe("0");
    expect(formatAmount(10n ** 27n)).toBe("1000000000");
  });
  it("keeps four significant digits of tiny amounts", () => {
    expect(formatAmount(3755028913n, 18, 6)).toBe("0.000000003755");
    expect(formatAmount(1n, 18, 6)).toBe("0.000000000000000001");
  });
  it("shortens addresses", () => {
    expect(shortAddress("0x1D84b75127c5e16B0980f0C678886a13A7bD17Fc")).toBe("0x1D84…17Fc");
  });
});
