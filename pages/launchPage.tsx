/**
 * The launch page (`GET /launch`; docs/pages.md): a plain HTML form that `launch.js` drives with
 * the connected EIP-1193 wallet. Every field states its limits up front; nothing typed is cut or
 * rounded silently (no `maxlength`: a counter shows the length and a longer value is refused with
 * a message next to the field). Without JavaScript the page still explains how to launch through
 * the API.
 */
import type { Child } from "hono/jsx";
import { bpsToPercent } from "./format";
import { Layout } from "./layout";

/** Props: the bounds the form states (from the intent schema's limits). */
export type LaunchPageProps = {
  minimumLiquidityEth: string | null;
  maxSlippageBps: number;
  defaultSlippageBps: number;
  maxFirstBuyEth: string;
};

/** Upper bounds of the text fields, as the intent schema checks them (characters after trimming). */
const FIELD_LIMITS = { name: 32, symbol: 11, description: 1000 } as const;

/** The launch page. */
export function LaunchPage({
  minimumLiquidityEth,
  maxSlippageBps,
  defaultSlippageBps,
  maxFirstBuyEth,
}: LaunchPageProps) {
  return (
    <Layout
      title="Launch a token"
      description="Launch a token on evmchain from your own wallet: name, symbol, description, image and an optional first buy; the service never holds your key."
      scripts={["/assets/launch.js"]}
    >
      <h1>Launch a token</h1>
      <p>
        One transaction from your wallet creates the token, its Uniswap V3 pool (1 % fee tier), locks the liquidity
        forever in the fee locker (LP fees: 70 % to you, 30 % to the protocol) and, if you want, makes your first buy.
        {minimumLiquidityEth
          ? ` The transaction also sends the minimum pool liquidity, ${minimumLiquidityEth} ETH.`
          : ""}{" "}
        You review the amounts before your wallet asks you to confirm.
      </p>
      <noscript>
        <p class="error">
          This page needs JavaScript and a browser wallet (EIP-1193). Without them, launch through the API: see
          /api/docs.
        </p>
      </noscript>
      <section class="wallet" aria-label="Wallet">
        <button type="button" id="connect">
          Connect wallet
        </button>
        <div id="wallet-choices" class="wallet-choices"></div>
        <div id="account" class="wallet-account"></div>
      </section>
      <form id="launch-form" novalidate>
        <Field
          name="name"
          label="Name"
          hint={`1 to ${FIELD_LIMITS.name} characters; permanent once launched.`}
          counter={FIELD_LIMITS.name}
        >
          <input id="field-name" name="name" required autocomplete="off" aria-describedby="hint-name error-name" />
        </Field>
        <Field
          name="symbol"
          label="Symbol"
          hint={`1 to ${FIELD_LIMITS.symbol} letters or digits.`}
          counter={FIELD_LIMITS.symbol}
        >
          <input
            id="field-symbol"
            name="symbol"
            required
            autocomplete="off"
            aria-describedby="hint-symbol error-symbol"
          />
        </Field>
        <Field
          name="description"
          label="Description (optional)"
          hint={`At most ${FIELD_LIMITS.description} characters.`}
          counter={FIELD_LIMITS.description}
        >
          <textarea
            id="field-description"
            name="description"
            rows={3}
            aria-describedby="hint-description error-description"
          ></textarea>
        </Field>
        <Field name="logo" label="Logo (optional)" hint="PNG, JPEG, WebP or GIF, at most 2 MiB.">
          <input
            id="field-logo"
            name="logo"
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            aria-describedby="hint-logo error-logo"
          />
        </Field>
        <Field name="website_url" label="Website (optional)" hint="An https:// address.">
          <input
            id="field-website_url"
            name="website_url"
            type="url"
            placeholder="https://"
            aria-describedby="hint-website_url error-website_url"
          />
        </Field>
        <Field name="twitter_url" label="X (optional)" hint="An https:// address on x.com or twitter.com.">
          <input
            id="field-twitter_url"
            name="twitter_url"
            type="url"
            placeholder="https://x.com/…"
            aria-describedby="hint-twitter_url error-twitter_url"
          />
        </Field>
        <Field name="telegram_url" label="Telegram (optional)" hint="An https:// address on t.me or telegram.me.">
          <input
            id="field-telegram_url"
            name="telegram_url"
            type="url"
            placeholder="https://t.me/…"
            aria-describedby="hint-telegram_url error-telegram_url"
          />
        </Field>
        <Field
          name="first_buy_eth"
          label="First buy in ETH (optional)"
          hint={`0 to ${maxFirstBuyEth} ETH, at most 18 decimals, on top of the pool liquidity.`}
        >
          <input
            id="field-first_buy_eth"
            name="first_buy_eth"
            inputmode="decimal"
            placeholder="0.0"
            autocomplete="off"
            aria-describedby="hint-first_buy_eth error-first_buy_eth"
          />
        </Field>
        <Field
          name="slippage_pct"
          label="Slippage in % (first buy)"
          hint={`0 to ${bpsToPercent(maxSlippageBps)} %, up to two decimals (0.5 = half a percent).`}
        >
          <input
            id="field-slippage_pct"
            name="slippage_pct"
            inputmode="decimal"
            autocomplete="off"
            value={bpsToPercent(defaultSlippageBps)}
            data-max-bps={String(maxSlippageBps)}
            aria-describedby="hint-slippage_pct error-slippage_pct"
          />
        </Field>
        <button type="submit" id="launch" disabled>
          Launch
        </button>
      </form>
      <section id="review" class="review" hidden aria-labelledby="review-title">
        <h2 id="review-title">Review before your wallet asks</h2>
        <dl>
          <dt>You send</dt>
          <dd id="review-total"></dd>
          <dt>Of which</dt>
          <dd id="review-split"></dd>
          <dt>First buy gives you</dt>
          <dd id="review-tokens"></dd>
          <dt>Token address</dt>
          <dd id="review-address" class="mono"></dd>
          <dt>LP fees</dt>
          <dd>70 % to you, 30 % to the protocol; the liquidity is locked forever.</dd>
        </dl>
        <div class="actions">
          <button type="button" id="review-confirm">
            Confirm in wallet
          </button>
          <button type="button" id="review-cancel" class="secondary">
            Cancel
          </button>
        </div>
      </section>
      <ol id="progress" class="progress"></ol>
      <p id="status" class="status" role="status"></p>
    </Layout>
  );
}

/** One form field: label, the control, its limits (and a live counter), and its error line. */
function Field({
  name,
  label,
  hint,
  counter,
  children,
}: {
  name: string;
  label: string;
  hint: string;
  counter?: number;
  children: Child;
}) {
  return (
    <div class="field">
      <label for={`field-${name}`}>{label}</label>
      {children}
      <span class="hint" id={`hint-${name}`}>
        <span>{hint}</span>
        {counter ? (
          <span class="counter" id={`counter-${name}`} data-max={String(counter)} aria-live="polite">
            0 / {counter}
          </span>
        ) : null}
      </span>
      <span class="field-error" id={`error-${name}`}></span>
    </div>
  );
}
