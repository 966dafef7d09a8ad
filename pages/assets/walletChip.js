// The wallet chip and the wallet choice (docs/pages.md "Wallet"): the connected address, the
// network by name (or "Wrong network" with a button that switches the wallet), the balance in ETH
// and a Disconnect button; and, when several wallets announced themselves (EIP-6963), one button
// per wallet to pick from. Built with DOM calls and textContent only (wallet names are text).
import { formatAmount, shortHex } from "/assets/format.js";
import {
  api,
  chooseWallet,
  discoveredWallets,
  ensureChain,
  plainMessage,
  provider,
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
