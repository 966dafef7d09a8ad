// The token page's creator rewards (docs/pages.md "Token page"): "I am the creator" connects
// through the page's one wallet connection, shows the claimable 70 % of the LP fees (WETH and
// tokens) and sends the `collectFeesMany` claim built by the service through the wallet.
import { formatAmount } from "/assets/format.js";
import { creator, symbol, token } from "/assets/tokenPageData.js";
import { api, csrfToken, ensureChain, plainMessage, sendTransaction, waitForReceipt } from "/assets/wallet.js";
import { connectAndSignIn, onWalletChange, refreshWalletChip } from "/assets/walletChip.js";

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
      `${formatAmount(mine.claimed.creator_token, 18, 2)} ${symbol}`;
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
