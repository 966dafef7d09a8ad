// Types of format.js (a plain browser ES module the server-rendered pages import too).
export function unitsToDecimal(amount: bigint | string, decimals?: number): string;
export function formatAmount(amount: bigint | string, decimals?: number, maxFractionDigits?: number): string;
export function compactPrice(priceWei: bigint | string): string;
export function compactNumberText(value: string | number): string;
export function shortHex(hex: string): string;
export function percentToBps(text: string): number | null;
export function bpsToPercent(bps: number): string;
