import { describe, expect, it } from "vitest";
import { isToken0, marketCapWei, orientSwap, priceWeiPerToken, Q192, swapSide } from "./price";

const Q96 = 1n << 96n;

describe("priceWeiPerToken", () => {
  it("is 1 ETH per token at sqrtPriceX96 = 2^96 in both orientations", () => {
    expect(priceWeiPerToken(Q96, true)).toBe(10n ** 18n);
    expect(priceWeiPerToken(Q96, false)).toBe(10n ** 18n);
  });

  it("squares the ratio for token0 and inverts it for token1", () => {
    expect(priceWeiPerToken(Q96 * 2n, true)).toBe(4n * 10n ** 18n);
    expect(priceWeiPerToken(Q96 * 2n, false)).toBe(250_000_000_000_000_000n);
    // 1e18 / 9, floored
    expect(priceWeiPerToken(Q96 * 3n, false)).toBe(111_111_111_111_111_111n);
  });

  it("floors an irrational-looking ratio exactly", () => {
    // sqrtP = 2^96 + 1: price0 = (2^192 + 2^97 + 1) * 1e18 / 2^192
    const sqrt = Q96 + 1n;
    const expected0 = 10n ** 18n + (((1n << 97n) + 1n) * 10n ** 18n) / Q192;
    expect(priceWeiPerToken(sqrt, true)).toBe(expected0);
    // Inverse is just below 1e18: 1e18 * 2^192 / (2^192 + 2^97 + 1) < 1e18
    expect(priceWeiPerToken(sqrt, false)).toBe(10n ** 18n - 1n);
  });

  it("respects token decimals", () => {
    expect(priceWeiPerToken(Q96, true, 6)).toBe(10n ** 6n);
  });

  it("rejects a non-positive sqrt price", () => {
    expect(() => priceWeiPerToken(0n, true)).toThrow(RangeError);
  });
});

describe("marketCapWei", () => {
  it("multiplies price per whole token by whole supply", () => {
    expect(marketCapWei(3_000_000_000n, 10n ** 27n)).toBe(3n * 10n ** 18n);
    expect(marketCapWei(1n, 10n ** 17n)).toBe(0n);
  });
});

describe("isToken0", () => {
  it("orders addresses as numbers, case-insensitively", () => {
    const low = "0x00000000000000000000000000000000000000aB";
    const high = "0xC000000000000000000000000000000000000000";
    expect(isToken0(low, high)).toBe(true);
    expect(isToken0(high, low)).toBe(false);
    expect(isToken0("0xabcdef0000000000000000000000000000000000", "0xABCDEF0000000000000000000000000000000001")).toBe(
      true,
    );
  });
});

describe("orientSwap", () => {
  it("reads a buy when the token leaves the pool, in both orientations", () => {
    expect(orientSwap(-5n, 7n, true)).toEqual({ side: "buy", tokenAmount: 5n, ethAmountWei: 7n });
    expect(orientSwap(7n, -5n, false)).toEqual({ side: "buy", tokenAmount: 5n, ethAmountWei: 7n });
  });
  it("reads a sell when the token enters the pool", () => {
    expect(orientSwap(5n, -7n, true)).toEqual({ side: "sell", tokenAmount: 5n, ethAmountWei: 7n });
    expect(orientSwap(-7n, 5n, false)).toEqual({ side: "sell", tokenAmount: 5n, ethAmountWei: 7n });
  });
  it("reads a zero-token swap from the WETH delta, in both orientations", () => {
    // 1 wei of WETH in, 0 tokens out (the fee took it all): a buy.
    expect(orientSwap(0n, 1n, true)).toEqual({ side: "buy", tokenAmount: 0n, ethAmountWei: 1n });
    expect(orientSwap(1n, 0n, false)).toEqual({ side: "buy", tokenAmount: 0n, ethAmountWei: 1n });
    expect(orientSwap(0n, -3n, true)).toEqual({ side: "sell", tokenAmount: 0n, ethAmountWei: 3n });
    expect(orientSwap(-3n, 0n, false)).toEqual({ side: "sell", tokenAmount: 0n, ethAmountWei: 3n });
  });
});

describe("swapSide", () => {
  it("follows the token delta when the token moved, whatever the WETH delta", () => {
    expect(swapSide(-1n, 1n)).toBe("buy");
    expect(swapSide(-1n, 0n)).toBe("buy");
    expect(swapSide(1n, -1n)).toBe("sell");
    expect(swapSide(1n, 0n)).toBe("sell");
    expect(swapSide(1n, 5n)).toBe("sell");
  });
  it("follows the WETH delta when no token moved", () => {
    expect(swapSide(0n, 1n)).toBe("buy");
    expect(swapSide(0n, 10n ** 18n)).toBe("buy");
    expect(swapSide(0n, -1n)).toBe("sell");
    expect(swapSide(0n, 0n)).toBe("sell");
  });
});
