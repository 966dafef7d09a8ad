// The launch page's flow (docs/pages.md): connect -> API key -> (logo upload) -> build -> switch
// chain -> send the built transaction unchanged -> verify until redirect_ready -> token page.
import { parseEther } from "/assets/vendor/viem/parseEther.js";
import { api, connectWallet, csrfToken, ensureApiKey, ensureChain, plainMessage, sendTransaction, sleep } from "/assets/wallet.js";

const form = document.getElementById("launch-form");
const launchButton = document.getElementById("launch");
const connectButton = document.getElementById("connect");
const accountLabel = document.getElementById("account");
const statusLine = document.getElementById("status");
const progress = document.getElementById("progress");

let account = null;
let apiKey = null;

function setStatus(text, kind = "info") {
  statusLine.textContent = text;
  statusLine.dataset.kind = kind;
}

function step(text) {
  const item = document.createElement("li");
  item.textContent = text;
  progress.append(item);
}

function fail(err) {
  setStatus(plainMessage(err), "error");
  launchButton.disabled = account === null;
}

connectButton.addEventListener("click", async () => {
  setStatus("Waiting for your wallet…");
  try {
    account = await connectWallet();
    accountLabel.textContent = account;
    setStatus("Sign the message in your wallet to create this browser's API key (it stays in this browser).");
    apiKey = await ensureApiKey(account);
    connectButton.textContent = "Connected";
    connectButton.disabled = true;
    launchButton.disabled = false;
    setStatus("Connected. Fill in the form and press Launch.");
  } catch (err) {
    account = null;
    fail(err);
  }
});

/** Reads the form; throws plain errors for values the page can check itself. */
function readForm() {
  const data = new FormData(form);
  const text = (name) => String(data.get(name) ?? "").trim();
  const request = { creator: account, name: text("name"), symbol: text("symbol") };
  if (!request.name) throw new Error("Give the token a name.");
  if (!request.symbol) throw new Error("Give the token a symbol.");
  for (const field of ["description", "website_url", "twitter_url", "telegram_url"]) if (text(field)) request[field] = text(field);
  const firstBuy = text("first_buy_eth");
  if (firstBuy) {
    if (!/^\d+(\.\d{1,18})?$/.test(firstBuy)) throw new Error("The first buy must be an amount of ETH such as 0.05 (at most 18 decimals).");
    request.first_buy_wei = parseEther(firstBuy).toString(); // exact: decimal string -> wei bigint
  }
  const slippage = text("slippage_bps");
  if (slippage) request.slippage_bps = Number.parseInt(slippage, 10);
  const logo = data.get("logo");
  return { request, logo: logo instanceof File && logo.size > 0 ? logo : null };
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!account || !apiKey) return fail(new Error("Connect your wallet first."));
  launchButton.disabled = true;
  progress.replaceChildren();
  try {
    const { request, logo } = readForm();
    const { body: status } = await api("/api/evm/evmchain/status");
    if (logo) {
      setStatus("Uploading the logo…");
      const upload = new FormData();
      upload.append("image", logo);
      const { body: media } = await api("/api/v1/evmchain/media/upload", { method: "POST", apiKey, formData: upload });
      request.image_url = media.image_url;
      step("Logo uploaded and checked.");
    }
    setStatus("Building the launch transaction…");
    const csrf = await csrfToken();
    const { body: built } = await api("/api/evm/evmchain/build-direct-v3-launch", { method: "POST", csrfToken: csrf, body: request });
    step(`Transaction built: it sends ${built.policy.total_transaction_value_wei} wei to the launch factory.`);
    setStatus(`Switch your wallet to chain ${status.chain_id} if it asks.`);
    await ensureChain(built.transaction.chainId, status.wallet_add_ethereum_chain);
    setStatus("Confirm the launch transaction in your wallet.");
    const txHash = await sendTransaction(built.transaction);
    step(`Sent: ${txHash}`);
    setStatus("Waiting for the transaction to be mined and verified…");
    const metadata = { name: request.name, symbol: request.symbol, ...(request.description ? { description: request.description } : {}) };
    const deadline = Date.now() + 180000;
    for (;;) {
      const { status: code, body } = await api("/api/evm/evmchain/verify-direct-v3-launch", {
        method: "POST",
        csrfToken: csrf,
        body: { tx_hash: txHash, creator: account, write: true, launch_id: built.launch_id, metadata },
      });
      if (code === 200 && body.redirect_ready) {
        step("Verified: the token exists, its liquidity is locked forever.");
        setStatus("Opening the token page…", "ok");
        const url = new URL(body.token_url, window.location.href);
        window.location.assign(url.origin === window.location.origin ? url.pathname : body.token_url);
        return;
      }
      if (Date.now() > deadline) throw new Error("The launch was sent but is not verified yet. Reload the token page later: nothing is lost.");
      await sleep(1000 * Math.min(5, Number(body.retry_after_sec) || 1));
    }
  } catch (err) {
    fail(err);
  }
});
