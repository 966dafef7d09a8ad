import { describe, expect, it } from "vitest";
import { Q192 } from "./price";
import {
  addOrNull,
  ethUsdE18,
  formatUsd,
  formatUsdOrNull,
  maxOrNull,
  minOrNull,
  weiToUsdE18,
  wethIsToken0Of,
} from "./usd";

const Q96 = 1n << 96n;
const E18 = 10n ** 18n;
const usdc0 = { wethIsToken0: false, stablecoinDecimals: 6 }; // stablecoin token0, WETH token1
const usdc1 = { wethIsToken0: true, stablecoinDecimals: 6 }; // WETH token0, stablecoin token1

/** Integer square root (Newton), to build a pool price from a target ETH/USD. */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

describe("weiToUsdE18", () => {
  it("is 1e12 USD per ETH at sqrtPriceX96 = 2^96 with 6 decimals, in both orientations", () => {
    // 1 stablecoin base unit per wei: 1e18 wei = 1e18 units = 1e12 coins.
    expect(weiToUsdE18(E18, Q96, usdc1)).toBe(10n ** 12n * E18);
    expect(weiToUsdE18(E18, Q96, usdc0)).toBe(10n ** 12n * E18);
  });

  it("squares the ratio when WETH is token0 and inverts it when WETH is token1", () => {
    expect(weiToUsdE18(E18, Q96 * 2n, usdc1)).toBe(4n * 10n ** 12n * E18);
    expect(weiToUsdE18(E18, Q96 * 2n, usdc0)).toBe((10n ** 12n * E18) / 4n);
    // 1e30 / 9, floored
    expect(weiToUsdE18(E18, Q96 * 3n, usdc0)).toBe(111_111_111_111_111_111_111_111_111_111n);
  });

  it("gives ~3,000 USD per ETH for a realistic pool in both token orderings", () => {
    const wethToken0 = isqrt((3_000n * 10n ** 6n * Q192) / E18);
    const wethToken1 = isqrt((E18 * Q192) / (3_000n * 10n ** 6n));
    expect(wethToken0).toBe(4339505179874779489431521n);
    expect(wethToken1).toBe(1446501726624926496477173928747177n);
    expect(ethUsdE18(wethToken0, usdc1)).toBe(2_999_999_999_999_999_999_999n);
    expect(ethUsdE18(wethToken1, usdc0)).toBe(3_000_000_000_000_000_000_000n);
    // 0.075 ETH at that price
    expect(formatUsd(weiToUsdE18(75_000_000_000_000_000n, wethToken1, usdc0))).toBe("225");
  });

  it("floors: the result is the largest integer not above the exact rational, in both orientations", () => {
    let seed = 12345n;
    const next = () => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
      return seed;
    };
    for (let i = 0; i < 200; i++) {
      const wei = next() * (next() % 1000n);
      const sqrt = (next() << 40n) | 1n;
      const decimals = Number(next() % 19n);
      const unit = 10n ** BigInt(decimals);
      const up = weiToUsdE18(wei, sqrt, { wethIsToken0: true, stablecoinDecimals: decimals });
      // up ≤ wei × s² × 1e18 / (2^192 × 10^d) < up + 1
      expect(up * Q192 * unit <= wei * sqrt * sqrt * E18).toBe(true);
      expect((up + 1n) * Q192 * unit > wei * sqrt * sqrt * E18).toBe(true);
      const down = weiToUsdE18(wei, sqrt, { wethIsToken0: false, stablecoinDecimals: decimals });
      expect(down * sqrt * sqrt * unit <= wei * Q192 * E18).toBe(true);
      expect((down + 1n) * sqrt * sqrt * unit > wei * Q192 * E18).toBe(true);
    }
  });

  it("depends on the stablecoin's decimals", () => {
    expect(weiToUsdE18(E18, Q96, { wethIsToken0: true, stablecoinDecimals: 18 })).toBe(E18);
  });

  it("is 0 for 0 wei and rejects a non-positive price or a negative amount", () => {
    expect(weiToUsdE18(0n, Q96, usdc1)).toBe(0n);
    expect(() => weiToUsdE18(1n, 0n, usdc1)).toThrow(RangeError);
    expect(() => weiToUsdE18(-1n, Q96, usdc1)).toThrow(RangeError);
  });
});

describe("formatUsd", () => {
  it("prints 18 decimal places without trailing zeros", () => {
    expect(formatUsd(3_000n * E18)).toBe("3000");
    expect(formatUsd(11_265_000_000_000n)).toBe("0.000011265");
    expect(formatUsd(2_999_999_999_999_999_999_999n)).toBe("2999.999999999999999999");
    expect(formatUsd(1n)).toBe("0.000000000000000001");
    expect(formatUsd(0n)).toBe("0");
  });

  it("keeps null as null (no reference price), never 0", () => {
    expect(formatUsdOrNull(null)).toBeNull();
    expect(formatUsdOrNull(undefined)).toBeNull();
    expect(formatUsdOrNull(0n)).toBe("0");
  });
});

describe("wethIsToken0Of", () => {
  const weth = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2";
  const usdc = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
  it("finds WETH on either side, case-insensitively", () => {
    expect(wethIsToken0Of(usdc, weth.toLowerCase(), weth)).toBe(false);
    expect(wethIsToken0Of(weth, usdc, weth.toLowerCase())).toBe(true);
  });
  it("rejects a pool without WETH", () => {
    expect(() => wethIsToken0Of(usdc, usdc, weth)).toThrow(/not a WETH pair/);
  });
});

describe("nullable candle aggregates", () => {
  it("ignore a null side and stay null only when both are", () => {
    expect(maxOrNull(null, 5n)).toBe(5n);
    expect(maxOrNull(7n, 5n)).toBe(7n);
    expect(maxOrNull(3n, null)).toBe(3n);
    expect(minOrNull(7n, 5n)).toBe(5n);
    expect(minOrNull(null, null)).toBeNull();
    expect(addOrNull(null, 5n)).toBe(5n);
    expect(addOrNull(2n, 5n)).toBe(7n);
    expect(addOrNull(null, null)).toBeNull();
  });
});
