// The token page's live parts (docs/pages.md): the candle chart with its resolution switch, its
// buy / sell volume and its loading / empty / error states; live updates from the token's trade
// stream (Server-Sent Events, same origin) that prepend trades and update the last candle, with
// polling every 2 s while the stream is down and a visible "Live" / "Reconnecting" line; relative
// times kept current; the top holders read again after each trade (saying so when that fails)
// and "Show more holders"; and the creator's rewards with the claim transaction sent through the
// wallet. The chart takes its colours from the page's CSS variables (light or dark scheme) and
// remembers the chosen resolution in localStorage.
import { createChart, CandlestickSeries, HistogramSeries } from "/assets/vendor/lightweight-charts.mjs";
import {
  changeText,
  compactNumberText,
  compactPrice,
  explorerLink,
  formatAmount,
  HOLDER_LABEL_TEXT,
  relativeTime,
  shareText,
  shortHex,
  timeTickLabel,
  unitsToDecimal,
  usdText,
  utcTime,
} from "/assets/format.js";
import "/assets/copy.js";
import { api, csrfToken, ensureChain, plainMessage, sendTransaction, waitForReceipt } from "/assets/wallet.js";
import { connectAndSignIn, onWalletChange, refreshWalletChip, walletConnection } from "/assets/walletChip.js";

const article = document.getElementById("token");
const token = article.dataset.token;
const creator = article.dataset.creator;
const explorer = article.dataset.explorer || null;
const POLL_MS = 2000;
/** Most trade rows the table keeps (as many as a poll reads). */
const TRADE_ROWS = 50;
/** The token's trade stream: previews at the indexed head (`pending`) and confirmed trades. */
const STREAM_URL = `/api/public/stream/trades?token=${encodeURIComponent(token)}`;
/** Delay before a stream the service closed (refused, or ended) is opened again, milliseconds. */
const STREAM_REOPEN_MS = 5000;
/** Bucket length of each chart resolution, seconds (src/domain/candles.ts). */
const RESOLUTION_SECONDS = { "1m": 60, "5m": 300, "15m": 900, "1h": 3600, "4h": 14400, "1d": 86400 };
/** localStorage key of the chart resolution last chosen (on any token page). */
const RESOLUTION_KEY = "evmchain:chart-resolution";

// ---- colours: the page's CSS variables, so the chart follows the light or dark scheme --------
const darkScheme = window.matchMedia("(prefers-color-scheme: dark)");
/** The chart's colours, read from the stylesheet's custom properties for the current scheme. */
function themeColours() {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  return { buy: v("--buy"), sell: v("--sell"), background: v("--card"), text: v("--fg"), grid: v("--line") };
}
let theme = themeColours();

// ---- chart -------------------------------------------------------------------------------
const chartBox = document.getElementById("chart");
const chartStatus = document.getElementById("chart-status");
const chart = createChart(chartBox, {
  autoSize: true, // follows its box: no fixed width to overflow a phone, no axis label cut off
  layout: { attributionLogo: false },
  // Short UTC labels ("09:10", "26 Nov") are never cut; the crosshair shows the full UTC time.
  localization: { priceFormatter: compactNumberText, timeFormatter: (timeSec) => utcTime(timeSec) },
  rightPriceScale: { scaleMargins: { top: 0.15, bottom: 0.1 } },
  timeScale: {
    timeVisible: true,
    secondsVisible: false,
    maxBarSpacing: 40,
    rightOffset: 1,
    fixLeftEdge: false,
    tickMarkFormatter: (timeSec, tickMarkType) => timeTickLabel(timeSec, tickMarkType),
  },
});
const candles = chart.addSeries(CandlestickSeries, {
  priceFormat: { type: "custom", formatter: compactNumberText, minMove: 1e-14 }, // 1/minMove must be an exact power of ten
});
// Volume in its own pane (index 1) with its own scale: it never overlaps the candles and its value
// is not drawn on the price axis. Buys and sells are stacked in one bar: the whole bar (all
// volume) is drawn red, and the buy volume over it in green from the base, so the green part is
// what was bought and the red part above it what was sold.
const volumeOptions = { priceFormat: { type: "volume" }, lastValueVisible: false, priceLineVisible: false };
const volumeAll = chart.addSeries(HistogramSeries, volumeOptions, 1);
const volumeBuy = chart.addSeries(HistogramSeries, volumeOptions, 1);
/** Applies the current scheme's colours to the chart, its candles and its volume bars. */
function applyChartTheme() {
  theme = themeColours();
  chart.applyOptions({
    layout: { background: { color: theme.background }, textColor: theme.text },
    grid: { vertLines: { color: theme.grid }, horzLines: { color: theme.grid } },
  });
  candles.applyOptions({
    upColor: theme.buy,
    downColor: theme.sell,
    borderUpColor: theme.buy,
    borderDownColor: theme.sell,
    wickUpColor: theme.buy,
    wickDownColor: theme.sell,
  });
  volumeAll.applyOptions({ color: theme.sell });
  volumeBuy.applyOptions({ color: theme.buy });
}
applyChartTheme();
darkScheme.addEventListener("change", applyChartTheme);
chart.panes()[0]?.setStretchFactor(3);
chart.panes()[1]?.setStretchFactor(1);
let resolution = rememberedResolution() ?? chartBox.dataset.resolution ?? "1h";
let chartLoad = 0;
/** The candles the chart shows (API records, oldest first), for live updates and the legend. */
let shownCandles = [];
const legend = document.getElementById("chart-legend");

/** Wei per whole token (decimal string) -> ETH per token as a chart number (display only). */
const eth = (wei) => Number(unitsToDecimal(wei));

function setChartStatus(text, kind) {
  chartStatus.textContent = text;
  chartStatus.dataset.kind = kind;
}

/**
 * Candles for the chart: each opens where the previous closed, so a bucket with a single trade
 * still shows its move instead of a flat, invisible line; a flat first candle opens at the launch
 * price (the price before the token's first trade).
 */
function chartCandles(rows) {
  const flat = (c) => c.open_wei === c.close_wei && c.high_wei === c.low_wei;
  let previousClose =
    rows[0] && flat(rows[0]) && article.dataset.launchPriceWei ? article.dataset.launchPriceWei : rows[0]?.open_wei;
  return rows.map((c) => {
    const open = eth(previousClose ?? c.open_wei);
    const close = eth(c.close_wei);
    previousClose = c.close_wei;
    return {
      time: c.bucket_start_sec,
      open,
      high: Math.max(eth(c.high_wei), open),
      low: Math.min(eth(c.low_wei), open),
      close,
    };
  });
}

/** Few candles are centred in a window of at least MIN_BARS bars instead of crowding one edge. */
const MIN_BARS = 30;
function fitChart(count) {
  chart.timeScale().fitContent();
  if (count > 0 && count < MIN_BARS) {
    const pad = (MIN_BARS - count) / 2;
    chart.timeScale().setVisibleLogicalRange({ from: -pad, to: count - 1 + pad });
  }
}

/** A candle's whole volume (drawn red: the sell part shows above the buy part), ETH. */
const volumeAllBar = (c) => ({ time: c.bucket_start_sec, value: eth(c.volume_wei) });
/** A candle's buy volume (drawn green over the base of the whole bar), ETH. */
const volumeBuyBar = (c) => ({ time: c.bucket_start_sec, value: eth(c.volume_buy_wei) });

/**
 * The candle line under the chart, in words: the last candle (or the one under the crosshair)
 * with its close, its volume split into bought and sold, and its trade count.
 */
function showLegend(c) {
  if (!c) {
    legend.textContent = "";
    return;
  }
  const trades = c.trade_count === 1 ? "1 trade" : `${c.trade_count} trades`;
  legend.textContent =
    `${resolution} candle from ${utcTime(c.bucket_start_sec)}: close ${compactPrice(c.close_wei)} ETH; ` +
    `volume ${formatAmount(c.volume_wei, 18, 6)} ETH, ${formatAmount(c.volume_buy_wei, 18, 6)} bought (green), ` +
    `${formatAmount(c.volume_sell_wei, 18, 6)} sold (red); ${trades}.`;
}
chart.subscribeCrosshairMove((param) => {
  const hovered = param.time === undefined ? null : shownCandles.find((c) => c.bucket_start_sec === param.time);
  showLegend(hovered ?? shownCandles.at(-1));
});

/**
 * Brings the chart up to date after a live trade at `timestampSec`: reads the candles from that
 * trade's bucket on and updates the last candle or adds new ones (the view is kept: no refit).
 * A trade in an older bucket than the last shown, or a chart without candles yet, reloads all.
 */
async function updateCandlesFrom(timestampSec) {
  const size = RESOLUTION_SECONDS[resolution];
  const fromSec = timestampSec - (timestampSec % size);
  const last = shownCandles.at(-1);
  if (!last || fromSec < last.bucket_start_sec || chartStatus.dataset.kind === "error") return loadCandles();
  const load = chartLoad;
  try {
    const { body } = await api(
      `/api/public/token/${token}/candles?resolution=${resolution}&from=${fromSec}&to=${fromSec + 100 * size}`,
    );
    if (load !== chartLoad) return; // the resolution changed meanwhile: that load draws the chart
    const kept = shownCandles.filter((c) => c.bucket_start_sec < fromSec);
    const changed = body.candles.filter((c) => c.bucket_start_sec >= fromSec);
    shownCandles = [...kept, ...changed];
    const bars = chartCandles(shownCandles).slice(kept.length);
    for (const bar of bars) candles.update(bar);
    for (const c of changed) {
      volumeAll.update(volumeAllBar(c));
      volumeBuy.update(volumeBuyBar(c));
    }
    showLegend(shownCandles.at(-1));
    chartBox.dataset.candles = String(shownCandles.length);
  } catch {
    loadCandles(); // says why in the chart's status if it fails too
  }
}

/** How often, and how long apart, the chart is read again while it lags the trade table. */
const CHART_RETRIES = 10;
const CHART_RETRY_MS = 1000;
let chartRetries = 0;

/** The newest trade in the table, unix seconds, or null when the table is empty. */
function newestShownTradeSec() {
  const time = tbody.querySelector("time[datetime]");
  return time ? Date.parse(time.dateTime) / 1000 : null;
}

/**
 * True when the table shows a trade inside the chart's range (bucket starts from `fromSec` on)
 * that the loaded candles do not cover: the candles were read before that trade was indexed.
 */
function candlesBehindTrades(fromSec) {
  const newestSec = newestShownTradeSec();
  if (newestSec === null || newestSec < fromSec) return false;
  const last = shownCandles.at(-1);
  return !last || last.bucket_start_sec + RESOLUTION_SECONDS[resolution] <= newestSec;
}

async function loadCandles() {
  const load = ++chartLoad;
  if (!chartStatus.textContent || chartStatus.dataset.kind === "loading")
    setChartStatus("Loading the chart…", "loading");
  try {
    const { body } = await api(`/api/public/token/${token}/candles?resolution=${resolution}`);
    if (load !== chartLoad) return; // a newer request (another resolution) answers instead
    shownCandles = body.candles;
    candles.setData(chartCandles(shownCandles));
    volumeAll.setData(shownCandles.map(volumeAllBar));
    volumeBuy.setData(shownCandles.map(volumeBuyBar));
    fitChart(shownCandles.length);
    showLegend(shownCandles.at(-1));
    chartBox.dataset.candles = String(body.candles.length);
    chartBox.dataset.loadedResolution = resolution;
    if (candlesBehindTrades(body.from_sec) && chartRetries < CHART_RETRIES) {
      // Read before the newest trade shown was visible to the candle query (a pushed preview, or
      // an answer cached at the same indexed block): read again shortly, a bounded number of times.
      chartRetries += 1;
      if (body.candles.length === 0) setChartStatus("Loading the chart…", "loading");
      setTimeout(() => {
        if (load === chartLoad) loadCandles();
      }, CHART_RETRY_MS);
      return;
    }
    chartRetries = 0; // caught up, or gave up: the next read (the next trade's) has a fresh budget
    if (body.candles.length > 0) setChartStatus("", "ok");
    else if (tbody.children.length > 0)
      setChartStatus(`No trades in the time range of ${resolution} candles; choose a longer resolution.`, "empty");
    else setChartStatus("No trades yet: the chart starts with the first trade.", "empty");
  } catch (err) {
    if (load !== chartLoad) return;
    setChartStatus(
      `The chart could not be loaded: ${plainMessage(err)} It is tried again with the next update.`,
      "error",
    );
  }
}

const resolutionButtons = document.querySelectorAll(".resolutions button");
for (const button of resolutionButtons) {
  button.addEventListener("click", () => {
    resolution = button.dataset.resolution;
    rememberResolution(resolution);
    markResolution();
    chartRetries = 0;
    loadCandles();
  });
}
markResolution();

// ---- the chosen resolution, remembered in this browser for every token page ---------------
/** The resolution chosen on an earlier visit, if it is one of the page's buttons. */
function rememberedResolution() {
  try {
    const stored = window.localStorage.getItem(RESOLUTION_KEY);
    return document.querySelector(`.resolutions button[data-resolution="${CSS.escape(stored ?? "")}"]`) ? stored : null;
  } catch {
    return null; // storage disabled: the default resolution
  }
}
function rememberResolution(value) {
  try {
    window.localStorage.setItem(RESOLUTION_KEY, value);
  } catch {
    // storage disabled or full: the choice lasts for this page only
  }
}
/** Marks the current resolution's button pressed (aria-pressed), the others not. */
function markResolution() {
  for (const b of resolutionButtons) b.setAttribute("aria-pressed", String(b.dataset.resolution === resolution));
}

// ---- live trades -------------------------------------------------------------------------
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

// ---- top holders (the server rendered them; pages/holderList.tsx builds the same rows) -------
const holderList = document.getElementById("holders");
const holdersStatus = document.getElementById("holders-status");
let lastHoldersOk = new Date();

/** One holder row: short address (full in its title), tag, Copy, explorer link, balance, share. */
function holderRow(h, rank) {
  const item = element("li", "holder");
  item.dataset.address = h.address;
  const who = element("span", "holder-who");
  const address = element("span", "mono", shortHex(h.address));
  address.title = h.address;
  who.append(address);
  const tag = h.label
    ? HOLDER_LABEL_TEXT[h.label]
    : h.address.toLowerCase() === creator.toLowerCase()
      ? "Creator"
      : null;
  if (tag) who.append(element("span", "tag", tag));
  const copy = element("button", "copy", "Copy");
  copy.type = "button";
  copy.dataset.copy = h.address;
  copy.setAttribute("aria-label", `Copy address of holder ${rank}`);
  who.append(copy);
  const link = explorerLink(explorer, "address", h.address);
  if (link) {
    const a = element("a", "", "Explorer");
    a.href = link;
    a.rel = "noopener noreferrer";
    a.target = "_blank";
    a.append(element("span", "visually-hidden", ` (holder ${rank})`));
    who.append(a);
  }
  const figures = element("span", "holder-figures");
  figures.append(
    element("span", "holder-balance", `${formatAmount(h.balance_wei, 18, 2)} ${article.dataset.symbol}`),
    element("span", "holder-share", shareText(h.share_bps)),
  );
  item.append(who, figures);
  return item;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text; // text, never HTML
  return node;
}

/** The line above the list, as the server writes it (pages/holderList.tsx `holdersSummary`). */
function holdersSummary(shown, holderCount) {
  return shown >= holderCount
    ? `All ${holderCount} holder${holderCount === 1 ? "" : "s"}, with their share of the total supply.`
    : `The largest ${shown} of ${holderCount} holders, with their share of the total supply.`;
}

/** Holders read per "Show more holders" press; the most the list shows (the API's largest page). */
const HOLDER_PAGE = 50;
const HOLDERS_MAX = 200;
const moreHolders = document.getElementById("holders-more");
/** The holders list's cursor after the last row shown; null when every holder is shown. */
let holdersNext = holderList.dataset.nextCursor || null;
moreHolders.hidden = !holdersNext;

/** Shows `holders` from rank `from` on (1: replaces the list); the summary and the button follow. */
function showHolders(holders, holderCount, nextCursor, from = 1) {
  const rows = holders.map((h, i) => holderRow(h, from + i));
  if (from === 1) holderList.replaceChildren(...rows);
  else holderList.append(...rows);
  const shown = holderList.children.length;
  document.getElementById("holders-summary").textContent = shown ? holdersSummary(shown, holderCount) : "";
  document.getElementById("holders-empty").hidden = shown > 0;
  // A full page carries a cursor even when it holds the last holder: the count says whether more exist.
  holdersNext = shown < Math.min(HOLDERS_MAX, holderCount) ? nextCursor : null;
  moreHolders.hidden = !holdersNext;
  lastHoldersOk = new Date();
  holdersStatus.textContent = "";
  holdersStatus.dataset.kind = "ok";
  markOwnHolderRow();
}

/**
 * Tags the connected wallet's own row "You" (after its address and any other tag), and only that
 * row: called after every render of the list and every wallet change.
 */
function markOwnHolderRow() {
  const me = walletConnection()?.account.toLowerCase();
  for (const row of holderList.children) {
    row.querySelector(".tag.you")?.remove();
    if (me && row.dataset.address?.toLowerCase() === me) {
      const tags = row.querySelectorAll(".holder-who .mono, .holder-who .tag");
      tags[tags.length - 1].after(element("span", "tag you", "You"));
    }
  }
}
markOwnHolderRow();
onWalletChange(markOwnHolderRow);

/** The holders could not be read: the rows stay, the notice says how old they are. */
function holdersFailed(err) {
  holdersStatus.textContent = `The holders could not be updated: ${plainMessage(err)} The list below is as of ${lastHoldersOk.toISOString().slice(11, 19)} UTC; it is read again with the next trade.`;
  holdersStatus.dataset.kind = "error";
}

/**
 * Holder reads run one after another: each reads the list's length and cursor when it starts, so a
 * read-again that was in flight when "Show more holders" appended rows cannot cut the list back.
 */
let holderReads = Promise.resolve();
function queueHolderRead(read) {
  holderReads = holderReads.then(read);
  return holderReads;
}

/** Reads the holders again after a trade: as many as are shown (at least the top 10). */
function refreshHolders() {
  return queueHolderRead(async () => {
    const limit = Math.min(HOLDERS_MAX, Math.max(10, holderList.children.length));
    try {
      const { body } = await api(`/api/public/token/${token}/holders?limit=${limit}`);
      showHolders(body.holders, body.holder_count, body.next_cursor);
    } catch (err) {
      holdersFailed(err);
    }
  });
}

moreHolders.addEventListener("click", () => {
  moreHolders.disabled = true;
  return queueHolderRead(async () => {
    try {
      if (holdersNext) {
        const { body } = await api(
          `/api/public/token/${token}/holders?limit=${HOLDER_PAGE}&cursor=${encodeURIComponent(holdersNext)}`,
        );
        showHolders(body.holders, body.holder_count, body.next_cursor, holderList.children.length + 1);
      }
    } catch (err) {
      holdersStatus.textContent = `More holders could not be loaded: ${plainMessage(err)} Press the button to try again.`;
      holdersStatus.dataset.kind = "error";
    }
    moreHolders.disabled = false;
  });
});

/** Updates the market figures from the token record (same fields the server rendered). */
async function refreshStats() {
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

/**
 * A trade from the stream (a preview at the indexed head, or confirmed): replaces the row of the
 * same trade, or goes in at its place in chain order (newest first; the table keeps
 * TRADE_ROWS rows); then the chart and the figures follow.
 */
function showStreamTrade(t) {
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
 * its newest trade changed, or always with `force` (after a reorg).
 */
async function refreshTrades(force = false) {
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
    } else if (chartStatus.dataset.kind === "error") {
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

// ---- creator rewards ---------------------------------------------------------------------
const rewardsBox = document.getElementById("rewards");
const rewardsStatus = document.getElementById("rewards-status");
const connectCreator = document.getElementById("connect-creator");
const claimButton = document.getElementById("claim");
let account = null;

async function showRewards() {
  const { body } = await api(`/api/evm/evmchain/creator-rewards?wallet=${account}`);
  const mine = body.tokens.find((t) => t.token.toLowerCase() === token.toLowerCase());
  const wei = mine ? mine.unclaimed.creator_wei : "0";
  const tok = mine ? mine.unclaimed.creator_token : "0";
  document.getElementById("claimable-wei").textContent = formatAmount(wei, 18, 8);
  document.getElementById("claimable-token").textContent = formatAmount(tok, 18, 2);
  claimButton.disabled = BigInt(wei) === 0n && BigInt(tok) === 0n;
  rewardsBox.hidden = false;
  if (mine) {
    document.getElementById("creator-fees-wei").textContent = `${formatAmount(mine.claimed.creator_wei, 18, 6)} WETH`;
    document.getElementById("creator-fees-token").textContent =
      `${formatAmount(mine.claimed.creator_token, 18, 2)} ${article.dataset.symbol}`;
  }
}

connectCreator.addEventListener("click", async () => {
  try {
    // The page's one connection (the chip in the trade widget): signs in unless already connected.
    const connection = await connectAndSignIn((text) => {
      rewardsStatus.textContent = text;
    }, " as the creator");
    if (connection.account.toLowerCase() !== creator.toLowerCase()) {
      rewardsStatus.textContent = `This wallet (${connection.account}) did not create this token; only its creator can claim its fees.`;
      return;
    }
    account = connection.account;
    await showRewards();
    connectCreator.hidden = true;
    rewardsStatus.textContent = "";
  } catch (err) {
    account = null;
    rewardsStatus.textContent = plainMessage(err);
  }
});

// Disconnected (the chip's button, or the wallet changed accounts): the claim goes with the wallet.
onWalletChange((connection) => {
  if (connection && account && connection.account.toLowerCase() === account.toLowerCase()) return;
  account = null;
  rewardsBox.hidden = true;
  connectCreator.hidden = false;
  rewardsStatus.textContent = "";
});

claimButton.addEventListener("click", async () => {
  claimButton.disabled = true;
  try {
    rewardsStatus.textContent = "Building the claim transaction…";
    const csrf = await csrfToken();
    const { body: built } = await api("/api/evm/evmchain/build-creator-rewards-claim", {
      method: "POST",
      csrfToken: csrf,
      body: { wallet: account },
    });
    const { body: status } = await api("/api/evm/evmchain/status");
    await ensureChain(built.transaction.chainId, status.wallet_add_ethereum_chain, status.chain_name);
    refreshWalletChip();
    rewardsStatus.textContent = "Confirm the claim in your wallet.";
    const hash = await sendTransaction(built.transaction);
    rewardsStatus.textContent = `Claim sent (${hash}); waiting for it to be mined…`;
    await waitForReceipt(hash);
    refreshWalletChip();
    rewardsStatus.textContent =
      "Fees claimed: the WETH and tokens are in your wallet. Totals update once the claim is indexed.";
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      await showRewards();
      if (claimButton.disabled) break;
    }
  } catch (err) {
    rewardsStatus.textContent = plainMessage(err);
    claimButton.disabled = false;
  }
});

// ---- live updates: the stream, or polling while it is down ---------------------------------
const liveStatus = document.getElementById("live-status");
let pollTimer = null;
/** The open (or opening) trade stream; null while there is none. */
let stream = null;

/** The line that says how the page is kept current. */
function setLive(kind) {
  liveStatus.dataset.kind = kind;
  liveStatus.textContent =
    kind === "live"
      ? "Live: new trades appear as they happen."
      : kind === "reconnecting"
        ? "Reconnecting to live updates… meanwhile trades are checked every 2 s."
        : kind === "polling"
          ? "Trades are checked every 2 s."
          : "Connecting to live updates…";
}

function startPolling() {
  if (pollTimer !== null) return;
  pollTimer = setInterval(refreshTrades, POLL_MS);
  refreshTrades();
}
function stopPolling() {
  if (pollTimer === null) return;
  clearInterval(pollTimer);
  pollTimer = null;
}

/**
 * Opens the token's trade stream. While it is open the page does not poll; when it fails the page
 * polls and says it is reconnecting. The browser reopens a broken stream by itself (the service's
 * `retry` delay, resuming with Last-Event-ID); a stream the service refused or closed is opened
 * again after STREAM_REOPEN_MS.
 */
function openStream() {
  if (typeof EventSource !== "function") {
    setLive("polling");
    startPolling();
    return;
  }
  if (stream) return;
  const opened = new EventSource(STREAM_URL);
  stream = opened;
  opened.addEventListener("open", () => {
    setLive("live");
    stopPolling();
    // Catch up once: trades between the page's render (or the last poll) and the stream's start.
    refreshTrades();
  });
  const onTrade = (event) => {
    try {
      showStreamTrade(JSON.parse(event.data));
    } catch {
      refreshTrades(); // an unreadable frame: read the list instead
    }
  };
  opened.addEventListener("message", onTrade);
  opened.addEventListener("pending", onTrade);
  // A reorg dropped trades shown as previews: read the whole list (and chart) again.
  opened.addEventListener("reorg", () => refreshTrades(true));
  opened.addEventListener("error", () => {
    if (stream !== opened) return; // closed by the page already
    setLive("reconnecting");
    startPolling();
    if (opened.readyState === EventSource.CLOSED) {
      stream = null;
      setTimeout(openStream, STREAM_REOPEN_MS);
    }
  });
}

/** Closes the stream (the page polls meanwhile). */
function dropStream() {
  stream?.close();
  stream = null;
  setLive("reconnecting");
  startPolling();
}

// The browser knows it lost the network before a silent connection would time out (a phone
// changing networks): poll and say so at once, and open the stream again when it is back.
window.addEventListener("offline", dropStream);
window.addEventListener("online", openStream);

loadCandles();
setLive("connecting");
openStream();
