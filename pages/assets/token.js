// The token page's live parts (docs/pages.md): the candle chart with its resolution switch, trades
// that update live (polling the token's trades every 2 s), and the creator's rewards with the
// claim transaction sent through the wallet.
import { createChart, CandlestickSeries, HistogramSeries } from "/assets/vendor/lightweight-charts.mjs";
import { formatEther } from "/assets/vendor/viem/formatEther.js";
import { api, connectWallet, csrfToken, ensureChain, plainMessage, sendTransaction, waitForReceipt } from "/assets/wallet.js";

const article = document.getElementById("token");
const token = article.dataset.token;
const creator = article.dataset.creator;
const POLL_MS = 2000;

// ---- chart -------------------------------------------------------------------------------
const chartBox = document.getElementById("chart");
const chart = createChart(chartBox, { height: 320, layout: { attributionLogo: false }, timeScale: { timeVisible: true, secondsVisible: false } });
const candles = chart.addSeries(CandlestickSeries, { priceFormat: { type: "price", precision: 12, minMove: 1e-12 } });
const volume = chart.addSeries(HistogramSeries, { priceScaleId: "", priceFormat: { type: "volume" } });
volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
let resolution = chartBox.dataset.resolution || "1h";

/** Wei per whole token (decimal string) -> ETH per token as a chart number (display only). */
const eth = (wei) => Number(formatEther(BigInt(wei)));

async function loadCandles() {
  try {
    const { body } = await api(`/api/public/token/${token}/candles?resolution=${resolution}`);
    candles.setData(body.candles.map((c) => ({ time: c.bucket_start_sec, open: eth(c.open_wei), high: eth(c.high_wei), low: eth(c.low_wei), close: eth(c.close_wei) })));
    volume.setData(body.candles.map((c) => ({ time: c.bucket_start_sec, value: eth(c.volume_wei) })));
    chartBox.dataset.candles = String(body.candles.length);
    chartBox.dataset.loadedResolution = resolution;
  } catch (err) {
    chartBox.dataset.error = plainMessage(err);
  }
}

for (const button of document.querySelectorAll("[data-resolution]")) {
  if (button.id === "chart") continue;
  button.addEventListener("click", () => {
    resolution = button.dataset.resolution;
    for (const other of document.querySelectorAll(".resolutions button")) other.classList.toggle("active", other === button);
    loadCandles();
  });
}

// ---- live trades -------------------------------------------------------------------------
const tbody = document.querySelector("#trades tbody");
const fmt = (wei, digits) => {
  const [whole, fraction = ""] = formatEther(BigInt(wei)).split(".");
  const cut = fraction.slice(0, digits).replace(/0+$/, "");
  return cut ? `${whole}.${cut}` : whole;
};
const short = (hex) => `${hex.slice(0, 6)}…${hex.slice(-4)}`;

function tradeRow(t) {
  const row = document.createElement("tr");
  row.dataset.tradeId = t.id;
  row.className = t.side;
  const cells = [
    new Date(t.timestamp_sec * 1000).toISOString().replace("T", " ").slice(0, 19),
    t.side,
    fmt(t.token_amount, 2),
    fmt(t.eth_amount_wei, 6),
    fmt(t.price_wei, 12),
    short(t.trader),
    short(t.tx_hash),
  ];
  for (const text of cells) {
    const cell = document.createElement("td");
    cell.textContent = text; // text, never HTML
    row.append(cell);
  }
  row.children[5].title = t.trader;
  row.children[6].title = t.tx_hash;
  return row;
}

/** Updates the market figures from the token record (same fields the server rendered). */
async function refreshStats() {
  const { body } = await api(`/api/public/token/${token}`);
  const t = body.token;
  const set = (id, text) => (document.getElementById(id).textContent = text);
  set("stat-price", `${fmt(t.price_wei, 12)} ETH`);
  set("stat-mcap", `${fmt(t.market_cap_wei, 4)} ETH`);
  set("stat-volume-24h", t.volume_24h_wei === null ? "—" : `${fmt(t.volume_24h_wei, 4)} ETH`);
  set("stat-volume", `${fmt(t.volume_wei, 4)} ETH`);
  set("stat-liquidity", `${fmt(t.liquidity.total_value_wei, 4)} ETH`);
  set("stat-trades", `${t.trade_count} (${t.buy_count} buys, ${t.sell_count} sells)`);
  set("stat-graduation", t.graduated ? "graduated" : `${(t.graduation_progress_bps / 100).toFixed(2)} %`);
}

async function refreshTrades() {
  try {
    const { body } = await api(`/api/public/token/${token}/trades?limit=50`);
    const newest = body.trades[0]?.id;
    if (newest && tbody.firstElementChild?.dataset.tradeId !== newest) {
      // The whole list is replaced, so a reorg that drops or replaces a trade shows up too.
      tbody.replaceChildren(...body.trades.map(tradeRow));
      loadCandles();
      await refreshStats();
    }
  } catch {
    // Keep the rows shown; the next poll tries again (reads are safe to repeat).
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
  document.getElementById("claimable-wei").textContent = fmt(wei, 8);
  document.getElementById("claimable-token").textContent = fmt(tok, 2);
  claimButton.disabled = BigInt(wei) === 0n && BigInt(tok) === 0n;
  rewardsBox.hidden = false;
  if (mine) {
    document.getElementById("creator-fees-wei").textContent = `${fmt(mine.claimed.creator_wei, 6)} ETH`;
    document.getElementById("creator-fees-token").textContent = `${fmt(mine.claimed.creator_token, 2)} ${article.dataset.symbol}`;
  }
}

connectCreator.addEventListener("click", async () => {
  rewardsStatus.textContent = "Waiting for your wallet…";
  try {
    account = await connectWallet();
    if (account.toLowerCase() !== creator.toLowerCase()) {
      rewardsStatus.textContent = `This wallet (${account}) did not create this token; only its creator can claim its fees.`;
      return;
    }
    await showRewards();
    connectCreator.hidden = true;
    rewardsStatus.textContent = "";
  } catch (err) {
    rewardsStatus.textContent = plainMessage(err);
  }
});

claimButton.addEventListener("click", async () => {
  claimButton.disabled = true;
  try {
    rewardsStatus.textContent = "Building the claim transaction…";
    const csrf = await csrfToken();
    const { body: built } = await api("/api/evm/evmchain/build-creator-rewards-claim", { method: "POST", csrfToken: csrf, body: { wallet: account } });
    const { body: status } = await api("/api/evm/evmchain/status");
    await ensureChain(built.transaction.chainId, status.wallet_add_ethereum_chain);
    rewardsStatus.textContent = "Confirm the claim in your wallet.";
    const hash = await sendTransaction(built.transaction);
    rewardsStatus.textContent = `Claim sent (${hash}); waiting for it to be mined…`;
    await waitForReceipt(hash);
    rewardsStatus.textContent = "Fees claimed. Totals update once the claim is indexed.";
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

loadCandles();
setInterval(refreshTrades, POLL_MS);
