/**
 * The token page's top holders (docs/pages.md "Token page"): the largest balances, largest first,
 * as the token detail record's `top_holders` carries them. Each row: the address shortened (the
 * full one in its title), a tag for the launchpad's own addresses and the creator, a Copy button
 * (`copy.js`) and an explorer link when one is configured, the balance in tokens and the share of
 * the total supply in %. A list, not a table, so it wraps on a phone instead of widening the page.
 * `tokenHolders.js` builds the same rows when the list is read again after a trade, and shows "Show more
 * holders" (the next page of `GET /api/public/token/{address}/holders`, from `nextCursor`).
 */
import type { z } from "zod";
import type { holderWire } from "../market/wire";
import { explorerLink, formatAmount, HOLDER_LABEL_TEXT, shareText, shortAddress } from "./format";

/** Props of {@link HolderList}. */
export type HolderListProps = {
  /** The largest holders, largest first; null when they could not be read (the page says so). */
  holders: z.infer<typeof holderWire>[] | null;
  /** The holders list's cursor after the last of `holders`; null when no more. */
  nextCursor?: string | null;
  holderCount: number;
  symbol: string;
  creator: string;
  explorerUrl?: string | null;
};

/** The "Top holders" section of the token page. */
export function HolderList({
  holders,
  nextCursor = null,
  holderCount,
  symbol,
  creator,
  explorerUrl = null,
}: HolderListProps) {
  return (
    <section aria-labelledby="holders-title">
      <h2 id="holders-title">Top holders</h2>
      <p id="holders-summary" class="hint">
        {holders && holders.length > 0 ? holdersSummary(holders.length, holderCount) : ""}
      </p>
      <p id="holders-status" class="status" role="status" data-kind={holders ? undefined : "error"}>
        {holders ? "" : "The holders could not be loaded. They are read again with the next trade."}
      </p>
      <ol id="holders" class="holders" data-next-cursor={nextCursor ?? undefined}>
        {(holders ?? []).map((h, i) => (
          <HolderRow holder={h} rank={i + 1} symbol={symbol} creator={creator} explorerUrl={explorerUrl} />
        ))}
      </ol>
      <p id="holders-empty" class="hint" hidden={holders === null || holders.length > 0}>
        No holders yet.
      </p>
      {/* Shown by tokenHolders.js when there are more (it reads the next page); no button that does nothing without it. */}
      <button type="button" id="holders-more" class="secondary" hidden>
        Show more holders
      </button>
    </section>
  );
}

/**
 * The line above the list: "The largest 10 of 42 holders, with their share of the total supply."
 * (`tokenHolders.js` writes the same words).
 */
function holdersSummary(shown: number, holderCount: number): string {
  return shown >= holderCount
    ? `All ${holderCount} holder${holderCount === 1 ? "" : "s"}, with their share of the total supply.`
    : `The largest ${shown} of ${holderCount} holders, with their share of the total supply.`;
}

function HolderRow({
  holder,
  rank,
  symbol,
  creator,
  explorerUrl,
}: {
  holder: z.infer<typeof holderWire>;
  rank: number;
  symbol: string;
  creator: string;
  explorerUrl: string | null;
}) {
  const link = explorerLink(explorerUrl, "address", holder.address);
  const tag = holder.label
    ? HOLDER_LABEL_TEXT[holder.label]
    : holder.address.toLowerCase() === creator.toLowerCase()
      ? "Creator"
      : null;
  return (
    <li class="holder" data-address={holder.address}>
      <span class="holder-who">
        <span class="mono" title={holder.address}>
          {shortAddress(holder.address)}
        </span>
        {tag ? <span class="tag">{tag}</span> : null}
        <button
          type="button"
          class="copy"
          data-copy={holder.address}
          aria-label={`Copy address of holder ${rank}`}
          hidden
        >
          Copy
        </button>
        {link ? (
          <a href={link} rel="noopener noreferrer" target="_blank">
            Explorer<span class="visually-hidden"> (holder {rank})</span>
          </a>
        ) : null}
      </span>
      <span class="holder-figures">
        <span class="holder-balance">
          {formatAmount(holder.balance_wei, 18, 2)} {symbol}
        </span>
        <span class="holder-share">{shareText(holder.share_bps)}</span>
      </span>
    </li>
  );
}
