// The token page's trades table (docs/pages.md "Token page"): rows as the server renders them,
// trades from the stream put in chain order (a preview replaced by its confirmed row), a read of
// the newest trades (polling, catch-up, reorg), and relative times kept current. After new trades
// the chart, the figures and the holders follow.
import { compactPrice, explorerLink, formatAmount, relativeTime, shortHex, utcTime } from "/assets/format.js";
import { chartFailed, loadCandles, updateCandlesFrom } from "/assets/tokenChart.js";
import { refreshHolders } from "/assets/tokenHolders.js";
import { explorer, token } from "/assets/tokenPageData.js";
import { refreshStats } from "/assets/tokenStats.js";
import { api, plainMessage } from "/assets/wallet.js";

/** Most trade rows the table keeps (as many as a poll reads). */
const TRADE_ROWS = 50;
const tbody = document.querySelector("#trades tbody");
const tradesStatus = document.getElementById("trades-status");
const tradesEmpty = document.getElementById("trades-empty");
let lastTradesOk = new Date();

function tradeRow(t) {
  const row = document.createElement("tr");
  row.dataset.tradeId = t.id;
  row.dataset.position = String(tradePosition(t));
  row.className = t.side;
  const cells = [
    "",
    t.side,
    formatAmount(t.token_amount, 18, 2),
    formatAmount(t.eth_amount_wei, 18, 6),
    compactPrice(t.price_wei),
    shortHex(t.trader),
    shortHex(t.tx_hash),
  ];
  for (const text of cells) {
    const cell = document.createElement("td");
    cell.textContent = text; // text, never HTML
    row.append(cell);
  }
  row.children[0].append(tradeTime(t.timestamp_sec));
  row.children[5].title = t.trader;
  row.children[6].title = t.tx_hash;
  const txLink = explorerLink(explorer, "tx", t.tx_hash);
  if (txLink) {
    const a = document.createElement("a");
    a.href = txLink;
    a.rel = "noopener noreferrer";
    a.target = "_blank";
    a.textContent = row.children[6].textContent;
    row.children[6].replaceChildren(a);
  }
  return row;
}

/** A trade's place in chain order (block, then log index), as one comparable number. */
function tradePosition(t) {
  return t.block_number * 1e6 + t.log_index;
}

/** A trade's time as the server renders it: "2 min ago", the UTC time in its title and datetime. */
function tradeTime(timestampSec) {
  const time = document.createElement("time");
  time.dateTime = new Date(timestampSec * 1000).toISOString();
  time.title = utcTime(timestampSec);
  time.textContent = relativeTime(timestampSec, Date.now() / 1000);
  return time;
}

/** Keeps "… ago" current between new trades. */
function refreshRelativeTimes() {
  const nowSec = Date.now() / 1000;
  for (const time of tbody.querySelectorAll("time[datetime]")) {
    time.textContent = relativeTime(Date.parse(time.dateTime) / 1000, nowSec);
  }
}

/**
 * A trade from the stream (a preview at the indexed head, or confirmed): replaces the row of the
 * same trade, or goes in at its place in chain order (newest first; the table keeps
 * TRADE_ROWS rows); then the chart and the figures follow.
 */
export function showStreamTrade(t) {
  const row = tradeRow(t);
  const rows = [...tbody.children];
  const same = rows.find((r) => r.dataset.tradeId === t.id);
  if (same) same.replaceWith(row);
  else {
    const position = tradePosition(t);
    // Server-rendered rows carry data-position too; a row without one counts as older.
    const older = rows.find((r) => Number(r.dataset.position ?? 0) < position);
    tbody.insertBefore(row, older ?? null);
    while (tbody.children.length > TRADE_ROWS) tbody.lastElementChild.remove();
  }
  tradesEmpty.hidden = true;
  scheduleLiveRefresh(t.timestamp_sec);
}

/** Live trades come in bursts: one candle read and one figures read per burst. */
let liveRefresh = null;
function scheduleLiveRefresh(timestampSec) {
  if (liveRefresh) {
    liveRefresh.fromSec = Math.min(liveRefresh.fromSec, timestampSec);
    return;
  }
  liveRefresh = { fromSec: timestampSec };
  setTimeout(async () => {
    const { fromSec } = liveRefresh;
    liveRefresh = null;
    await updateCandlesFrom(fromSec);
    await refreshStats().catch(() => {}); // the figures follow with the next trade
    await refreshHolders(); // says so itself when it fails
  }, 100);
}

/**
 * Reads the token's newest trades and replaces the table (and reloads the chart and figures) when
 * its newest trade changed, or always with `force` (after a reorg). Never rejects: a failed read
 * keeps the rows and says they may be out of date.
 */
export async function refreshTrades(force = false) {
  try {
    const { body } = await api(`/api/public/token/${token}/trades?limit=${TRADE_ROWS}`);
    const newest = body.trades[0]?.id;
    if (newest && (force || tbody.firstElementChild?.dataset.tradeId !== newest)) {
      // The whole list is replaced, so a reorg that drops or replaces a trade shows up too.
      tbody.replaceChildren(...body.trades.map(tradeRow));
      tradesEmpty.hidden = true;
      loadCandles();
      await refreshStats();
      await refreshHolders();
    } else if (chartFailed()) {
      loadCandles(); // the chart failed earlier: try again now that the service answers
    }
    lastTradesOk = new Date();
    refreshRelativeTimes();
    if (tradesStatus.textContent) {
      tradesStatus.textContent = "";
      tradesStatus.dataset.kind = "ok";
    }
  } catch (err) {
    // Keep the rows shown, say they may be out of date; the next poll tries again (reads are safe
    // to repeat).
    tradesStatus.textContent = `Live updates paused: ${plainMessage(err)} The trades below are as of ${lastTradesOk.toISOString().slice(11, 19)} UTC and may be out of date.`;
    tradesStatus.dataset.kind = "stale";
  }
}
