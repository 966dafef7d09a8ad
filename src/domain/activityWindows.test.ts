import { describe, expect, it } from "vitest";
import {
  activityWindowsOf,
  trendingScoreOf,
  windowActivityWei,
  windowCutoffSec,
  windowRecord,
  type WindowTrade,
} from "./activityWindows";

const NOW = 1_000_000;
const trade = (over: Partial<WindowTrade> & { timestampSec: bigint; blockNumber: bigint }): WindowTrade => ({
  side: "buy",
  trader: "0xAa00000000000000000000000000000000000001",
  ethAmountWei: 1n,
  ethAmountUsdE18: 10n,
  priceWei: 100n,
  logIndex: 0,
  ...over,
});

describe("activity windows", () => {
  it("cut at now − 300, 3,600, 21,600 and 86,400 seconds", () => {
    expect(windowCutoffSec(NOW, "m5")).toBe(NOW - 300);
    expect(windowCutoffSec(NOW, "h1")).toBe(NOW - 3_600);
    expect(windowCutoffSec(NOW, "h6")).toBe(NOW - 21_600);
    expect(windowCutoffSec(NOW, "h24")).toBe(NOW - 86_400);
  });

  it("count a trade at the cutoff second out and one a second later in, with the price then at the edge", () => {
    const cutoff = BigInt(NOW - 300);
    const trades = [
      trade({ timestampSec: cutoff - 1n, blockNumber: 1n, priceWei: 90n, ethAmountWei: 5n }),
      // Ten blocks share a second at 100 ms blocks: all of the cutoff's second is outside.
      trade({ timestampSec: cutoff, blockNumber: 2n, priceWei: 95n, ethAmountWei: 7n }),
      trade({ timestampSec: cutoff, blockNumber: 3n, logIndex: 4, priceWei: 96n, ethAmountWei: 11n }),
      trade({ timestampSec: cutoff + 1n, blockNumber: 4n, priceWei: 120n, ethAmountWei: 13n, ethAmountUsdE18: null }),
      trade({
        timestampSec: cutoff + 1n,
        blockNumber: 4n,
        logIndex: 1,
        side: "sell",
        trader: "0xbb00000000000000000000000000000000000002",
        priceWei: 110n,
        ethAmountWei: 17n,
      }),
    ];
    // Given out of order: the definition orders by (block, log index).
    const w = activityWindowsOf([...trades].reverse(), NOW, 50n);
    expect(w.m5).toEqual({
      priceThenWei: 96n,
      volumeWei: 30n,
      volumeUsdE18: 10n, // the trade without an ETH/USD adds 0
      buys: 1,
      sells: 1,
      uniqueBuyers: 1,
      uniqueSellers: 1,
    });
    // Every trade is inside the longer windows; no trade at or before their cutoff: the launch price.
    expect(w.h1).toMatchObject({ priceThenWei: 50n, volumeWei: 53n, buys: 4, sells: 1, uniqueBuyers: 1 });
    expect(w.h24).toEqual(w.h6);
  });

  it("count unique traders case-insensitively and per side", () => {
    const a = "0xAa00000000000000000000000000000000000001";
    const trades = [
      trade({ timestampSec: BigInt(NOW), blockNumber: 1n, trader: a }),
      trade({ timestampSec: BigInt(NOW), blockNumber: 2n, trader: a.toLowerCase() }),
      trade({ timestampSec: BigInt(NOW), blockNumber: 3n, trader: a, side: "sell" }),
      trade({ timestampSec: BigInt(NOW), blockNumber: 4n, trader: "0xcc00000000000000000000000000000000000003" }),
    ];
    expect(activityWindowsOf(trades, NOW, 1n).m5).toMatchObject({
      buys: 3,
      sells: 1,
      uniqueBuyers: 2,
      uniqueSellers: 1,
    });
  });

  it("serve zero figures and the launch price without trades", () => {
    const w = activityWindowsOf([], NOW, 77n);
    expect(windowRecord(w.h24, 77n)).toEqual({
      price_then_wei: 77n,
      price_change_bps: 0,
      volume_wei: 0n,
      buys: 0,
      sells: 0,
      unique_buyers: 0,
      unique_sellers: 0,
    });
  });

  it("truncate the price change toward zero, null when the price then is 0", () => {
    const w = activityWindowsOf([], NOW, 3n);
    expect(windowRecord(w.m5, 4n).price_change_bps).toBe(3_333); // +33.33… %
    expect(windowRecord(w.m5, 2n).price_change_bps).toBe(-3_333); // −33.33… %, not −3,334
    expect(windowRecord(activityWindowsOf([], NOW, 0n).m5, 5n).price_change_bps).toBeNull();
  });
});

describe("trending score", () => {
  const window = (volumeWei: bigint, buys: number, sells: number) => ({
    priceThenWei: 1n,
    volumeWei,
    volumeUsdE18: 0n,
    buys,
    sells,
    uniqueBuyers: 0,
    uniqueSellers: 0,
  });
  it("sums each window's activity per hour, flooring each term", () => {
    const ETH = 10n ** 18n;
    const score = trendingScoreOf({
      m5: window(ETH, 1, 0), // 1.01 ETH × 12
      h1: window(2n * ETH, 1, 1), // 2.02 ETH
      h6: window(7n, 0, 0), // ⌊7 / 6⌋ = 1 wei
      h24: window(47n, 0, 0), // ⌊47 / 24⌋ = 1 wei
    });
    expect(score).toBe(12n * (ETH + 10n ** 16n) + 2n * ETH + 2n * 10n ** 16n + 1n + 1n);
  });
  it("weights a trade of the last five minutes above a larger one of earlier today", () => {
    const recent = window(10n ** 17n, 1, 0);
    const none = window(0n, 0, 0);
    const old = window(10n ** 18n, 1, 0);
    const recentScore = trendingScoreOf({ m5: recent, h1: recent, h6: recent, h24: recent });
    const oldScore = trendingScoreOf({ m5: none, h1: none, h6: none, h24: old });
    expect(recentScore).toBeGreaterThan(oldScore);
    expect(windowActivityWei(recent)).toBe(11n * 10n ** 16n);
    expect(trendingScoreOf({ m5: none, h1: none, h6: none, h24: none })).toBe(0n);
  });
});
