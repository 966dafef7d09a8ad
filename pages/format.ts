/**
 * Display formatting of wei amounts for the server-rendered pages (exact decimal strings from
 * viem's `formatEther`/`formatUnits`, trimmed to a readable number of fraction digits).
 */
import { formatUnits } from "viem";

/**
 * A base-unit amount as a decimal string with at most `maxFractionDigits` fraction digits
 * (truncated toward zero; never floating point).
 * @param amount - base units (wei, or token base units)
 * @param decimals - 18 for ETH and launched tokens
 * @example formatAmount(1234567890000000000n, 18, 4) // "1.2345"
 */
export function formatAmount(amount: bigint | string, decimals = 18, maxFractionDigits = 6): string {
  const text = formatUnits(BigInt(amount), decimals);
  const [whole, fraction = ""] = text.split(".");
  const cut = fraction.slice(0, maxFractionDigits).replace(/0+$/, "");
  if (cut === "" && fraction !== "" && whole === "0" && BigInt(amount) !== 0n) return significant(text);
  return cut ? `${whole}.${cut}` : whole!;
}

/** Small amounts (< 10^-maxFractionDigits): the first four significant digits. */
function significant(text: string): string {
  const match = /^0\.(0*)(\d{1,4})/.exec(text);
  return match ? `0.${match[1]}${match[2]!.replace(/0+$/, "")}` : text;
}

/** An address shortened for tables: `0x1234…abcd`. */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
