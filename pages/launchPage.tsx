/**
 * The launch page (`GET /launch`; docs/pages.md): a plain HTML form that `launch.js` drives with
 * the connected EIP-1193 wallet. Without JavaScript the page still explains what is needed and
 * how to launch through the API.
 */
import { Layout } from "./layout";

/** Props: the bounds the form states (from the intent schema's limits). */
export type LaunchPageProps = { minimumLiquidityEth: string | null; maxSlippageBps: number; defaultSlippageBps: number };

/** The launch page. */
export function LaunchPage({ minimumLiquidityEth, maxSlippageBps, defaultSlippageBps }: LaunchPageProps) {
  return (
    <Layout title="Launch a token" scripts={["/assets/launch.js"]}>
      <h1>Launch a token</h1>
      <p>
        One transaction from your wallet creates the token, its Uniswap V3 pool (1 % fee tier), locks the liquidity forever in the fee locker (LP fees: 70 % to you, 30 % to the
        protocol) and, if you want, makes your first buy.
        {minimumLiquidityEth ? ` The transaction also sends the minimum pool liquidity, ${minimumLiquidityEth} ETH.` : ""}
      </p>
      <noscript>
        <p class="error">This page needs JavaScript and a browser wallet (EIP-1193). Without them, launch through the API: see /api/docs.</p>
      </noscript>
      <section class="wallet">
        <button type="button" id="connect">
          Connect wallet
        </button>
        <span id="account" class="mono"></span>
      </section>
      <form id="launch-form" novalidate>
        <label>
          Name <input name="name" required maxlength={32} autocomplete="off" />
        </label>
        <label>
          Symbol <input name="symbol" required maxlength={11} autocomplete="off" />
        </label>
        <label>
          Description <textarea name="description" rows={3} maxlength={1000}></textarea>
        </label>
        <label>
          Logo (PNG, JPEG, WebP or GIF, at most 2 MiB) <input name="logo" type="file" accept="image/png,image/jpeg,image/webp,image/gif" />
        </label>
        <label>
          Website <input name="website_url" type="url" placeholder="https://" />
        </label>
        <label>
          X <input name="twitter_url" type="url" placeholder="https://x.com/…" />
        </label>
        <label>
          Telegram <input name="telegram_url" type="url" placeholder="https://t.me/…" />
        </label>
        <label>
          First buy (ETH, optional) <input name="first_buy_eth" inputmode="decimal" placeholder="0.0" autocomplete="off" />
        </label>
        <label>
          Slippage (basis points, 100 = 1 %) <input name="slippage_bps" type="number" min={0} max={maxSlippageBps} value={String(defaultSlippageBps)} />
        </label>
        <button type="submit" id="launch" disabled>
          Launch
        </button>
      </form>
      <ol id="progress" class="progress"></ol>
      <p id="status" class="status" role="status"></p>
    </Layout>
  );
}
