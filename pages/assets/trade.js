// The token page's trade widget (docs/trade.md): buy / sell tabs -> connect + sign in (one
// signature, through the page's one wallet connection and chip, walletChip.js) -> check the amount and slippage -> build the swap on the
// service -> review (you pay, you receive about, at least, wallet steps) -> switch chain -> the
// wallet sends the built approval (a sell whose allowance is short) and swap unchanged.
// The page never chooses the router, pool or calldata: it sends what the service built.
import { parseEther } from "/assets/vendor/viem/parseEther.js";
import { bpsToPercent, formatAmount, percentToBps, unitsToDecimal } from "/assets/format.js";
import { askReview } from "/assets/review.js";
import { api, csrfToken, ensureChain, plainMessage, provider, sendTransaction } from "/assets/wallet.js";
import {
  connectAndSignIn,
  mountWalletBar,
  onWalletChange,
  refreshWalletChip,
  restoreConnection,
} from "/assets/walletChip.js";

const widget = document.getElementById("trade");
const form = document.getElementById("trade-form");
const submit = document.getElementById("trade-submit");
const statusLine = document.getElementById("trade-status");
const review = document.getElementById("trade-review");
const amountLabel = document.getElementById("trade-amount-label");
const amountHint = document.getElementById("hint-amount");
const tabs = { buy: document.getElementById("tab-buy"), sell: document.getElementById("tab-sell") };
const token = widget.dataset.token;
const symbol = widget.dataset.symbol;
const MAX_BUY_WEI = BigInt(widget.dataset.maxBuyWei);
const MAX_SLIPPAGE_BPS = Number(widget.dataset.maxSlippageBps);

let side = "buy";
/** The signed-in wallet (the page's one connection, shared with the creator rewards). */
let account = null;

function setStatus(text, kind = "info") {
  statusLine.textContent = text;
  statusLine.dataset.kind = kind;
}

/** A failure that belongs to one field of the widget: shown under it, the field marked and focused. */
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

/** An API message naming a field ("slippage_bps: must be at most 5000 (50 %)") as a widget field error. */
function apiFieldError(err) {
  if (err?.apiError === "insufficient_balance" || err?.apiError === "no_liquidity")
    return new FieldError("amount", sentence(err.message));
  const match = /^(amount_in_wei|slippage_bps): (.+)$/s.exec((err?.apiError && err.message) || "");
  if (!match) return null;
  if (match[1] === "slippage_bps")
    return new FieldError("slippage_pct", `Enter a slippage from 0 to ${bpsToPercent(MAX_SLIPPAGE_BPS)} %.`);
  return new FieldError("amount", sentence(match[2]));
}

/** "the amount must be more than 0" -> "The amount must be more than 0." */
function sentence(text) {
  const words = plainMessage({ message: text });
  const capital = words.charAt(0).toUpperCase() + words.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

function fail(err) {
  const fieldError = err instanceof FieldError ? err : apiFieldError(err);
  if (fieldError) {
    const control = form.elements.namedItem(fieldError.field);
    control.setAttribute("aria-invalid", "true");
    document.getElementById(`error-${fieldError.field}`).textContent = fieldError.message;
    control.focus();
    setStatus(`Check the ${fieldError.field === "amount" ? "amount" : "slippage"}: ${fieldError.message}`, "error");
  } else {
    setStatus(err?.apiError ? sentence(err.message) : plainMessage(err), "error");
  }
  review.hidden = true;
  submit.disabled = false;
}

function selectSide(next) {
  side = next;
  for (const [name, tab] of Object.entries(tabs)) {
    tab.setAttribute("aria-selected", String(name === side));
    tab.tabIndex = name === side ? 0 : -1;
  }
  form.setAttribute("aria-labelledby", `tab-${side}`);
  amountLabel.textContent = side === "buy" ? "You pay (ETH)" : `You sell (${symbol})`;
  amountHint.textContent =
    side === "buy"
      ? `More than 0, at most ${unitsToDecimal(MAX_BUY_WEI)} ETH.`
      : `More than 0, at most the ${symbol} your wallet holds.`;
  clearFieldErrors();
  review.hidden = true;
  setStatus("");
  updateSubmitLabel();
}

function updateSubmitLabel() {
  submit.textContent = account ? (side === "buy" ? `Review buy` : `Review sell`) : "Connect wallet to trade";
}

for (const [name, tab] of Object.entries(tabs)) {
  tab.addEventListener("click", () => selectSide(name));
  // Arrow keys move between the two tabs (WAI-ARIA tabs pattern).
  tab.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const other = name === "buy" ? "sell" : "buy";
    selectSide(other);
    tabs[other].focus();
  });
}

/** Reads and checks the widget; throws a FieldError for a value it can check itself. */
function readForm() {
  const data = new FormData(form);
  const amount = String(data.get("amount") ?? "").trim();
  if (!/^\d+(\.\d{1,18})?$/.test(amount))
    throw new FieldError("amount", "Enter an amount such as 0.05 (digits and a point, at most 18 decimals).");
  const amountWei = parseEther(amount); // exact: decimal string -> base units (18 decimals)
  if (amountWei === 0n) throw new FieldError("amount", "Enter an amount above 0.");
  if (side === "buy" && amountWei > MAX_BUY_WEI)
    throw new FieldError("amount", `A buy can pay at most ${unitsToDecimal(MAX_BUY_WEI)} ETH.`);
  const bps = percentToBps(String(data.get("slippage_pct") ?? ""));
  if (bps === null || bps > MAX_SLIPPAGE_BPS)
    throw new FieldError(
      "slippage_pct",
      `Enter a slippage from 0 to ${bpsToPercent(MAX_SLIPPAGE_BPS)} % with at most two decimals, such as 0.5.`,
    );
  return { wallet: account, token, side, amount_in_wei: amountWei.toString(), slippage_bps: bps };
}

/** The amounts of a build in words: what is paid and received, in ETH or tokens. */
function describe(built) {
  const [paid, received] = built.side === "buy" ? ["ETH", symbol] : [symbol, "ETH"];
  const digits = built.side === "buy" ? 2 : 6;
  return {
    pay: `${formatAmount(built.amount_in_wei, 18, 6)} ${paid}`,
    receive: `${formatAmount(built.expected_amount_out_wei, 18, digits)} ${received}`,
    minimum: `${formatAmount(built.minimum_amount_out_wei, 18, digits)} ${received} (with ${bpsToPercent(built.slippage_bps)} % slippage)`,
  };
}

/** Shows the review card and resolves true (confirm) or false (cancel). */
function confirmReview(built) {
  const words = describe(built);
  document.getElementById("trade-review-pay").textContent = words.pay;
  document.getElementById("trade-review-receive").textContent = words.receive;
  document.getElementById("trade-review-minimum").textContent = words.minimum;
  document.getElementById("trade-review-steps").textContent = built.approval
    ? `Two: first allow the exchange to move ${words.pay}, then the sell.`
    : "One: the swap.";
  return askReview(review, document.getElementById("trade-confirm"), document.getElementById("trade-cancel"));
}

/** Waits for a receipt through the wallet's provider; a reverted transaction is said in words. */
async function mined(hash, what) {
  const deadline = Date.now() + 120000;
  for (;;) {
    const receipt = await provider().request({ method: "eth_getTransactionReceipt", params: [hash] });
    if (receipt) {
      if (receipt.status !== "0x1")
        throw new Error(
          `The ${what} failed on chain: the price moved more than your slippage allows, or it came after its deadline. Nothing was swapped; try again.`,
        );
      return receipt;
    }
    if (Date.now() > deadline) throw new Error(`The ${what} was not mined within 2 minutes; check your wallet.`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// The wallet chip of the token page sits at the top of this widget; its errors (a failed switch)
// are said in the widget's status line.
mountWalletBar({
  chipBox: document.getElementById("account"),
  choicesBox: document.getElementById("wallet-choices"),
  onError: (message) => setStatus(message, "error"),
});

async function connect() {
  try {
    await connectAndSignIn(setStatus);
    setStatus("Connected. Enter an amount and review the trade.", "ok");
  } catch (err) {
    fail(err); // never half-connected: without the sign-in no address is shown
  }
}

// Connected here or by the creator's button; disconnected by the chip or by the wallet.
onWalletChange((connection, message, failed) => {
  account = connection?.account ?? null;
  updateSubmitLabel();
  if (connection) return;
  review.hidden = true;
  submit.disabled = false;
  setStatus(message ?? "Disconnected. Connect a wallet to trade.", failed ? "error" : "info");
});
// Signed in earlier in this browser session (e.g. on the launch page) and still shared by the
// wallet: connected again without a prompt.
restoreConnection();

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearFieldErrors();
  if (!account) return connect();
  submit.disabled = true;
  try {
    const request = readForm();
    setStatus("Getting a quote…");
    const csrf = await csrfToken();
    const { body: built } = await api("/api/evm/evmchain/build-swap", {
      method: "POST",
      csrfToken: csrf,
      body: request,
    });
    setStatus("Review the trade below, then confirm it in your wallet.");
    if (!(await confirmReview(built))) {
      setStatus("Cancelled: nothing was sent.");
      submit.disabled = false;
      return;
    }
    const { body: status } = await api("/api/evm/evmchain/status");
    setStatus(`Switch your wallet to the ${status.chain_name} network if it asks.`);
    await ensureChain(built.transaction.chainId, status.wallet_add_ethereum_chain, status.chain_name);
    refreshWalletChip();
    if (built.approval) {
      setStatus(`Step 1 of 2: allow the exchange to move your ${symbol} in your wallet.`);
      await mined(await sendTransaction(built.approval), "approval");
      setStatus(
        built.side === "buy" ? "Confirm the buy in your wallet." : "Step 2 of 2: confirm the sell in your wallet.",
      );
    } else {
      setStatus(built.side === "buy" ? "Confirm the buy in your wallet." : "Confirm the sell in your wallet.");
    }
    const hash = await sendTransaction(built.transaction);
    setStatus("Sent; waiting for it to be mined…");
    await mined(hash, built.side);
    refreshWalletChip(); // the balance changed
    const words = describe(built);
    setStatus(
      built.side === "buy"
        ? `Bought: you paid ${words.pay} and received at least ${words.minimum.replace(/ \(with .*\)$/, "")}. The trade list updates in a moment.`
        : `Sold: you sold ${words.pay} and received at least ${words.minimum.replace(/ \(with .*\)$/, "")}. The trade list updates in a moment.`,
      "ok",
    );
    form.elements.namedItem("amount").value = "";
  } catch (err) {
    fail(err);
    return;
  }
  submit.disabled = false;
});

selectSide("buy");
