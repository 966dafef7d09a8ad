// Display formatting shared by the server-rendered pages and their browser scripts (one source
// for both): exact decimal strings from base units (bigint arithmetic, never floating point),
// grouped with the platform's Intl.NumberFormat, and compact prices for very small numbers.

const SUBSCRIPT = "₀₁₂₃₄₅₆₇₈₉";

/**
 * Base units as an exact decimal string.
 * @param {bigint | string} amount - base units (wei, or token base units)
 * @param {number} [decimals=18] - decimals of the unit
 * @returns {string} the exact decimal, no trailing zeros
 * @example unitsToDecimal(1234500000000000000n) // "1.2345"
 */
export function unitsToDecimal(amount, decimals = 18) {
  let value = BigInt(amount);
  const negative = value < 0n;
  if (negative) value = -value;
  const scale = 10n ** BigInt(decimals);
  const whole = value / scale;
  const fraction = (value % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/**
 * An amount for people: thousands grouped, at most `maxFractionDigits` fraction digits
 * (Intl.NumberFormat formats the exact decimal string, so nothing passes through a float). An
 * amount too small for those digits keeps its first four significant digits instead of reading 0,
 * with the run of zeros written as a subscript count as prices are ({@link compactNumberText}).
 * @param {bigint | string} amount - base units
 * @param {number} [decimals=18]
 * @param {number} [maxFractionDigits=4]
 * @returns {string}
 * @example formatAmount(20214988733848086916022490n, 18, 2) // "20,214,988.73"
 * @example formatAmount(3755028913n, 18, 4) // "0.0₈3755"
 */
export function formatAmount(amount, decimals = 18, maxFractionDigits = 4) {
  const text = unitsToDecimal(amount, decimals);
  const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: maxFractionDigits, roundingMode: "trunc" });
  if (BigInt(amount) !== 0n && /^-?0(\.0*)?$/.test(grouped.format(text).replace(/,/g, ""))) {
    return compactNumberText(text);
  }
  return grouped.format(text);
}

/**
 * A price for people: four significant digits; below 0.001 the run of zeros after the point is
 * written as a subscript count, as trading interfaces do ("0.0₈3755" is 0.000000003755).
 * @param {bigint | string} priceWei - wei per whole token (or any 18-decimal amount)
 * @returns {string}
 * @example compactPrice(3755028913n) // "0.0₈3755"
 * @example compactPrice(1234567000000000000n) // "1.234"
 */
export function compactPrice(priceWei) {
  return compactNumberText(unitsToDecimal(priceWei, 18));
}

/**
 * A USD figure served as a decimal string (docs/public.md "USD values") for display: dollars with
 * cents from $1 up, the compact form of {@link compactNumberText} below it; null stays null (no
 * ETH/USD reference: the page shows no USD figure rather than $0).
 * @param {string | null | undefined} usd - decimal string, e.g. "1234.5678"
 * @returns {string | null}
 * @example usdText("1234.5678") // "$1,234.57"
 * @example usdText("0.000000003755028913") // "$0.0₈3755"
 * @example usdText(null) // null
 */
export function usdText(usd) {
  if (usd === null || usd === undefined || usd === "") return null;
  const value = Number(usd);
  if (!Number.isFinite(value)) return null;
  if (Math.abs(value) >= 1)
    return `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return `$${compactNumberText(usd)}`;
}

/**
 * {@link compactPrice} for a decimal string or a number (the chart's axis works in numbers).
 * @param {string | number} value
 * @returns {string}
 * @example compactNumberText("0.000000003755028913") // "0.0₈3755"
 */
export function compactNumberText(value) {
  const text = typeof value === "number" ? toPlainDecimal(value) : value;
  const negative = text.startsWith("-");
  const abs = negative ? text.slice(1) : text;
  const match = /^0\.(0{3,})(\d+)$/.exec(abs);
  let out;
  if (match) {
    const zeros = match[1].length;
    const digits = match[2].slice(0, 4).replace(/0+$/, "") || "0";
    const count = String(zeros)
      .split("")
      .map((d) => SUBSCRIPT[Number(d)])
      .join("");
    out = `0.0${count}${digits}`;
  } else {
    out = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 4, roundingMode: "trunc" }).format(abs);
  }
  return negative ? `-${out}` : out;
}

/** A number written without exponent (Number#toString gives "3.7e-9" for small values). */
function toPlainDecimal(value) {
  if (!Number.isFinite(value)) return "0";
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(Math.min(100, Math.max(0, 1 - Math.floor(Math.log10(Math.abs(value))) + 6)));
}

/**
 * An address or hash shortened for tables: `0x1234…abcd`.
 * @param {string} hex
 * @returns {string}
 * @example shortHex("0x1D84b75127c5e16B0980f0C678886a13A7bD17Fc") // "0x1D84…17Fc"
 */
export function shortHex(hex) {
  return `${hex.slice(0, 6)}…${hex.slice(-4)}`;
}

/**
 * A percentage typed by a person ("0.5", "3", "12.25") as exact basis points, or null when it is
 * not a number with at most two decimals (string arithmetic: "0.5" is exactly 50, never 49.99…).
 * @param {string} text
 * @returns {number | null}
 * @example percentToBps("0.5") // 50
 * @example percentToBps("abc") // null
 */
export function percentToBps(text) {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/**
 * Basis points as a percentage string: 50 -> "0.5".
 * @param {number} bps
 * @returns {string}
 * @example bpsToPercent(300) // "3"
 */
export function bpsToPercent(bps) {
  const whole = Math.trunc(bps / 100);
  const fraction = String(bps % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/**
 * A holder's share of the total supply (basis points, rounded down, as holder records carry it)
 * in words: "12.34 %"; a holder with less than 0.01 % reads "< 0.01 %", never "0 %".
 * @param {number} shareBps - balance / total supply in basis points (0 to 10,000)
 * @returns {string}
 * @example shareText(1234) // "12.34 %"
 * @example shareText(0) // "< 0.01 %"
 */
export function shareText(shareBps) {
  return shareBps > 0 ? `${bpsToPercent(shareBps)} %` : "< 0.01 %";
}

/** The words for the labels of holder records (the launchpad's own addresses). */
export const HOLDER_LABEL_TEXT = Object.freeze({
  pool: "Pool",
  fee_locker: "Fee locker",
  position_manager: "Uniswap positions",
  factory: "Launch factory",
  burn: "Burned",
});

/**
 * How long ago a moment was, in words for a trades table: "just now", "42 s ago", "2 min ago",
 * "5 h ago", "3 d ago". A moment in the future (a clock skew between browser and chain) reads
 * "just now".
 * @param {number} timestampSec - unix seconds of the moment
 * @param {number} nowSec - unix seconds of now
 * @returns {string}
 * @example relativeTime(1000, 1125) // "2 min ago"
 */
export function relativeTime(timestampSec, nowSec) {
  const ago = Math.floor(nowSec - timestampSec);
  if (ago < 5) return "just now";
  if (ago < 60) return `${ago} s ago`;
  if (ago < 3600) return `${Math.floor(ago / 60)} min ago`;
  if (ago < 86_400) return `${Math.floor(ago / 3600)} h ago`;
  return `${Math.floor(ago / 86_400)} d ago`;
}

/**
 * A moment as an absolute UTC time, for a title next to a relative one.
 * @param {number} timestampSec - unix seconds
 * @returns {string}
 * @example utcTime(1764148211) // "2025-11-26 09:10:11 UTC"
 */
export function utcTime(timestampSec) {
  return `${new Date(timestampSec * 1000).toISOString().replace("T", " ").slice(0, 19)} UTC`;
}

/**
 * A 24 h price change in basis points as a signed percentage with two decimals; "—" when there is
 * no price 24 h ago to compare with (`null`).
 * @param {number | null} bps - price_change_24h_bps (10000 = +100 %)
 * @returns {string}
 * @example changeText(1234) // "+12.34 %"
 * @example changeText(-50) // "-0.50 %"
 */
export function changeText(bps) {
  if (bps === null || bps === undefined) return "—";
  const sign = bps > 0 ? "+" : bps < 0 ? "-" : "";
  const abs = Math.abs(bps);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")} %`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A label for the chart's time axis, short enough never to be cut (UTC): the year ("2026"), the
 * month ("Nov"), the day ("26 Nov"), the time ("09:10") or the time with seconds ("09:10:11"),
 * by lightweight-charts' `TickMarkType` (0 year, 1 month, 2 day of month, 3 time, 4 time with
 * seconds).
 * @param {number} timeSec - unix seconds of the tick
 * @param {number} tickMarkType - lightweight-charts TickMarkType
 * @returns {string}
 * @example timeTickLabel(1764148211, 2) // "26 Nov"
 */
export function timeTickLabel(timeSec, tickMarkType) {
  const d = new Date(timeSec * 1000);
  const two = (n) => String(n).padStart(2, "0");
  switch (tickMarkType) {
    case 0:
      return String(d.getUTCFullYear());
    case 1:
      return MONTHS[d.getUTCMonth()];
    case 2:
      return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
    case 4:
      return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
    default:
      return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  }
}

/**
 * An explorer link for an address or a transaction (the `/address/…` and `/tx/…` paths Etherscan
 * and Blockscout share), or null when no explorer is configured (`BLOCK_EXPLORER_URL`).
 * @param {string | null | undefined} explorerBaseUrl - the explorer's base URL
 * @param {"address" | "tx"} kind
 * @param {string} value - a 0x address or transaction hash
 * @returns {string | null}
 * @example explorerLink("https://scan.example/", "tx", "0xab") // "https://scan.example/tx/0xab"
 */
export function explorerLink(explorerBaseUrl, kind, value) {
  if (!explorerBaseUrl) return null;
  return `${explorerBaseUrl.replace(/\/+$/, "")}/${kind}/${value}`;
}
