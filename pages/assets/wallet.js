// Browser helpers shared by the pages: the EIP-1193 wallet (window.ethereum), the service's JSON
// API, the session's CSRF token and the browser's API key. Every failure becomes an Error whose
// message is plain words for the page to show; nothing is retried behind the user's back.
import { unitsToDecimal } from "/assets/format.js";

/** EIP-1193 / EIP-1474 error codes, in plain words. */
const WALLET_ERRORS = {
  4001: "You rejected the request in your wallet.",
  4100: "Your wallet has not authorised this site. Connect the wallet first.",
  4200: "Your wallet does not support this request.",
  4900: "Your wallet is disconnected from every network.",
  4901: "Your wallet is not connected to the required network.",
  4902: "Your wallet does not know this network yet.",
  "-32002": "Your wallet already has a request waiting: open the wallet and answer it.",
  "-32603": "Your wallet reported an internal error.",
};

/**
 * Turns a wallet or API failure into a sentence for the page: the catalogue's message in words,
 * never the error code; wei amounts are written in ETH, and a parenthesised wei figure that only
 * repeats an ETH amount is dropped.
 * @param {unknown} err - an Error (from {@link api} or the wallet), or anything thrown
 * @returns {string}
 * @example plainMessage({ message: "first_buy_wei: must be at most 100 ETH (100000000000000000000 wei)" }) // "first_buy_wei: must be at most 100 ETH"
 */
export function plainMessage(err) {
  if (!err) return "Something went wrong.";
  const text = String(err.message || err);
  if (/insufficient funds/i.test(text) || /exceeds balance/i.test(text)) {
    return "Your wallet does not have enough ETH for this transaction (the amount sent plus gas).";
  }
  if (!err.apiError && err.code !== undefined && WALLET_ERRORS[err.code]) return WALLET_ERRORS[err.code];
  return inEth(text);
}

/** "(100000000000000000000 wei)" after an ETH figure is dropped; "51000000000000000 wei" -> "0.051 ETH". */
function inEth(text) {
  return text.replace(/\s*\((\d+) wei\)/g, "").replace(/\b(\d+) wei\b/g, (_, wei) => `${unitsToDecimal(wei)} ETH`);
}

// ---- wallet discovery (EIP-6963) --------------------------------------------------------------
// Installed wallets announce themselves with `eip6963:announceProvider` (each with its own EIP-1193
// provider, name and icon) in answer to `eip6963:requestProvider`. The page offers them all when
// there are several; without any announcement, the single injected `window.ethereum` is used as
// before.

/** uuid -> { info: { uuid, name, icon, rdns }, provider } of every wallet that announced itself. */
const announced = new Map();
let chosen = null;

window.addEventListener("eip6963:announceProvider", (event) => {
  const detail = event.detail;
  if (!detail?.info?.uuid || typeof detail.provider?.request !== "function") return;
  announced.set(detail.info.uuid, Object.freeze({ info: detail.info, provider: detail.provider }));
});
window.dispatchEvent(new Event("eip6963:requestProvider"));

/**
 * The wallets that announced themselves (EIP-6963), in the order they did.
 * @returns {{ info: { uuid: string, name: string, icon: string, rdns: string }, provider: object }[]}
 */
export function discoveredWallets() {
  return [...announced.values()];
}

/** Uses the announced wallet `uuid` for every later request (until {@link forgetWallet}). */
export function chooseWallet(uuid) {
  const wallet = announced.get(uuid);
  if (!wallet) throw new Error("That wallet is no longer available. Reload the page and try again.");
  chosen = wallet;
}

/** Forgets the chosen wallet (the next connect offers the choice again). */
export function forgetWallet() {
  chosen = null;
}

/** Whether the user has to pick a wallet first: several announced and none chosen yet. */
export function needsWalletChoice() {
  return chosen === null && announced.size > 1;
}

/**
 * The wallet's EIP-1193 provider: the chosen announced wallet, else the injected `window.ethereum`,
 * else the only announced wallet; throws a plain error when there is none.
 */
export function provider() {
  if (chosen) return chosen.provider;
  if (window.ethereum && typeof window.ethereum.request === "function") return window.ethereum;
  if (announced.size === 1) return [...announced.values()][0].provider;
  throw new Error("No browser wallet found. Install an Ethereum wallet extension and reload this page.");
}

/** Asks the wallet for an account (eth_requestAccounts); returns the first, checksummed as given. */
export async function connectWallet() {
  const accounts = await provider().request({ method: "eth_requestAccounts" });
  if (!accounts || accounts.length === 0) throw new Error("Your wallet returned no account.");
  return accounts[0];
}

/**
 * Switches the wallet to `chainIdHex` (EIP-3326); when the wallet does not know the chain (4902),
 * adds it with the service's EIP-3085 parameters (null when the service publishes no public RPC
 * URL: then the user is asked to add the network by its name), then switches.
 * @param {string} chainIdHex - the chain id the built transaction names ("0x1237")
 * @param {object | null} addChainParameter - EIP-3085 parameters from the service's status
 * @param {string} [chainName] - the network's name, for messages (never the hex id)
 */
export async function ensureChain(chainIdHex, addChainParameter, chainName = addChainParameter?.chainName ?? "launch") {
  const current = await provider().request({ method: "eth_chainId" });
  if (typeof current === "string" && current.toLowerCase() === chainIdHex.toLowerCase()) return;
  try {
    await provider().request({ method: "wallet_switchEthereumChain", params: [{ chainId: chainIdHex }] });
  } catch (err) {
    if (err && (err.code === 4902 || err.code === "4902")) {
      // null: the service publishes no public RPC URL (its own RPC URL is private).
      if (!addChainParameter)
        throw new Error(`Your wallet does not know the ${chainName} network; add it in your wallet first.`);
      await provider().request({ method: "wallet_addEthereumChain", params: [addChainParameter] });
      await provider().request({ method: "wallet_switchEthereumChain", params: [{ chainId: chainIdHex }] });
      return;
    }
    throw err;
  }
}

/** Calls the service's JSON API; resolves `{status, body}` for 2xx, throws a plain Error otherwise. */
export async function api(path, { method = "GET", body, csrfToken, apiKey, formData } = {}) {
  const headers = {};
  if (csrfToken) headers["X-CSRF-Token"] = csrfToken;
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  let payload;
  if (formData) payload = formData;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(csrfToken ? { ...body, csrf_token: csrfToken } : body);
  }
  let res;
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: "same-origin" });
  } catch {
    throw new Error("The service could not be reached. Check your connection and try again.");
  }
  let json;
  try {
    json = await res.json();
  } catch {
    throw new Error(`The service answered ${res.status} without a readable body.`);
  }
  if (!res.ok || json.ok === false) {
    const err = new Error(json.message || `The service answered ${res.status}.`);
    err.apiError = json.error || String(res.status);
    err.status = res.status;
    err.body = json;
    throw err;
  }
  return { status: res.status, body: json, headers: res.headers };
}

/** The session's CSRF token (sets the session cookie on first use). */
export async function csrfToken() {
  const { body } = await api("/api/evm/evmchain/session");
  return body.csrf_token;
}

const keyName = (account) => `evmchain:api-key:${account.toLowerCase()}`;

/** This browser's API key for `account` (localStorage), or null when it holds none. */
export function storedApiKey(account) {
  try {
    return window.localStorage.getItem(keyName(account));
  } catch {
    return null; // storage disabled
  }
}

/**
 * Signs this browser session in as `account` with Sign-In with Ethereum (EIP-4361), once: the
 * session surface acts only for the wallet it signed in with. When this browser holds no API key
 * for `account` yet, the same signature also creates one (kept only in this browser's
 * localStorage), so the user signs one message, not two. Nothing is signed when the session is
 * already signed in as `account` and the key exists.
 * @returns the browser's API key for `account`
 */
export async function signIn(account) {
  const { body: session } = await api("/api/evm/evmchain/session");
  const stored = window.localStorage.getItem(keyName(account));
  if (stored && session.wallet && session.wallet.toLowerCase() === account.toLowerCase()) return stored;
  const csrf = session.csrf_token;
  const { body: challenge } = await api("/api/evm/evmchain/sign-in/challenge", {
    method: "POST",
    csrfToken: csrf,
    body: { wallet: account, create_api_key: !stored },
  });
  const signature = await provider().request({ method: "personal_sign", params: [challenge.message, account] });
  const { body: signedIn } = await api("/api/evm/evmchain/sign-in", {
    method: "POST",
    csrfToken: csrf,
    body: { wallet: account, signature, label: "browser" },
  });
  if (signedIn.api_key) window.localStorage.setItem(keyName(account), signedIn.api_key);
  return signedIn.api_key ?? stored;
}

/** Sends a transaction exactly as given (eth_sendTransaction); returns its hash. */
export async function sendTransaction(transaction) {
  return provider().request({ method: "eth_sendTransaction", params: [transaction] });
}

/** Waits for a transaction's receipt through the wallet's provider (polls every second). */
export async function waitForReceipt(hash, timeoutMs = 120000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await provider().request({ method: "eth_getTransactionReceipt", params: [hash] });
    if (receipt) {
      if (receipt.status !== "0x1")
        throw new Error("The transaction failed on chain (it was mined but reverted); nothing was claimed.");
      return receipt;
    }
    if (Date.now() > deadline) throw new Error(`The transaction was not mined within ${timeoutMs / 1000} s.`);
    await sleep(1000);
  }
}

/**
 * What the wallet chip shows: the wallet's current chain id (hex) and the account's balance in wei
 * (eth_getBalance through the wallet's provider, read on whatever network the wallet is on).
 * @returns {Promise<{ chainId: string, balanceWei: bigint }>}
 */
export async function walletSnapshot(account) {
  const chainId = await provider().request({ method: "eth_chainId" });
  const balance = await provider().request({ method: "eth_getBalance", params: [account, "latest"] });
  return { chainId: String(chainId).toLowerCase(), balanceWei: BigInt(balance) };
}

/**
 * Disconnects this page from the wallet: the session forgets the wallet it signed in with
 * (`POST /api/evm/evmchain/sign-out`), the wallet is asked to drop this site's account permission
 * (EIP-2255 `wallet_revokePermissions`, where supported; a refusal changes nothing), and the chosen
 * wallet is forgotten. The browser's API key stays in localStorage (it is revoked from the API).
 */
export async function disconnectWallet() {
  try {
    await api("/api/evm/evmchain/sign-out", { method: "POST", csrfToken: await csrfToken(), body: {} });
  } finally {
    try {
      await provider().request({ method: "wallet_revokePermissions", params: [{ eth_accounts: {} }] });
    } catch {
      // optional: many wallets have no such method; the page forgets the account either way
    }
    forgetWallet();
  }
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
