/**
 * The token page's newest trades, rendered on the server (relative times); `tokenTrades.js` adds live
 * trades to the same table.
 */
import type { z } from "zod";
import type { tradeWire } from "../market/wire";
import { compactPrice, formatAmount, shortAddress } from "./format";
import { TradeTime, TxCell } from "./tokenParts";

/** The recent-trades table of one token, newest first. */
export function RecentTrades({
  trades,
  symbol,
  explorerUrl,
  nowSec,
}: {
  trades: z.infer<typeof tradeWire>[];
  symbol: string;
  explorerUrl: string | null;
  nowSec: number;
}) {
  return (
    <section aria-label="Trades">
      <h2>Recent trades</h2>
      <p id="trades-status" class="status" role="status"></p>
      {/* biome-ignore lint/a11y/useSemanticElements: a scroll container, not a page section */}
      <div class="table-scroll" role="region" aria-label="Recent trades (scrolls sideways)" tabindex={0}>
        <table id="trades">
          <thead>
            <tr>
              <th>Time</th>
              <th>Side</th>
              <th>{symbol}</th>
              <th>ETH</th>
              <th>Price (ETH)</th>
              <th>Trader</th>
              <th>Tx</th>
            </tr>
          </thead>
          <tbody>
            {trades.map((t) => (
              <tr data-trade-id={t.id} data-position={String(t.block_number * 1e6 + t.log_index)} class={t.side}>
                <td>
                  <TradeTime timestampSec={t.timestamp_sec} nowSec={nowSec} />
                </td>
                <td>{t.side}</td>
                <td>{formatAmount(t.token_amount, 18, 2)}</td>
                <td>{formatAmount(t.eth_amount_wei, 18, 6)}</td>
                <td>{compactPrice(t.price_wei)}</td>
                <td title={t.trader}>{shortAddress(t.trader)}</td>
                <TxCell hash={t.tx_hash} explorerUrl={explorerUrl} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p id="trades-empty" class="hint" hidden={trades.length > 0}>
        No trades yet.
      </p>
    </section>
  );
}
