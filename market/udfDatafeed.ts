/**
 * The TradingView UDF datafeed's documents (TradingView Charting Library, "UDF" adapter:
 * `/config`, `/symbols`, `/search`, `/time`, `/history`; docs/public.md "TradingView datafeed").
 * Pure: the router (`http/routes/udf.ts`) reads the index and sends what these return.
 *
 * Symbols are launched tokens. The `ticker` (the id a chart sends back to `/history`) is the
 * token's checksummed address; `/symbols` and `/history` also accept the slug, the address in any
 * case, and either with an `EXCHANGE:` prefix. Prices are ETH per whole token, volumes ETH.
 */
import { getAddress } from "viem";
import { RESOLUTIONS, type Resolution } from "../src/domain/candles";
import { UDF_RESOLUTIONS } from "./udf";

/** Exchange name shown by charts and accepted as a symbol prefix. */
const UDF_EXCHANGE = "evmchain";

/**
 * The UDF resolution names the datafeed advertises (ours map onto them: 1s = "1S", 15s = "15S",
 * 1m = "1", … 1d = "1D"); the second bars reach back 24 h only (docs/public.md "Second bars").
 */
export const UDF_SUPPORTED_RESOLUTIONS = ["1S", "15S", "1", "5", "15", "60", "240", "1D"] as const;

/** Server configuration (`GET /config`). */
export type UdfConfig = {
  supported_resolutions: string[];
  supports_search: true;
  supports_group_request: false;
  supports_marks: false;
  supports_timescale_marks: false;
  supports_time: true;
  exchanges: Array<{ value: string; name: string; desc: string }>;
  symbols_types: Array<{ name: string; value: string }>;
};

/**
 * The `/config` document: search and server time supported, no marks, no group requests.
 * @example udfConfig().supported_resolutions // ["1S", "15S", "1", "5", "15", "60", "240", "1D"]
 */
export function udfConfig(): UdfConfig {
  return {
    supported_resolutions: [...UDF_SUPPORTED_RESOLUTIONS],
    supports_search: true,
    supports_group_request: false,
    supports_marks: false,
    supports_timescale_marks: false,
    supports_time: true,
    exchanges: [{ value: UDF_EXCHANGE, name: UDF_EXCHANGE, desc: "evmchain token launches (Uniswap V3, WETH pairs)" }],
    symbols_types: [{ name: "crypto", value: "crypto" }],
  };
}

/**
 * Smallest power of ten that shows a price in ETH with at least six significant digits (at most
 * 18 decimals, the precision of wei; at least 2).
 * @param priceWei - wei per whole token
 * @returns the UDF `pricescale` (10^decimals)
 * @example pricescaleFor(3_755_028_913n) // 1e14 (0.00000000375502 ETH: six significant digits)
 * @example pricescaleFor(2n * 10n ** 18n) // 1e5 (2.00000 ETH)
 */
export function pricescaleFor(priceWei: bigint): number {
  const digits = priceWei > 0n ? priceWei.toString().length : 1;
  const decimals = Math.min(18, Math.max(2, 18 - digits + 6));
  return 10 ** decimals;
}

/** What the symbol documents read of a token. */
export type UdfToken = { address: string; symbol: string; name: string; slug: string; priceWei: bigint };

/**
 * The `/symbols` document (LibrarySymbolInfo) of a token: 24×7 session in UTC, second bars
 * (`has_seconds`, 1 and 15 s, last 24 h only), intraday resolutions 1, 5, 15, 60, 240 minutes and
 * daily, no weekly/monthly bars, ETH prices.
 * @example udfSymbolInfo({ address: "0x1d84…", symbol: "PEPE", name: "Pepe", slug: "pepe", priceWei: 10n ** 18n }).ticker // "0x1D84…"
 */
export function udfSymbolInfo(t: UdfToken) {
  const ticker = getAddress(t.address);
  return {
    name: t.symbol,
    ticker,
    full_name: `${UDF_EXCHANGE}:${ticker}`,
    description: `${t.name} / WETH`,
    type: "crypto",
    session: "24x7",
    timezone: "Etc/UTC",
    exchange: UDF_EXCHANGE,
    listed_exchange: UDF_EXCHANGE,
    minmov: 1,
    pricescale: pricescaleFor(t.priceWei),
    has_seconds: true,
    seconds_multipliers: ["1", "15"],
    has_intraday: true,
    intraday_multipliers: ["1", "5", "15", "60", "240"],
    has_daily: true,
    daily_multipliers: ["1"],
    has_weekly_and_monthly: false,
    supported_resolutions: [...UDF_SUPPORTED_RESOLUTIONS],
    volume_precision: 6,
    data_status: "streaming",
    format: "price",
    currency_code: "ETH",
    slug: t.slug,
  };
}

/**
 * One `/search` result (SearchSymbolResultItem).
 * @example udfSearchItem({ address: "0x1d84…", symbol: "PEPE", name: "Pepe", slug: "pepe", priceWei: 0n }).symbol // "PEPE"
 */
export function udfSearchItem(t: UdfToken) {
  const ticker = getAddress(t.address);
  return {
    symbol: t.symbol,
    full_name: `${UDF_EXCHANGE}:${ticker}`,
    description: `${t.name} / WETH`,
    exchange: UDF_EXCHANGE,
    ticker,
    type: "crypto",
  };
}

/**
 * A symbol as a chart sends it, without an `EXCHANGE:` prefix.
 * @example udfSymbolKey("evmchain:0xAbC…") // "0xAbC…"
 * @example udfSymbolKey("pepe") // "pepe"
 */
export function udfSymbolKey(symbol: string): string {
  const i = symbol.lastIndexOf(":");
  return i >= 0 ? symbol.slice(i + 1) : symbol;
}

/**
 * Our resolution for a UDF (or our own) resolution name, or null.
 * @example resolutionOf("60") // "1h"
 * @example resolutionOf("1W") // null
 */
export function resolutionOf(name: string): Resolution | null {
  if (name in UDF_RESOLUTIONS) return UDF_RESOLUTIONS[name as keyof typeof UDF_RESOLUTIONS];
  return (RESOLUTIONS as readonly string[]).includes(name) ? (name as Resolution) : null;
}
