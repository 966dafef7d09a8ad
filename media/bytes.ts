/** Byte helpers for the container walk and the payload scan (big/little-endian reads, signatures). */

export function ascii(s: string): number[] {
  return Array.from(s, (c) => c.charCodeAt(0));
}
export function latin1(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");
}
export function startsWith(b: Uint8Array, sig: readonly number[]): boolean {
  return matchesAt(b, 0, sig);
}
export function matchesAt(b: Uint8Array, at: number, sig: readonly number[]): boolean {
  if (at + sig.length > b.length) return false;
  return sig.every((v, i) => b[at + i] === v);
}
export function indexOf(b: Uint8Array, sig: readonly number[], from: number): number {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).indexOf(Buffer.from(sig), from);
}
export function u16be(b: Uint8Array, p: number): number {
  return (b[p]! << 8) | b[p + 1]!;
}
export function u16le(b: Uint8Array, p: number): number {
  return b[p]! | (b[p + 1]! << 8);
}
export function u24le(b: Uint8Array, p: number): number {
  return b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16);
}
export function u32be(b: Uint8Array, p: number): number {
  return ((b[p]! << 24) >>> 0) + ((b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!);
}
export function u32le(b: Uint8Array, p: number): number {
  return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16)) + ((b[p + 3]! << 24) >>> 0);
}
