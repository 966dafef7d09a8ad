/**
 * Token slugs: the human-readable path segment of a token page (`/token/{slug}`) and of
 * `GET /api/public/token/{address_or_slug}` (spec: Public surface).
 *
 * Definition (docs/public.md "Slugs"):
 * 1. base = the symbol, NFKD-normalised, diacritics removed, lowercased; every run of characters
 *    outside `[a-z0-9]` becomes one `-`; leading/trailing `-` trimmed; cut to 24 characters.
 * 2. An empty base (a symbol of emoji or punctuation only) becomes `token`; a base that looks
 *    like an address (`0x` + 40 hex) is prefixed with `t-`, so slugs and addresses never collide.
 * 3. The first launch (in chain order) with a base gets the base itself; later ones get
 *    `base-2`, `base-3`, … — the next suffix whose slug is still free (a symbol like `pepe-2`
 *    can take `pepe-2` first; then the next `pepe` launch moves on to `pepe-3`).
 * Slugs are assigned by the indexer in launch order, so they are stable and reorg-safe (Ponder
 * rewinds the slug registry with everything else).
 */

/** Longest slug base in characters (a suffix `-N` may follow). */
export const SLUG_BASE_MAX_LENGTH = 24;

/**
 * The slug base of a symbol (rule 1 and 2 above).
 * @param symbol - the token's on-chain symbol (any string)
 * @returns a non-empty string of `[a-z0-9-]`, at most 24 characters, never starting or ending with `-`
 * @example slugBase("PEPE") // "pepe"
 * @example slugBase("Ünï Cörn!") // "uni-corn"
 * @example slugBase("🚀") // "token"
 */
export function slugBase(symbol: string): string {
  const ascii = symbol
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  let base = ascii.slice(0, SLUG_BASE_MAX_LENGTH).replace(/-+$/g, "");
  if (base === "") base = "token";
  if (/^0x[0-9a-f]{40}/.test(ascii)) base = `t-${base}`.slice(0, SLUG_BASE_MAX_LENGTH).replace(/-+$/g, "");
  return base;
}

/**
 * The slug for the `n`-th launch with a base (n = 1 is the first).
 * @example slugCandidate("pepe", 1) // "pepe"
 * @example slugCandidate("pepe", 3) // "pepe-3"
 */
export function slugCandidate(base: string, n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  return n === 1 ? base : `${base}-${n}`;
}

/**
 * Assigns a slug given which slugs are taken (rule 3), starting at suffix `start`.
 * @param base - from {@link slugBase}
 * @param start - first suffix to try (1 for a base never seen)
 * @param isTaken - whether a slug is already assigned
 * @returns the slug and the next suffix to try for this base
 * @example await assignSlug("pepe", 2, async (s) => s === "pepe-2") // { slug: "pepe-3", next: 4 }
 */
export async function assignSlug(
  base: string,
  start: number,
  isTaken: (slug: string) => Promise<boolean>,
): Promise<{ slug: string; next: number }> {
  for (let n = start; ; n++) {
    const candidate = slugCandidate(base, n);
    if (!(await isTaken(candidate))) return { slug: candidate, next: n + 1 };
  }
}

/** Whether a path segment has the shape of a slug (so it is worth a lookup). */
export function isSlugShaped(value: string): boolean {
  return /^[a-z0-9](?:[a-z0-9-]{0,40}[a-z0-9])?$/.test(value);
}
