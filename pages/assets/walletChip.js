// The page's wallet connection (docs/pages.md "Wallet"), one per page and shared by every script
// on it (an ES module is evaluated once per page): connect + Sign-In with Ethereum, the wallet
// chip (the connected address, the network by name or "Wrong network" with a button that switches
// the wallet, the balance in ETH, and a Disconnect button), the wallet choice when several wallets
// announced themselves (EIP-6963), and disconnect. Built with DOM calls and textContent only
// (wallet names are text).
import { formatAmount, shortHex } from "/assets/format.js";
import {
  api,
  chooseWallet,
  connectWallet,
  disconnectWallet,
  discoveredWallets,
  ensureChain,
  needsWalletChoice,
  plainMessage,
  provider,
  signIn,
  storedApiKey,
  walletSnapshot,
} from "/assets/wallet.js";

let networkAnswer;
/**
 * The network the service's transactions need, from `GET /api/evm/evmchain/status` (asked once
 * per page; asked again after a failure).
 * @returns {Promise<{ chainId: string, name: string, add: object | null }>}
 */
export function requiredNetwork() {
  networkAnswer ??= api("/api/evm/evmchain/status").then(({ body }) => ({
    chainId: String(body.chain_id).toLowerCase(),
    name: body.chain_name,
    add: body.wallet_add_ethereum_chain,
  }));
  networkAnswer.catch(() => {
    networkAnswer = undefined;
  });
  return networkAnswer;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Shows the chip for `account` in `container` and keeps it current (after a switch, and on the
 * wallet's `chainChanged` / `accountsChanged` events when it emits them).
 * @param {HTMLElement} container
 * @param {{ account: string, onDisconnect: (message?: string) => void, onError?: (message: string) => void }} options
 *   onDisconnect: the Disconnect button was pressed, or the wallet changed accounts (with a message)
 * @returns {{ refresh: () => Promise<void>, unmount: () => void }}
 */
export function mountWalletChip(container, { account, onDisconnect, onError = () => {} }) {
  const chip = element("div", "wallet-chip");
  chip.setAttribute("role", "group");
  chip.setAttribute("aria-label", "Connected wallet");
  const address = element("span", "address", shortHex(account));
  address.title = account;
  const network = element("span", "network", "…");
  const balance = element("span", "balance");
  const switchButton = element("button", "secondary", "Switch network");
  switchButton.type = "button";
  switchButton.hidden = true;
  const disconnect = element("button", "secondary", "Disconnect");
  disconnect.type = "button";
  chip.append(address, network, balance, switchButton, disconnect);
  container.replaceChildren(chip);

  async function refresh() {
    try {
      const [required, wallet] = await Promise.all([requiredNetwork(), walletSnapshot(account)]);
      const right = wallet.chainId === required.chainId;
      network.textContent = right ? required.name : "Wrong network";
      network.className = right ? "network" : "network wrong";
      balance.textContent = right ? `${formatAmount(wallet.balanceWei, 18, 4)} ETH` : "";
      switchButton.textContent = `Switch to ${required.name}`;
      switchButton.hidden = right;
    } catch (err) {
      onError(plainMessage(err));
    }
  }
  switchButton.addEventListener("click", async () => {
    switchButton.disabled = true;
    try {
      const required = await requiredNetwork();
      await ensureChain(required.chainId, required.add, required.name);
    } catch (err) {
      onError(plainMessage(err));
    } finally {
      switchButton.disabled = false;
      await refresh();
    }
  });
  disconnect.addEventListener("click", () => onDisconnect());
  const wallet = provider();
  const accountsChanged = (accounts) => {
    if (!accounts?.[0] || accounts[0].toLowerCase() !== account.toLowerCase())
      onDisconnect("Your wallet switched to another account: connect again to use it.");
  };
  wallet.on?.("chainChanged", refresh);
  wallet.on?.("accountsChanged", accountsChanged);
  refresh();
  return {
    refresh,
    unmount() {
      wallet.removeListener?.("chainChanged", refresh);
      wallet.removeListener?.("accountsChanged", accountsChanged);
      container.replaceChildren();
    },
  };
}

/**
 * Offers every announced wallet (EIP-6963) as a button in `container` and resolves once one is
 * picked (it is then used for every request). Icons are shown only as data: images (the page's
 * CSP loads no other origin).
 * @param {HTMLElement} container
 * @returns {Promise<void>}
 */
export function chooseWalletFrom(container) {
  return new Promise((resolve) => {
    const buttons = discoveredWallets().map(({ info }) => {
      const button = element("button", "secondary");
      button.type = "button";
      if (typeof info.icon === "string" && info.icon.startsWith("data:image/")) {
        const icon = element("img");
        icon.src = info.icon;
        icon.alt = "";
        button.append(icon);
      }
      button.append(document.createTextNode(info.name || "Unnamed wallet"));
      button.addEventListener("click", () => {
        chooseWallet(info.uuid);
        container.replaceChildren();
        resolve();
      });
      return button;
    });
    container.replaceChildren(element("span", "", "Choose a wallet:"), ...buttons);
    buttons[0]?.focus();
  });
}

// ---- the page's connection: one account, one chip, shared by every script of the page ----------

/** The signed-in wallet: `{ account, apiKey }`, or null while disconnected. */
let connected = null;
/** The restore after the page load ({@link restoreConnection}), once per page. */
let restoring = null;
/** The connect in progress (a second Connect press waits for it instead of asking the wallet twice). */
let connecting = null;
/** The chip while connected. */
let chip = null;
/** Where the wallet bar lives: `{ chipBox, choicesBox, connectButton, onError }` ({@link mountWalletBar}). */
let bar = null;
const listeners = new Set();

/**
 * Tells the page where its wallet bar is: the box the chip goes in, the box the wallet choice goes
 * in, the page's own Connect button (hidden while connected; optional) and where chip errors go
 * (a failed network switch, an unreadable balance) as plain words.
 * @param {{ chipBox: HTMLElement, choicesBox: HTMLElement, connectButton?: HTMLElement | null, onError: (message: string) => void }} where
 */
export function mountWalletBar(where) {
  bar = { connectButton: null, ...where };
}

/** The signed-in wallet `{ account, apiKey }` (apiKey: this browser's API key for it), or null. */
export function walletConnection() {
  return connected;
}

/**
 * Calls `listener(connection, message, failed)` after every connect (`connection` =
 * `{ account, apiKey }`) and disconnect (`connection` = null; `message` says why in words, or is
 * undefined after a plain Disconnect press; `failed` when the service could not be told).
 * @param {(connection: { account: string, apiKey: string | null } | null, message?: string, failed?: boolean) => void} listener
 */
export function onWalletChange(listener) {
  listeners.add(listener);
}

/**
 * Connects the wallet and signs this session in with it (one signature, none when the session is
 * already signed in as that wallet and this browser holds its key), then shows the chip. Offers the
 * wallet choice first when several wallets announced themselves. Resolves the connection; already
 * connected, it resolves at once. On any failure (a rejected request or signature) the page stays
 * disconnected (no address shown) and the error is thrown for the caller to say in words.
 * @param {(text: string) => void} say - the caller's status line, for the steps ("Waiting for your wallet…")
 * @param {string} [why] - what the signature is for, appended to the sign request in words
 * @returns {Promise<{ account: string, apiKey: string | null }>}
 */
export function connectAndSignIn(say, why = "") {
  if (connected) return Promise.resolve(connected);
  connecting ??= (async () => {
    try {
      // A restore in flight (page load) finishes first: one session request at a time, and no
      // prompt when it restores the connection.
      await restoring;
      if (connected) return connected;
      if (needsWalletChoice()) {
        say("Several wallets are installed: choose the one to connect.");
        await chooseWalletFrom(bar.choicesBox);
      }
      say("Waiting for your wallet…");
      const account = await connectWallet();
      say(`Sign the message in your wallet to sign in${why}. Signing costs nothing.`);
      const apiKey = await signIn(account);
      connected = { account, apiKey };
      showChip(account);
      for (const listener of listeners) listener(connected);
      return connected;
    } finally {
      connecting = null;
    }
  })();
  return connecting;
}

/**
 * Restores the connection after a page load without asking anything: when this browser session is
 * signed in as a wallet (`GET /api/evm/evmchain/session`) and the wallet already shares that same
 * account with this site (`eth_accounts`, which never prompts), the chip is shown and listeners
 * hear the connection, so moving from page to page (the launch page to the token page) keeps the
 * wallet connected. Nothing happens when several wallets announced themselves (the person picks
 * one with Connect), without a wallet, or on any failure: the page then starts disconnected.
 * @param {{ needApiKey?: boolean }} [options] - needApiKey: restore only when this browser holds the
 *   wallet's API key (the launch page uploads the logo with it)
 * @returns {Promise<{ account: string, apiKey: string | null } | null>}
 */
export function restoreConnection(options) {
  restoring ??= restore(options);
  return restoring;
}

async function restore({ needApiKey = false } = {}) {
  try {
    if (connected || connecting || needsWalletChoice()) return connected;
    const { body: session } = await api("/api/evm/evmchain/session");
    if (!session.wallet) return null;
    const accounts = await provider().request({ method: "eth_accounts" });
    const account = accounts?.[0];
    if (!account || account.toLowerCase() !== session.wallet.toLowerCase() || connected || connecting) return connected;
    const apiKey = storedApiKey(account);
    if (needApiKey && !apiKey) return null;
    connected = { account, apiKey };
    showChip(account);
    for (const listener of listeners) listener(connected);
    return connected;
  } catch {
    return null; // no wallet, or the service did not answer: Connect works as before
  }
}

/**
 * Disconnects: the chip goes, the session forgets the wallet (`disconnectWallet`), the Connect
 * button comes back, and every listener hears `null` with `message` (undefined for a plain
 * Disconnect press: the page says its own words) and whether it is an error (the service could not
 * be told; the message then says so).
 * @param {string} [message] - why, when the page did not ask for it (the wallet changed accounts)
 */
export async function disconnect(message) {
  chip?.unmount();
  chip = null;
  connected = null;
  if (bar?.connectButton) bar.connectButton.hidden = false;
  let said = message;
  let failed = false;
  try {
    await disconnectWallet();
  } catch (err) {
    said = `Disconnected in this page; the service could not be told: ${plainMessage(err)}`;
    failed = true;
  }
  for (const listener of listeners) listener(null, said, failed);
}

/** Shows the chip of `account` in the wallet bar (the Connect button, if any, gives way). */
function showChip(account) {
  if (bar.connectButton) bar.connectButton.hidden = true;
  chip = mountWalletChip(bar.chipBox, {
    account,
    onDisconnect: (message) => disconnect(message),
    onError: bar.onError,
  });
}

/** Reads the chip's network and balance again (after the page switched the chain itself). */
export function refreshWalletChip() {
  return chip?.refresh();
}
