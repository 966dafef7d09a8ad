/**
 * Presenters: database rows -> the JSON records the API serves. Addresses checksummed, amounts as
 * bigint (serialised as decimal strings by `api/json.ts`), block numbers and unix seconds as JSON
 * numbers, units in every field name.
 */
import { getAddress } from "viem";
import type { candle, token, trade } from "../../ponder.schema";

type TokenRow = typeof token.$inferSelect;
type TradeRow = typeof trade.$inferSelect;
type CandleRow = typeof candle.$inferSelect;

/**
 * Token record: launch facts, market state after the latest indexed swap, fee totals and page URL.
 * @param row - a `token` row
 * @param publicBaseUrl - base URL of the service's pages (no trailing slash)
 */
export function tokenRecord(row: TokenRow, publicBaseUrl: string) {
  const address = getAddress(row.address);
  return {
    address,
    name: row.name,
    symbol: row.symbol,
    decimals: row.decimals,
    total_supply: row.totalSupply,
    creator: getAddress(row.creator),
    factory: getAddress(row.factory),
    pool: getAddress(row.pool),
    quote_token: getAddress(row.weth),
    token0: getAddress(row.tokenIsToken0 ? row.address : row.weth),
    token1: getAddress(row.tokenIsToken0 ? row.weth : row.address),
    position_ids: row.positionIds.map(String),
    launch_tx_hash: row.launchTxHash,
    launch_block_number: Number(row.launchBlockNumber),
    launch_timestamp_sec: Number(row.launchTimestampSec),
    liquidity_wei: row.liquidityWei,
    first_buy_wei: row.firstBuyWei,
    first_buy_tokens_out: row.firstBuyTokensOut,
    sqrt_price_x96: row.sqrtPriceX96,
    tick: row.tick,
    price_wei: row.priceWei,
    market_cap_wei: row.marketCapWei,
    volume_wei: row.volumeWei,
    volume_token: row.volumeToken,
    trade_count: row.tradeCount,
    buy_count: row.buyCount,
    sell_count: row.sellCount,
    last_trade_timestamp_sec: row.lastTradeTimestampSec === null ? null : Number(row.lastTradeTimestampSec),
    graduated: row.graduatedAtSec !== null,
    graduated_at_sec: row.graduatedAtSec === null ? null : Number(row.graduatedAtSec),
    creator_fees_wei: row.creatorFeesWei,
    creator_fees_token: row.creatorFeesToken,
    protocol_fees_wei: row.protocolFeesWei,
    protocol_fees_token: row.protocolFeesToken,
    token_url: `${publicBaseUrl}/token/${address}`,
  };
}

/** Trade record: one Swap of the token's pool seen from the token's side. */
export function tradeRecord(row: TradeRow) {
  return {
    id: row.id,
    token: getAddress(row.token),
    pool: getAddress(row.pool),
    side: row.side,
    trader: getAddress(row.trader),
    recipient: getAddress(row.recipient),
    token_amount: row.tokenAmount,
    eth_amount_wei: row.ethAmountWei,
    price_wei: row.priceWei,
    market_cap_wei: row.marketCapWei,
    sqrt_price_x96: row.sqrtPriceX96,
    tick: row.tick,
    block_number: Number(row.blockNumber),
    log_index: row.logIndex,
    timestamp_sec: Number(row.timestampSec),
    tx_hash: row.txHash,
  };
}

/** Candle record (OHLCV); prices in wei per whole token, volume in token base units and wei. */
export function candleRecord(row: CandleRow) {
  return {
    bucket_start_sec: Number(row.bucketStartSec),
    open_wei: row.openWei,
    high_wei: row.highWei,
    low_wei: row.lowWei,
    close_wei: row.closeWei,
    volume_token: row.volumeToken,
    volume_wei: row.volumeWei,
    trade_count: row.tradeCount,
  };
}
