import { describe, expect, it } from "vitest";
import { loadPublicConfig } from "../config/public";
import { ETH_USD_STALE_AFTER_SEC } from "../config/usdFreshness";
import { tokenRecord } from "./tokenRecord";
import { ethUsdAgeAt, type EthUsdNow } from "./tokenStats";

/** 3,000 USD/ETH with WETH as token0 and a 6-decimal stablecoin: sqrtP² / 2^192 × 10^12 ≈ 3000. */
const ref: EthUsdNow = {
  sqrtPriceX96: 4339505179874779489431521n, // sqrt(3000 × 10^-12) × 2^96, floored
  wethIsToken0: true,
  stablecoinDecimals: 6,
  timestampSec: 1_000_000n,
};

describe("ETH/USD staleness", () => {
  it("uses the one-hour threshold of the common ETH/USD oracle heartbeats by default", () => {
    expect(ETH_USD_STALE_AFTER_SEC).toBe(3_600);
    expect(ethUsdAgeAt(ref, 1_003_601)).toMatchObject({ ageSec: 3_601, stale: true });
    expect(ethUsdAgeAt(ref, 1_003_600)).toMatchObject({ ageSec: 3_600, stale: false });
  });

  it("is stale only past the threshold, and a head before the price's block counts as age 0", () => {
    expect(ethUsdAgeAt(ref, 1_003_600, 3_600)).toMatchObject({ ageSec: 3_600, stale: false });
    expect(ethUsdAgeAt(ref, 1_003_601, 3_600)).toMatchObject({ ageSec: 3_601, stale: true });
    expect(ethUsdAgeAt(ref, 999_990, 3_600)).toMatchObject({ ageSec: 0, stale: false });
  });

  it("the token record says how old its ETH/USD is and whether it is stale, with non-zero USD figures", () => {
    const row = {
      address: "0x1d84b75127c5e16b0980f0c678886a13a7bd17fc",
      weth: "0x4200000000000000000000000000000000000006",
      creator: "0x1d84b75127c5e16b0980f0c678886a13a7bd17fc",
      factory: "0x1d84b75127c5e16b0980f0c678886a13a7bd17fc",
      pool: "0x1d84b75127c5e16b0980f0c678886a13a7bd17fc",
      tokenIsToken0: false,
      decimals: 18,
      priceWei: 1n, // the smallest non-zero price a record can hold
      marketCapWei: 10n ** 9n,
      reserveWei: 0n,
      reserveToken: 0n,
      volumeUsdE18: 0n,
      graduatedAtSec: null,
      lastTradeTimestampSec: null,
      positionIdsCsv: "",
      launchBlockNumber: 1n,
      launchTimestampSec: 1n,
      name: "Coin",
      symbol: "COIN",
    } as unknown as Parameters<typeof tokenRecord>[0];
    const settings = { publicBaseUrl: "https://svc.example", publicConfig: loadPublicConfig({}) };
    const fresh = tokenRecord({ ...row, ethUsd: ethUsdAgeAt(ref, 1_000_060, 3_600) }, settings);
    expect(fresh).toMatchObject({ usd_source_age_sec: 60, usd_stale: false });
    expect(Number(fresh.price_usd)).toBeGreaterThan(0);
    expect(Number(fresh.eth_price_usd)).toBeCloseTo(3000, 6);
    const stale = tokenRecord({ ...row, ethUsd: ethUsdAgeAt(ref, 1_007_200, 3_600) }, settings);
    expect(stale).toMatchObject({ usd_source_age_sec: 7_200, usd_stale: true });
    const none = tokenRecord({ ...row, ethUsd: null }, settings);
    expect(none).toMatchObject({ usd_source_age_sec: null, usd_stale: null, price_usd: null });
  });
});
