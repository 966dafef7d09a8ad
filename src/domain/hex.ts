/**
 * The one spelling of stored addresses and hashes: lowercase hex (Ponder's `hex` columns and the
 * API's queries compare in this form).
 */

/**
 * Lowercase form of an address or hash, as stored.
 * @example lower("0xAbC") // "0xabc"
 */
export function lower<T extends string>(value: T): `0x${string}` {
  return value.toLowerCase() as `0x${string}`;
}
