/**
 * Exact tests of the DexScreener presenters: `priceNative` against hand-computed values, and the
 * swap mapping onto asset0/asset1 in both pool orientations (exactly one in and one out side).
 */
import { describe, expect, it } from "vitest";
import { orientSwap } from "../src/domain/price";
import { priceNative, sortEvents, swapEvent, type DsEvent } from "./dexscreener";

const TOKEN = "0x1111111111111111111111111111111111111111";
const WETH = "0x2222222222222222222222222222222222222222";
const Q96 = 2n ** 96n;

describe("priceNative", () => {
  it("is sqrtPriceX96^2 / 2^192 in whole units, floored at 40 decimals", () => {
    expect(priceNative(Q96, 18, 18)).toBe("1");
    expect(priceNative(Q96 / 2n, 18, 18)).toBe("0.25");
    expect(priceNative(Q96 * 3n, 18, 18)).toBe("9");
    // decimals adjust: 1 raw unit of a 6-decimals asset0 per raw unit of an 18-decimals asset1.
    expect(priceNative(Q96, 6, 18)).toBe("0.000000000001");
    expect(priceNative(Q96, 18, 6)).toBe("1000000000000");
  });

  it("is never 0 for the smallest sqrt price a V3 pool allows", () => {
    const MIN_SQRT_RATIO = 4295128739n;
    const p = priceNative(MIN_SQRT_RATIO, 18, 18);
    expect(p).not.toBe("0");
    expect(p.startsWith("0.00000000000000000000000000000000000000")).toBe(true);
  });

  it("rejects a non-positive sqrt price", () => {
    expect(() => priceNative(0n, 18, 18)).toThrow(RangeError);
  });
});

describe("swapEvent", () => {
  const trade = {
    id: "0xaa-3",
    token: TOKEN,
    pool: "0x3333333333333333333333333333333333333333",
    side: "buy",
    trader: "0x4444444444444444444444444444444444444444",
    recipient: "0x4444444444444444444444444444444444444444",
    tokenAmount: 1_500_000_000_000_000_000n,
    ethAmountWei: 20_000_000_000_000_000n,
    sqrtPriceX96: Q96,
    tick: 0,
    priceWei: 0n,
    marketCapWei: 0n,
    reserveWeiAfter: 1_000_000_000_000_000_000n,
    reserveTokenAfter: 5n,
    blockNumber: 12n,
    logIndex: 3,
    txIndex: 1,
    timestampSec: 1_700_000_000n,
    txHash: "0xaa",
    ethUsdSqrtPriceX96: null,
    ethPriceUsdE18: null,
    ethAmountUsdE18: null,
    priceUsdE18: null,
    marketCapUsdE18: null,
  } as const;

  it("maps a buy with the token as token0: WETH (asset1) in, token (asset0) out", () => {
    const e = swapEvent({ ...trade }, { address: TOKEN, weth: WETH, tokenIsToken0: true, decimals: 18 });
    expect(e).toMatchObject({
      asset1In: "0.02",
      asset0Out: "1.5",
      reserves: { asset0: "0.000000000000000005", asset1: "1" },
    });
    expect(e.asset0In).toBeUndefined();
    expect(e.asset1Out).toBeUndefined();
    expect(e).toMatchObject({
      eventType: "swap",
      txnIndex: 1,
      eventIndex: 3,
      block: { blockNumber: 12, blockTimestamp: 1_700_000_000 },
    });
  });

  it("maps a sell with the token as token1: token (asset1) in, WETH (asset0) out", () => {
    const e = swapEvent({ ...trade, side: "sell" }, { address: TOKEN, weth: WETH, tokenIsToken0: false, decimals: 18 });
    expect(e).toMatchObject({
      asset1In: "1.5",
      asset0Out: "0.02",
      reserves: { asset0: "1", asset1: "0.000000000000000005" },
    });
    expect(
      Object.keys(e)
        .filter((k) => /^asset[01](In|Out)$/.test(k))
        .sort(),
    ).toEqual(["asset0Out", "asset1In"]);
  });

  it("reports a zero-token buy (1 wei of WETH in, 0 tokens out) as WETH in, in both orientations", () => {
    for (const tokenIsToken0 of [true, false]) {
      // Pool deltas: WETH +1 wei, token 0 (the 1 % fee took the whole input).
      const swap = tokenIsToken0 ? orientSwap(0n, 1n, true) : orientSwap(1n, 0n, false);
      const e = swapEvent({ ...trade, ...swap }, { address: TOKEN, weth: WETH, tokenIsToken0, decimals: 18 });
      const wethAsset = tokenIsToken0 ? "asset1" : "asset0";
      const tokenAsset = tokenIsToken0 ? "asset0" : "asset1";
      expect(e).toMatchObject({ [`${wethAsset}In`]: "0.000000000000000001", [`${tokenAsset}Out`]: "0" });
      expect(e[`${tokenAsset}In` as keyof typeof e]).toBeUndefined();
    }
  });

  it("orders events by block, transaction index, event index", () => {
    const mk = (b: number, t: number, i: number) =>
      ({ block: { blockNumber: b, blockTimestamp: 0 }, txnIndex: t, eventIndex: i }) as DsEvent;
    const sorted = sortEvents([mk(2, 0, 1), mk(1, 1, 0), mk(1, 0, 5), mk(1, 0, 2)]);
    expect(sorted.map((e) => [e.block.blockNumber, e.txnIndex, e.eventIndex])).toEqual([
      [1, 0, 2],
      [1, 0, 5],
      [1, 1, 0],
      [2, 0, 1],
    ]);
  });
});
