/**
 * The token page (`GET /token/{address}`, the `token_url` of every verified launch; docs/pages.md).
 * Everything readable is rendered on the server, so the page works without JavaScript: metadata
 * (escaped by JSX; links only when http/https), price, market cap, volume, liquidity, fees, the
 * newest trades (with relative times) and the contract, pool and locker addresses (with copy
 * buttons and explorer links), the top holders (with their share of the supply), the 24 h change,
 * the graduation bar, the `/t/{slug}` share link and its Open Graph / Twitter card tags. `token.js` adds the candle chart with its resolution
 * switch, live trades, and the creator's rewards with the claim flow; `copy.js` the copy buttons.
 */
import type { z } from "zod";
import type { holderWire, tokenWire, tradeWire } from "../market/wire";
import { compactPrice, formatAmount } from "./format";
import { HolderList } from "./holderList";
import { Layout, type SocialCard } from "./layout";
import { sameOriginPath, safeHttpUrl } from "./links";
import { TradeWidget } from "./tradeWidget";
import { AddressValue, SocialLinks } from "./tokenParts";
import { MarketStats } from "./marketStats";
import { RecentTrades } from "./recentTrades";

/** What the token page shows. */
export type TokenPageProps = {
  /** The token record, as the public token endpoint serves it (after JSON serialisation). */
  token: z.infer<typeof tokenWire>;
  /** Newest trades first (as the public trades endpoint serves them). */
  trades: z.infer<typeof tradeWire>[];
  /** The largest holders, largest first (the token detail record's `top_holders`); null when they could not be read. */
  holders: z.infer<typeof holderWire>[] | null;
  /** The holders list's cursor after the last of `holders` (`GET …/holders?cursor=`); null when they are all. */
  holdersNextCursor?: string | null;
  feeLocker: string;
  publicBaseUrl: string;
  /** The block explorer's base URL (`BLOCK_EXPLORER_URL`, first entry); no explorer links without it. */
  explorerUrl?: string | null;
  /** Now in unix seconds, for the trades' relative times (default: the server's clock). */
  nowSec?: number;
};

const RESOLUTIONS = ["1s", "15s", "1m", "5m", "15m", "1h", "4h", "1d"] as const;

/** The token page. */
export function TokenPage({
  token,
  trades,
  holders,
  holdersNextCursor = null,
  feeLocker,
  publicBaseUrl,
  explorerUrl = null,
  nowSec = Math.floor(Date.now() / 1000),
}: TokenPageProps) {
  const meta = token.metadata;
  const image = sameOriginPath(meta.image_url, publicBaseUrl) ?? "/static/token-default.png";
  const links = (
    [
      ["website", "Website", meta.website_url],
      ["x", "X (Twitter)", meta.twitter_url],
      ["telegram", "Telegram", meta.telegram_url],
    ] as const
  ).map(([icon, label, url]) => [icon, label, safeHttpUrl(url)] as const);
  const shareUrl = `${publicBaseUrl}/t/${encodeURIComponent(token.slug)}`;
  return (
    <Layout
      title={`${token.name} (${token.symbol})`}
      scripts={["/assets/token.js", "/assets/trade.js"]}
      card={socialCard(token, image, shareUrl, publicBaseUrl)}
    >
      <article
        id="token"
        data-explorer={explorerUrl ?? undefined}
        data-token={token.address}
        data-creator={token.creator}
        data-symbol={token.symbol}
        data-launch-price-wei={token.launch_price_wei}
      >
        <section class="token-head">
          <img class="logo" src={image} alt={`${token.symbol} logo`} width="96" height="96" />
          <div>
            <h1>
              <span id="token-name">{token.name}</span> <span class="symbol">{token.symbol}</span>
            </h1>
            <p id="token-description" class="description">
              {meta.description}
            </p>
            <SocialLinks links={links} />
            <p class="share">
              <span>
                Share: <a href={shareUrl}>{shareUrl}</a>
              </span>
              <button type="button" class="copy" data-copy={shareUrl} aria-label="Copy share link" hidden>
                Copy
              </button>
            </p>
          </div>
        </section>

        <MarketStats token={token} />

        {/* Buy / sell: the trade widget goes here, between the figures and the chart (its own component and script). */}
        <section class="chart" aria-label="Price chart">
          <h2>Price</h2>
          {/* How the page keeps current ("Live", "Reconnecting…"), set by token.js; empty without it. */}
          <p id="live-status" class="live-status" role="status"></p>
          {/* biome-ignore lint/a11y/useSemanticElements: a button group styled as a toolbar; a fieldset would need a legend */}
          <div class="resolutions" role="group" aria-label="Resolution">
            {RESOLUTIONS.map((r) => (
              <button type="button" data-resolution={r} aria-pressed={r === "1h" ? "true" : "false"}>
                {r}
              </button>
            ))}
          </div>
          <div class="chart-box">
            <div id="chart" data-resolution="1h"></div>
            <p id="chart-status" class="chart-status" role="status"></p>
          </div>
          {/* The last candle (or the one under the pointer) in words, volume split into buys and sells. */}
          <p id="chart-legend" class="hint chart-legend"></p>
          <noscript>
            <p class="hint">The chart needs JavaScript; the trades below are the same data.</p>
          </noscript>
        </section>

        {/* After the chart: the chart keeps its place in the first screen on desktop. */}
        <TradeWidget token={token.address} symbol={token.symbol} />

        <RecentTrades trades={trades} symbol={token.symbol} explorerUrl={explorerUrl} nowSec={nowSec} />

        <HolderList
          holders={holders}
          nextCursor={holdersNextCursor}
          holderCount={token.holder_count}
          symbol={token.symbol}
          creator={token.creator}
          explorerUrl={explorerUrl}
        />

        <section aria-label="Creator fees">
          <h2>Creator fees</h2>
          <p>
            LP fees are split 70 % to the creator and 30 % to the protocol, paid in WETH and {token.symbol}. Collected
            so far for the creator:{" "}
            <strong id="creator-fees-wei">{formatAmount(token.creator_fees_wei, 18, 6)} WETH</strong> and{" "}
            <strong id="creator-fees-token">
              {formatAmount(token.creator_fees_token, 18, 2)} {token.symbol}
            </strong>
            .
          </p>
          <div id="rewards" hidden>
            <p>
              Claimable now: <strong id="claimable-wei">…</strong> WETH and <strong id="claimable-token">…</strong>{" "}
              {token.symbol}
            </p>
            <p class="hint">
              Fees are paid in WETH (wrapped ETH, an ERC-20 token worth 1 ETH), not native ETH: your wallet shows them
              as a WETH balance.
            </p>
            <button type="button" id="claim">
              Claim creator fees
            </button>
          </div>
          <button type="button" id="connect-creator">
            I am the creator: connect wallet
          </button>
          <p id="rewards-status" class="status" role="status"></p>
        </section>

        <section aria-label="Contracts">
          <h2>Contracts</h2>
          <dl class="addresses">
            <dt>Token</dt>
            <AddressValue id="address-token" label="token address" value={token.address} explorerUrl={explorerUrl} />
            <dt>Pool (Uniswap V3, 1 %)</dt>
            <AddressValue id="address-pool" label="pool address" value={token.pool} explorerUrl={explorerUrl} />
            <dt>Fee locker (LP locked forever)</dt>
            <AddressValue id="address-locker" label="fee locker address" value={feeLocker} explorerUrl={explorerUrl} />
            <dt>Factory</dt>
            <AddressValue label="factory address" value={token.factory} explorerUrl={explorerUrl} />
            <dt>Creator</dt>
            <AddressValue
              id="address-creator"
              label="creator address"
              value={token.creator}
              explorerUrl={explorerUrl}
            />
            <dt>Launch transaction</dt>
            <AddressValue
              label="launch transaction hash"
              value={token.launch_tx_hash}
              kind="tx"
              explorerUrl={explorerUrl}
            />
          </dl>
        </section>
      </article>
    </Layout>
  );
}

/**
 * The link preview of the token's share link: name and symbol, price and market cap, the
 * description, the logo as an absolute URL (a crawler has no origin to resolve a path against).
 */
function socialCard(
  token: TokenPageProps["token"],
  imagePath: string,
  shareUrl: string,
  publicBaseUrl: string,
): SocialCard {
  const figures = `Price ${compactPrice(token.price_wei)} ETH, market cap ${formatAmount(token.market_cap_wei, 18, 2)} ETH.`;
  const description = token.metadata.description ? `${figures} ${token.metadata.description}` : figures;
  return {
    title: `${token.name} (${token.symbol})`,
    description: description.length > 200 ? `${description.slice(0, 199)}…` : description,
    url: shareUrl,
    imageUrl: `${publicBaseUrl}${imagePath}`,
  };
}
