/**
 * The token page's trade widget (docs/trade.md, docs/pages.md): buy and sell tabs, the amount and
 * the slippage in %, their limits stated up front, and a review card (you pay, you receive about,
 * at least) shown before the wallet is asked, and the page's wallet chip (address, network or "Wrong
 * network" with a switch button, balance, Disconnect; `walletChip.js`) at its top, once connected.
 * `trade.js` runs it: connect + Sign-In with Ethereum through the page's one wallet connection,
 * `POST /api/evm/evmchain/build-swap`, then the wallet sends the built approval (a sell whose
 * allowance is short) and swap unchanged. Without JavaScript the form stays inert and says so.
 */
import { formatEther } from "viem";
import { DEFAULT_SWAP_SLIPPAGE_BPS, MAX_BUY_WEI, MAX_SWAP_SLIPPAGE_BPS } from "../chain/swap";

/** Props of {@link TradeWidget}. */
export type TradeWidgetProps = { token: string; symbol: string };

/** Basis points as a percentage text: 150 -> "1.5". */
const percent = (bps: number) => String(bps / 100);

/** The buy / sell widget. */
export function TradeWidget({ token, symbol }: TradeWidgetProps) {
  return (
    <section
      class="trade"
      id="trade"
      aria-labelledby="trade-title"
      data-token={token}
      data-symbol={symbol}
      data-max-buy-wei={MAX_BUY_WEI.toString()}
      data-max-slippage-bps={String(MAX_SWAP_SLIPPAGE_BPS)}
    >
      <h2 id="trade-title">Trade {symbol}</h2>
      {/* The page's wallet: the choice of wallet (EIP-6963) and the chip, filled by walletChip.js. */}
      <div class="trade-wallet">
        <div id="wallet-choices" class="wallet-choices"></div>
        <div id="account" class="wallet-account"></div>
      </div>
      <div class="tabs" role="tablist" aria-label="Buy or sell">
        <button type="button" role="tab" id="tab-buy" aria-selected="true" aria-controls="trade-form">
          Buy
        </button>
        <button type="button" role="tab" id="tab-sell" aria-selected="false" aria-controls="trade-form" tabindex={-1}>
          Sell
        </button>
      </div>
      <form id="trade-form" role="tabpanel" aria-labelledby="tab-buy" novalidate>
        <div class="field">
          <label for="trade-amount" id="trade-amount-label">
            You pay (ETH)
          </label>
          <input
            id="trade-amount"
            name="amount"
            inputmode="decimal"
            autocomplete="off"
            placeholder="0.01"
            aria-describedby="hint-amount error-amount"
          />
          <span class="hint" id="hint-amount">
            More than 0, at most {formatEther(MAX_BUY_WEI)} ETH.
          </span>
          <span class="field-error" id="error-amount"></span>
        </div>
        <div class="field">
          <label for="trade-slippage">Slippage tolerance (%)</label>
          <input
            id="trade-slippage"
            name="slippage_pct"
            inputmode="decimal"
            autocomplete="off"
            value={percent(DEFAULT_SWAP_SLIPPAGE_BPS)}
            aria-describedby="hint-slippage error-slippage_pct"
          />
          <span class="hint" id="hint-slippage">
            0 to {percent(MAX_SWAP_SLIPPAGE_BPS)} %, at most two decimals. The swap fails rather than give you less than
            the minimum.
          </span>
          <span class="field-error" id="error-slippage_pct"></span>
        </div>
        <button type="submit" id="trade-submit">
          Connect wallet to trade
        </button>
        <noscript>
          <p class="hint">Trading needs JavaScript and a browser wallet.</p>
        </noscript>
      </form>
      <section id="trade-review" class="review" hidden aria-labelledby="trade-review-title">
        <h3 id="trade-review-title">Review before your wallet asks</h3>
        <dl>
          <dt>You pay</dt>
          <dd id="trade-review-pay"></dd>
          <dt>You receive about</dt>
          <dd id="trade-review-receive"></dd>
          <dt>At least</dt>
          <dd id="trade-review-minimum"></dd>
          <dt>Wallet steps</dt>
          <dd id="trade-review-steps"></dd>
        </dl>
        <div class="actions">
          <button type="button" id="trade-confirm">
            Confirm in wallet
          </button>
          <button type="button" id="trade-cancel" class="secondary">
            Cancel
          </button>
        </div>
      </section>
      <p id="trade-status" class="status" role="status"></p>
    </section>
  );
}
