// The token page's market figures (price, market cap, volume, liquidity, trades, holders,
// graduation, 24 h change, and their USD lines): the same fields the server rendered, read again
// from the token record after trades.
import { changeText, compactPrice, formatAmount, usdText } from "/assets/format.js";
import { token } from "/assets/tokenPageData.js";
import { api } from "/assets/wallet.js";

/**
 * Updates the market figures from the token record (GET /api/public/token/{address}); rejects when
 * the read fails (the figures shown stay).
 */
export async function refreshStats() {
  const { body } = await api(`/api/public/token/${token}`);
  const t = body.token;
  const set = (id, text) => (document.getElementById(id).textContent = text);
  set("stat-price", `${compactPrice(t.price_wei)} ETH`);
  set("stat-mcap", `${formatAmount(t.market_cap_wei, 18, 4)} ETH`);
  set("stat-volume-24h", t.volume_24h_wei === null ? "—" : `${formatAmount(t.volume_24h_wei, 18, 4)} ETH`);
  set("stat-volume", `${formatAmount(t.volume_wei, 18, 4)} ETH`);
  set("stat-liquidity", `${formatAmount(t.liquidity.total_value_wei, 18, 4)} ETH`);
  // USD lines the server rendered follow the same record (a figure without USD has no line).
  const setUsd = (id, usd) => {
    const line = document.getElementById(`${id}-usd`);
    const text = usdText(usd);
    if (line && text) line.textContent = `≈ ${text}`;
  };
  setUsd("stat-price", t.price_usd);
  setUsd("stat-mcap", t.market_cap_usd);
  setUsd("stat-volume-24h", t.volume_24h_usd);
  setUsd("stat-volume", t.volume_usd);
  setUsd("stat-liquidity", t.liquidity.total_value_usd);
  set("stat-trades", `${t.trade_count} (${t.buy_count} buys, ${t.sell_count} sells)`);
  set("stat-holders", String(t.holder_count));
  set("stat-graduation", t.graduated ? "Graduated" : `${(t.graduation_progress_bps / 100).toFixed(2)} % to graduation`);
  document.getElementById("stat-graduation-bar").value = t.graduated ? 10000 : t.graduation_progress_bps;
  const change = document.getElementById("stat-change-24h");
  change.textContent = changeText(t.price_change_24h_bps);
  change.className = `change${!t.price_change_24h_bps ? "" : t.price_change_24h_bps > 0 ? " up" : " down"}`;
}
