import { describe, expect, it } from "vitest";
import { pricescaleFor, resolutionOf, udfConfig, udfSymbolInfo, udfSymbolKey } from "./udfDatafeed";

describe("UDF datafeed documents", () => {
  it("pricescale shows six significant digits of the ETH price, 10^2..10^18", () => {
    expect(pricescaleFor(3_755_028_913n)).toBe(1e14);
    expect(pricescaleFor(2n * 10n ** 18n)).toBe(1e5);
    expect(pricescaleFor(123_456n * 10n ** 18n)).toBe(1e2); // 123456 ETH: never below 2 decimals
    expect(pricescaleFor(1n)).toBe(1e18);
    expect(pricescaleFor(0n)).toBe(1e18);
    // 6 significant digits exactly: price × pricescale has 6 integer digits (when 2 <= decimals <= 18).
    for (const wei of [999_999n, 10n ** 12n, 10n ** 12n * 7n + 3n, 5n * 10n ** 17n]) {
      const digits = ((wei * BigInt(pricescaleFor(wei))) / 10n ** 18n).toString().length;
      expect({ wei, digits }).toEqual({ wei, digits: 6 });
    }
  });

  it("reads symbols with or without an exchange prefix, and every accepted resolution", () => {
    expect(udfSymbolKey("evmchain:0xAbC")).toBe("0xAbC");
    expect(udfSymbolKey("pepe")).toBe("pepe");
    expect(["1", "5", "15", "60", "240", "1D", "D", "1m", "5m", "15m", "1h", "4h", "1d"].map(resolutionOf)).toEqual([
      "1m",
      "5m",
      "15m",
      "1h",
      "4h",
      "1d",
      "1d",
      "1m",
      "5m",
      "15m",
      "1h",
      "4h",
      "1d",
    ]);
    expect(["1S", "15S", "1s", "15s"].map(resolutionOf)).toEqual(["1s", "15s", "1s", "15s"]);
    expect(resolutionOf("1W")).toBeNull();
    expect(resolutionOf("5S")).toBeNull();
    expect(resolutionOf("2h")).toBeNull();
  });

  it("advertises what /history accepts", () => {
    const info = udfSymbolInfo({
      address: "0x1d84b75127c5e16b0980f0c678886a13a7bd17fc",
      symbol: "PEPE",
      name: "Pepe",
      slug: "pepe",
      priceWei: 10n ** 18n,
    });
    expect(info.ticker).toBe("0x1D84b75127c5e16B0980f0C678886a13A7bD17Fc");
    expect(info.supported_resolutions).toEqual(udfConfig().supported_resolutions);
    for (const r of info.supported_resolutions) expect(resolutionOf(r)).not.toBeNull();
  });

  it("advertises 1 s and 15 s bars the way TradingView's library reads them (has_seconds, seconds_multipliers, xS)", () => {
    const info = udfSymbolInfo({
      address: "0x1d84b75127c5e16b0980f0c678886a13a7bd17fc",
      symbol: "P",
      name: "P",
      slug: "p",
      priceWei: 1n,
    });
    expect(info.has_seconds).toBe(true);
    expect(info.seconds_multipliers).toEqual(["1", "15"]);
    expect(udfConfig().supported_resolutions.slice(0, 2)).toEqual(["1S", "15S"]);
    for (const m of info.seconds_multipliers) expect(resolutionOf(`${m}S`)).toBe(`${m}s`);
  });
});
