/**
 * Activity windows of a token (docs/public.md "Activity windows"): m5, h1, h6 and h24, each the
 * trades whose block timestamp (unix seconds) is strictly greater than now − the window's length.
 * This module holds the definition as plain arithmetic over a token's trades; the read model
 * (`market/tokenWindows.ts`) computes the same figures in SQL, and the tests compare the two.
 */
import { priceChangeBps } from "./market";

/** The windows and their lengths in seconds, shortest first. */
export const ACTIVITY_WINDOWS = { m5: 300, h1: 3_600, h6: 21_600, h24: 86_400 } as const;

/** A window's name. */
export type ActivityWindowName = keyof typeof ACTIVITY_WINDOWS;

/** The window names, shortest first. */
export const ACTIVITY_WINDOW_NAMES = Object.keys(ACTIVITY_WINDOWS) as ActivityWindowName[];

/**
 * The cutoff of a window: a trade is in the window when its block timestamp is strictly greater.
 * @param nowSec - the reading's clock, unix seconds
 */
export function windowCutoffSec(nowSec: number, window: ActivityWindowName): number {
  return nowSec - ACTIVITY_WINDOWS[window];
}

/** The figures of one window (amounts in wei and 10^-18 USD, counts as integers). */
export type ActivityWindow = {
  /** Price after the last trade at or before the cutoff, else the launch price (wei per whole token). */
  priceThenWei: bigint;
  volumeWei: bigint;
  /** Each trade's own-block USD value, summed; trades without an ETH/USD add 0. */
  volumeUsdE18: bigint;
  buys: number;
  sells: number;
  /** Distinct transaction senders (`trade.trader`) of the window's buys. */
  uniqueBuyers: number;
  /** Distinct transaction senders of the window's sells. */
  uniqueSellers: number;
};

/** The four windows of one token. */
export type ActivityWindows = Record<ActivityWindowName, ActivityWindow>;

/** What the definition reads of a trade. */
export type WindowTrade = {
  side: "buy" | "sell";
  trader: string;
  ethAmountWei: bigint;
  ethAmountUsdE18: bigint | null;
  priceWei: bigint;
  blockNumber: bigint;
  logIndex: number;
  timestampSec: bigint;
};

/**
 * The definition of the windows over a token's trades (any order): for each window, the sums and
 * counts of the trades with timestamp > cutoff, and the price after the last trade (chain order)
 * at or before the cutoff, else `launchPriceWei`. Traders compare case-insensitively.
 */
export function activityWindowsOf(trades: WindowTrade[], nowSec: number, launchPriceWei: bigint): ActivityWindows {
  const ordered = [...trades].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
  const out = {} as ActivityWindows;
  for (const name of ACTIVITY_WINDOW_NAMES) {
    const cutoff = BigInt(windowCutoffSec(nowSec, name));
    const w: ActivityWindow = {
      priceThenWei: launchPriceWei,
      volumeWei: 0n,
      volumeUsdE18: 0n,
      buys: 0,
      sells: 0,
      uniqueBuyers: 0,
      uniqueSellers: 0,
    };
    const buyers = new Set<string>();
    const sellers = new Set<string>();
    for (const t of ordered) {
      if (t.timestampSec <= cutoff) {
        w.priceThenWei = t.priceWei;
        continue;
      }
      w.volumeWei += t.ethAmountWei;
      w.volumeUsdE18 += t.ethAmountUsdE18 ?? 0n;
      if (t.side === "buy") {
        w.buys++;
        buyers.add(t.trader.toLowerCase());
      } else {
        w.sells++;
        sellers.add(t.trader.toLowerCase());
      }
    }
    w.uniqueBuyers = buyers.size;
    w.uniqueSellers = sellers.size;
    out[name] = w;
  }
  return out;
}

/**
 * One window as the token record serves it: `price_change_bps` = (price now − price then) ×
 * 10,000 / price then, truncated toward zero (null when the price then is 0).
 */
export function windowRecord(w: ActivityWindow, priceNowWei: bigint) {
  return {
    price_then_wei: w.priceThenWei,
    price_change_bps: priceChangeBps(priceNowWei, w.priceThenWei),
    volume_wei: w.volumeWei,
    buys: w.buys,
    sells: w.sells,
    unique_buyers: w.uniqueBuyers,
    unique_sellers: w.uniqueSellers,
  };
}

/** Weight of one trade in the trending score, wei (0.01 ETH): the number of trades counts besides their size. */
export const TRENDING_TRADE_WEIGHT_WEI = 10n ** 16n;

/**
 * A window's activity as the trending score counts it: `volume_wei` + (buys + sells) × 0.01 ETH, wei.
 * @example windowActivityWei({ volumeWei: 10n ** 18n, buys: 1, sells: 1 }) // 1020000000000000000n
 */
export function windowActivityWei(w: Pick<ActivityWindow, "volumeWei" | "buys" | "sells">): bigint {
  return w.volumeWei + BigInt(w.buys + w.sells) * TRENDING_TRADE_WEIGHT_WEI;
}

/**
 * The trending score (docs/public.md "Trending"): the sum over the four windows of the window's
 * activity per hour, ⌊activity × 3,600 / length⌋ — that is 12 × a(m5) + a(h1) + ⌊a(h6) / 6⌋ +
 * ⌊a(h24) / 24⌋, in wei per hour. The windows nest, so a trade of the last five minutes counts in
 * all four (≈ 13.2 times its activity) and one of 20 hours ago in h24 only (1/24 of it). A token
 * with no trade in the last 24 h scores 0 and is not listed.
 * @example trendingScoreOf(windows) // 12n * a_m5 + a_h1 + a_h6 / 6n + a_h24 / 24n
 */
export function trendingScoreOf(windows: ActivityWindows): bigint {
  let score = 0n;
  for (const name of ACTIVITY_WINDOW_NAMES)
    score += (windowActivityWei(windows[name]) * 3_600n) / BigInt(ACTIVITY_WINDOWS[name]);
  return score;
}

/**
 * Orders of the top lists (`GET /api/public/tokens/top`, docs/public.md "Top lists"), over one
 * window's figures: `volume` (volume_wei, highest first), `trades` (buys + sells, most first),
 * `gainers` (price_change_bps, highest first), `losers` (price_change_bps, lowest first).
 */
export const TOP_SORTS = ["volume", "trades", "gainers", "losers"] as const;

/** A top-list order. */
export type TopSort = (typeof TOP_SORTS)[number];
