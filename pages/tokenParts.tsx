/**
 * Parts of the token page (and the home page's cards) that carry no page logic: social links as
 * icons, addresses with copy buttons and explorer links, the 24 h change, the graduation bar,
 * relative trade times. Everything is server-rendered text and inline SVG (no script, no style
 * attribute, nothing from another origin: the strict CSP holds).
 */
import { changeText, explorerLink, relativeTime, shortAddress, utcTime } from "./format";

/** Inline SVG paths (24x24 viewBox) of the social icons; drawn with `fill: currentColor`. */
const ICONS = {
  website:
    "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm6.9 6h-3a15.6 15.6 0 0 0-1.4-3.9A8 8 0 0 1 18.9 8ZM12 4a13.6 13.6 0 0 1 1.9 4h-3.8A13.6 13.6 0 0 1 12 4ZM4.3 14a8 8 0 0 1 0-4h3.4a16.5 16.5 0 0 0 0 4H4.3Zm.8 2h3a15.6 15.6 0 0 0 1.4 3.9A8 8 0 0 1 5.1 16Zm3-8h-3a8 8 0 0 1 4.4-3.9A15.6 15.6 0 0 0 8.1 8ZM12 20a13.6 13.6 0 0 1-1.9-4h3.8A13.6 13.6 0 0 1 12 20Zm2.3-6H9.7a14.6 14.6 0 0 1 0-4h4.6a14.6 14.6 0 0 1 0 4Zm.2 5.9a15.6 15.6 0 0 0 1.4-3.9h3a8 8 0 0 1-4.4 3.9Zm1.8-5.9a16.5 16.5 0 0 0 0-4h3.4a8 8 0 0 1 0 4h-3.4Z",
  x: "M18.9 1.2h3.7l-8 9.1L24 22.8h-7.4l-5.8-7.6-6.6 7.6H.5l8.6-9.8L0 1.2h7.6l5.2 6.9Zm-1.3 19.4h2L6.5 3.2H4.3Z",
  telegram:
    "M21.9 3.3a1 1 0 0 0-1.1-.2L2.6 10.4a1 1 0 0 0 .1 1.9l4.5 1.4 1.7 5.4a1 1 0 0 0 1.7.4l2.5-2.5 4.5 3.3a1 1 0 0 0 1.6-.6l3-15.4a1 1 0 0 0-.3-1Zm-4.5 3.5-7.8 7.1-.3 3.2-1.2-4 9.3-6.3Z",
} as const;

/** One social link per known kind, as an icon with its name for screen readers and as a tooltip. */
export function SocialLinks({ links }: { links: readonly (readonly [keyof typeof ICONS, string, string | null])[] }) {
  return (
    <p class="links">
      {links.map(([icon, label, url]) =>
        url ? (
          <a class="social" href={url} rel="nofollow noopener noreferrer ugc" target="_blank" title={label}>
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d={ICONS[icon]} />
            </svg>
            <span class="visually-hidden">{label}</span>
          </a>
        ) : null,
      )}
    </p>
  );
}

/**
 * An address (or transaction hash) in full, a button that copies it (`copy.js`), and a link to the
 * block explorer when one is configured.
 */
export function AddressValue({
  id,
  label,
  value,
  kind = "address",
  explorerUrl,
}: {
  id?: string;
  label: string;
  value: string;
  kind?: "address" | "tx";
  explorerUrl?: string | null;
}) {
  const link = explorerLink(explorerUrl, kind, value);
  return (
    <dd>
      <span class="mono" id={id}>
        {value}
      </span>
      <button type="button" class="copy" data-copy={value} aria-label={`Copy ${label}`} hidden>
        Copy
      </button>
      {link ? (
        <a href={link} rel="noopener noreferrer" target="_blank">
          View on explorer<span class="visually-hidden"> ({label})</span>
        </a>
      ) : null}
    </dd>
  );
}

/** The 24 h change with its sign, coloured up (green) or down (red); "—" without a price 24 h ago. */
export function Change({ bps, id }: { bps: number | null; id?: string }) {
  const direction = bps === null || bps === 0 ? "" : bps > 0 ? " up" : " down";
  return (
    <span class={`change${direction}`} id={id}>
      {changeText(bps)}
    </span>
  );
}

/**
 * Graduation progress as a native `<progress>` bar (role progressbar, value in basis points) with a
 * visible label naming the percentage; "Graduated" when done.
 */
export function GraduationBar({ bps, graduated, id }: { bps: number; graduated: boolean; id: string }) {
  const text = graduated ? "Graduated" : `${(bps / 100).toFixed(2)} % to graduation`;
  return (
    <>
      <label for={`${id}-bar`} id={id}>
        {text}
      </label>
      <progress class="graduation" id={`${id}-bar`} max="10000" value={String(graduated ? 10_000 : bps)}>
        {text}
      </progress>
    </>
  );
}

/** A trade's time: "2 min ago" (relative to `nowSec`), the absolute UTC time as its title and datetime. */
export function TradeTime({ timestampSec, nowSec }: { timestampSec: number; nowSec: number }) {
  return (
    <time datetime={new Date(timestampSec * 1000).toISOString()} title={utcTime(timestampSec)}>
      {relativeTime(timestampSec, nowSec)}
    </time>
  );
}

/** A transaction hash in a table cell: shortened, linked to the explorer when there is one. */
export function TxCell({ hash, explorerUrl }: { hash: string; explorerUrl?: string | null }) {
  const link = explorerLink(explorerUrl, "tx", hash);
  return (
    <td title={hash}>
      {link ? (
        <a href={link} rel="noopener noreferrer" target="_blank">
          {shortAddress(hash)}
        </a>
      ) : (
        shortAddress(hash)
      )}
    </td>
  );
}
