/**
 * The trade record the API and the trade stream serve (docs/public.md "Trades"), conventions as
 * `tokenRecord.ts`.
 */
import { getAddress } from "viem";
import type { trade } from "../ponder.schema";
import { formatUsdOrNull } from "../src/domain/usd";

type TradeRow = typeof trade.$inferSelect;

/**
 * Trade record: one Swap of the token's pool seen from the token's side. `eth_price_usd` is the
 * ETH/USD in force at the trade (the reference pool's last price at or before its block and log
 * index) and `eth_amount_usd`, `price_usd`, `market_cap_usd` the wei figures converted at it,
 * rounded down to 18 decimals; all null when no ETH/USD was known then (docs/public.md "USD values").
 */
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
    eth_price_usd: formatUsdOrNull(row.ethPriceUsdE18),
    eth_amount_usd: formatUsdOrNull(row.ethAmountUsdE18),
    price_usd: formatUsdOrNull(row.priceUsdE18),
    market_cap_usd: formatUsdOrNull(row.marketCapUsdE18),
    sqrt_price_x96: row.sqrtPriceX96,
    tick: row.tick,
    block_number: Number(row.blockNumber),
    log_index: row.logIndex,
    timestamp_sec: Number(row.timestampSec),
    tx_hash: row.txHash,
  };
}
