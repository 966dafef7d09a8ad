/**
 * The candle records the API serves, in wei and in USD (docs/public.md "Candles"), conventions as
 * `tokenRecord.ts`.
 */
import type { candle } from "../ponder.schema";
import { formatUsdOrNull } from "../src/domain/usd";

type CandleRow = typeof candle.$inferSelect;

/**
 * Candle record (OHLCV); prices in wei per whole token, volume in token base units and wei.
 * `volume_buy_wei` + `volume_sell_wei` = `volume_wei`: the bucket's WETH volume split by each
 * trade's `side` (docs/public.md "Trade side").
 */
export function candleRecord(row: CandleRow) {
  return {
    bucket_start_sec: Number(row.bucketStartSec),
    open_wei: row.openWei,
    high_wei: row.highWei,
    low_wei: row.lowWei,
    close_wei: row.closeWei,
    volume_token: row.volumeToken,
    volume_wei: row.volumeWei,
    volume_buy_wei: row.volumeBuyWei,
    volume_sell_wei: row.volumeSellWei,
    trade_count: row.tradeCount,
  };
}

/**
 * Candle record in USD (`currency=usd`): OHLC in USD per whole token and volume in USD, each
 * trade converted at the ETH/USD in force at it; decimal strings rounded down to 18 decimals,
 * null when no trade of the bucket had an ETH/USD (docs/public.md "USD values").
 */
export function candleUsdRecord(row: CandleRow) {
  return {
    bucket_start_sec: Number(row.bucketStartSec),
    open_usd: formatUsdOrNull(row.openUsdE18),
    high_usd: formatUsdOrNull(row.highUsdE18),
    low_usd: formatUsdOrNull(row.lowUsdE18),
    close_usd: formatUsdOrNull(row.closeUsdE18),
    volume_token: row.volumeToken,
    volume_usd: formatUsdOrNull(row.volumeUsdE18),
    trade_count: row.tradeCount,
  };
}
