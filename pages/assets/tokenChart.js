// The token page's candle chart (docs/pages.md "Token page"): lightweight-charts with a resolution
// switch remembered in localStorage, buy / sell volume stacked in its own pane, a line that says
// the last (or hovered) candle in words, and its loading / empty / error states. Its colours are
// the page's CSS variables, so it follows the light or dark scheme.
import { createChart, CandlestickSeries, HistogramSeries } from "/assets/vendor/lightweight-charts.mjs";
import {
  compactNumberText,
  compactPrice,
  formatAmount,
  timeTickLabel,
  unitsToDecimal,
  utcTime,
} from "/assets/format.js";
import { launchPriceWei, token } from "/assets/tokenPageData.js";
import { api, plainMessage } from "/assets/wallet.js";

/** Bucket length of each chart resolution, seconds (src/domain/candles.ts). */
const RESOLUTION_SECONDS = {
  "1s": 1,
  "15s": 15,
  "1m": 60,
  "5m": 300,
  "15m": 900,
  "1h": 3600,
  "4h": 14400,
  "1d": 86400,
};
/** localStorage key of the chart resolution last chosen (on any token page). */
const RESOLUTION_KEY = "evmchain:chart-resolution";
/** The trade table's rows (newest first): the chart reads again while it lags them. */
const tradeRows = document.querySelector("#trades tbody");
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
  let previousClose = rows[0] && flat(rows[0]) && launchPriceWei ? launchPriceWei : rows[0]?.open_wei;
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
export async function updateCandlesFrom(timestampSec) {
  const size = RESOLUTION_SECONDS[resolution];
  const fromSec = timestampSec - (timestampSec % size);
  const last = shownCandles.at(-1);
  if (!last || fromSec < last.bucket_start_sec || chartFailed()) return loadCandles();
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
  const time = tradeRows.querySelector("time[datetime]");
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

/**
 * Reads the candles of the current resolution and draws them all (fitted to the box); says
 * "Loading…", "No trades…" or why it failed in the chart's status line.
 */
export async function loadCandles() {
  const load = ++chartLoad;
  // Second bars (1s, 15s) label their times to the second.
  chart.applyOptions({ timeScale: { secondsVisible: RESOLUTION_SECONDS[resolution] < 60 } });
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
    else if (tradeRows.children.length > 0)
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

/** True when the last chart read failed (the next successful poll reads it again). */
export function chartFailed() {
  return chartStatus.dataset.kind === "error";
}
