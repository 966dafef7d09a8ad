// The launch page's flow (docs/pages.md): connect -> sign in (+ API key, one signature) -> check the
// form -> (logo upload) -> build -> review (total ETH, expected tokens, predicted address) ->
// switch chain -> send the built transaction unchanged -> verify until redirect_ready -> token page.
import { parseEther } from "/assets/vendor/viem/parseEther.js";
import { formatAmount, percentToBps, bpsToPercent, unitsToDecimal } from "/assets/format.js";
import { askReview } from "/assets/review.js";
import { api, csrfToken, ensureChain, plainMessage, sendTransaction, sleep } from "/assets/wallet.js";
import {
  connectAndSignIn,
  mountWalletBar,
  onWalletChange,
  refreshWalletChip,
  restoreConnection,
} from "/assets/walletChip.js";

const form = document.getElementById("launch-form");
const launchButton = document.getElementById("launch");
const connectButton = document.getElementById("connect");
const accountLabel = document.getElementById("account");
const statusLine = document.getElementById("status");
const progress = document.getElementById("progress");
const review = document.getElementById("review");

const LIMITS = { name: 32, symbol: 11, description: 1000 };
const MAX_FIRST_BUY_WEI = 100n * 10n ** 18n;
const MAX_SLIPPAGE_BPS = Number(document.getElementById("field-slippage_pct").dataset.maxBps || 5000);
/** API field name -> form field name, where they differ. */
const FORM_FIELD = { first_buy_wei: "first_buy_eth", slippage_bps: "slippage_pct", image_url: "logo", image: "logo" };

/** The signed-in wallet and this browser's API key for it (the page's one wallet connection). */
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

/** A failure that belongs to one form field: shown next to it, the field marked and focused. */
class FieldError extends Error {
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

function clearFieldErrors() {
  for (const control of form.querySelectorAll("[aria-invalid]")) control.removeAttribute("aria-invalid");
  for (const line of form.querySelectorAll(".field-error")) line.textContent = "";
}

function showFieldError(field, message) {
  const control = form.elements.namedItem(field);
  const line = document.getElementById(`error-${field}`);
  if (!control || !line) return false;
  control.setAttribute("aria-invalid", "true");
  line.textContent = message;
  control.focus();
  return true;
}

/** The label people see for a field ("First buy in ETH (optional)" -> "First buy in ETH"). */
function fieldLabel(field) {
  const label = form.querySelector(`label[for="field-${field}"]`);
  return label ? label.textContent.replace(/\s*\(optional\)\s*$/, "").trim() : field;
}

/**
 * An API validation message ("first_buy_wei: must be at most 100 ETH (100000000000000000000 wei)")
 * as the form field it names and words without wei; null when it names no field of the form.
 */
function apiFieldError(err) {
  if (!err?.apiError) return null;
  const match = /^([a-z_]+): (.+)$/s.exec(err.message || "");
  if (!match) return null;
  const field = FORM_FIELD[match[1]] ?? match[1];
  if (!form.elements.namedItem(field)) return null;
  return new FieldError(field, match[2]);
}

function fail(err) {
  const fieldError = err instanceof FieldError ? err : apiFieldError(err);
  if (fieldError && showFieldError(fieldError.field, wordsOnly(fieldError.message))) {
    setStatus(`Check ${fieldLabel(fieldError.field)}: ${wordsOnly(fieldError.message)}`, "error");
  } else {
    setStatus(plainMessage(err), "error");
  }
  review.hidden = true;
  launchButton.disabled = account === null;
}

/** Drops wei figures an API message adds in parentheses (the page speaks ETH). */
function wordsOnly(text) {
  return plainMessage({ message: text });
}

mountWalletBar({
  chipBox: accountLabel,
  choicesBox: document.getElementById("wallet-choices"),
  connectButton,
  onError: (message) => setStatus(message, "error"),
});

connectButton.addEventListener("click", async () => {
  try {
    await connectAndSignIn(setStatus, " (it also creates this browser's API key, which stays in this browser)");
    setStatus("Connected. Fill in the form and press Launch.");
  } catch (err) {
    fail(err); // never half-connected: without the sign-in the page shows no account
  }
});

// Connect shows the chip (walletChip.js); Disconnect, or the wallet changing accounts, ends here.
onWalletChange((connection, message, failed) => {
  account = connection?.account ?? null;
  apiKey = connection?.apiKey ?? null;
  launchButton.disabled = account === null;
  if (connection) return;
  review.hidden = true;
  setStatus(message ?? "Disconnected. Connect a wallet to launch.", failed ? "error" : "info");
  connectButton.focus();
});

// Signed in earlier in this browser session and still shared by the wallet: connected again
// without a prompt (the logo upload needs this browser's API key, so only with it).
restoreConnection({ needApiKey: true }).then((connection) => {
  if (connection) setStatus("Connected. Fill in the form and press Launch.");
});

// Live counters: the length is shown as it is typed; nothing is cut.
for (const [field, max] of Object.entries(LIMITS)) {
  const control = form.elements.namedItem(field);
  const counter = document.getElementById(`counter-${field}`);
  const update = () => {
    const length = control.value.trim().length;
    counter.textContent = `${length} / ${max}`;
    counter.classList.toggle("error", length > max);
  };
  control.addEventListener("input", update);
  update();
}

/** Reads and checks the form; throws a FieldError naming the field for a value it can check itself. */
function readForm() {
  const data = new FormData(form);
  const text = (name) => String(data.get(name) ?? "").trim();
  const request = { creator: account, name: text("name"), symbol: text("symbol") };
  if (!request.name) throw new FieldError("name", "Give the token a name.");
  if (request.name.length > LIMITS.name) {
    throw new FieldError(
      "name",
      `The name has ${request.name.length} characters; at most ${LIMITS.name} are allowed. Shorten it: it is permanent once launched.`,
    );
  }
  if (!request.symbol) throw new FieldError("symbol", "Give the token a symbol.");
  if (!/^[A-Za-z0-9]{1,11}$/.test(request.symbol))
    throw new FieldError("symbol", `The symbol must be 1 to ${LIMITS.symbol} letters or digits.`);
  if (text("description").length > LIMITS.description) {
    throw new FieldError(
      "description",
      `The description has ${text("description").length} characters; at most ${LIMITS.description} are allowed.`,
    );
  }
  for (const field of ["description", "website_url", "twitter_url", "telegram_url"])
    if (text(field)) request[field] = text(field);
  const firstBuy = text("first_buy_eth");
  if (firstBuy) {
    if (!/^\d+(\.\d{1,18})?$/.test(firstBuy))
      throw new FieldError("first_buy_eth", "Enter an amount of ETH such as 0.05 (at most 18 decimals).");
    const wei = parseEther(firstBuy); // exact: decimal string -> wei bigint
    if (wei > MAX_FIRST_BUY_WEI)
      throw new FieldError("first_buy_eth", `The first buy can be at most ${unitsToDecimal(MAX_FIRST_BUY_WEI)} ETH.`);
    request.first_buy_wei = wei.toString();
  }
  const slippage = text("slippage_pct");
  if (slippage) {
    const bps = percentToBps(slippage); // exact: "0.5" -> 50
    if (bps === null || bps > MAX_SLIPPAGE_BPS) {
      throw new FieldError(
        "slippage_pct",
        `Enter a slippage from 0 to ${bpsToPercent(MAX_SLIPPAGE_BPS)} % with at most two decimals, such as 0.5.`,
      );
    }
    request.slippage_bps = bps;
  }
  const logo = data.get("logo");
  return { request, logo: logo instanceof File && logo.size > 0 ? logo : null };
}

/** Shows the review card and resolves true (confirm) or false (cancel). */
function confirmReview(built, _request, symbol) {
  const policy = built.policy;
  document.getElementById("review-total").textContent = `${unitsToDecimal(policy.total_transaction_value_wei)} ETH`;
  document.getElementById("review-split").textContent =
    `${unitsToDecimal(policy.minimum_pool_liquidity_wei)} ETH pool liquidity + ${unitsToDecimal(policy.first_buy_amount_wei)} ETH first buy`;
  document.getElementById("review-tokens").textContent =
    BigInt(built.expected_tokens_out) === 0n
      ? "No first buy."
      : `about ${formatAmount(built.expected_tokens_out, 18, 2)} ${symbol} (at least ${formatAmount(built.amount_out_minimum, 18, 2)} with ${bpsToPercent(built.slippage_bps)} % slippage)`;
  document.getElementById("review-address").textContent = built.predicted_token_address;
  return askReview(review, document.getElementById("review-confirm"), document.getElementById("review-cancel"));
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearFieldErrors();
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
    const { body: built } = await api("/api/evm/evmchain/build-direct-v3-launch", {
      method: "POST",
      csrfToken: csrf,
      body: request,
    });
    setStatus("Review the launch below, then confirm it in your wallet.");
    if (!(await confirmReview(built, request, request.symbol))) {
      setStatus("Cancelled: nothing was sent.");
      launchButton.disabled = false;
      return;
    }
    step(
      `Transaction built: it sends ${unitsToDecimal(built.policy.total_transaction_value_wei)} ETH to the launch factory.`,
    );
    setStatus(`Switch your wallet to the ${status.chain_name} network if it asks.`);
    await ensureChain(built.transaction.chainId, status.wallet_add_ethereum_chain, status.chain_name);
    refreshWalletChip();
    setStatus("Confirm the launch transaction in your wallet.");
    const txHash = await sendTransaction(built.transaction);
    step(`Sent: ${txHash}`);
    setStatus("Waiting for the transaction to be mined and verified…");
    const metadata = {
      name: request.name,
      symbol: request.symbol,
      ...(request.description ? { description: request.description } : {}),
    };
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
      if (Date.now() > deadline)
        throw new Error("The launch was sent but is not verified yet. Reload the token page later: nothing is lost.");
      await sleep(1000 * Math.min(5, Number(body.retry_after_sec) || 1));
    }
  } catch (err) {
    fail(err);
  }
});
