// Types of format.js (a plain browser ES module the server-rendered pages import too).
export function unitsToDecimal(amount: bigint | string, decimals?: number): string;
export function formatAmount(amount: bigint | string, decimals?: number, maxFractionDigits?: number): string;
export function compactPrice(priceWei: bigint | string): string;
export function compactNumberText(value: string | number): string;
export function usdText(usd: string | null | undefined): string | null;
export function shortHex(hex: string): string;
export function percentToBps(text: string): number | null;
export function bpsToPercent(bps: number): string;
export function shareText(shareBps: number): string;
export const HOLDER_LABEL_TEXT: Readonly<
  Record<"pool" | "fee_locker" | "position_manager" | "factory" | "burn", string>
>;
export function relativeTime(timestampSec: number, nowSec: number): string;
export function utcTime(timestampSec: number): string;
export function changeText(bps: number | null | undefined): string;
export function timeTickLabel(timeSec: number, tickMarkType: number): string;
export function explorerLink(
  explorerBaseUrl: string | null | undefined,
  kind: "address" | "tx",
  value: string,
): string | null;
