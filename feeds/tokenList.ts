/**
 * Uniswap token list rendering (https://tokenlists.org, schema `tokenlist.schema.json` of
 * `@uniswap/token-lists`). Pure: no Hono, no database.
 *
 * The served list is the newest `limit` confirmed launches (docs/public.md "Token list"); its
 * version is that of the whole confirmed list's content under the standard's rules (major when a
 * token is removed, minor when one is added, patch for metadata-only changes), which for this
 * append-only list is `1.n.0` whatever `limit` is (see {@link tokenListVersion}).
 */
import { cleanText, truncateCodePoints } from "./text";

/** A semantic version as the token-list schema spells it. */
export type ListVersion = { major: number; minor: number; patch: number };

/**
 * Version of the token list after `launchCount` confirmed launches, from its content alone (not
 * from the served `limit`, which only chooses how much of the list one response shows).
 *
 * The list's content is the confirmed launches in launch order; each entry's fields are chain facts
 * that never change (address, name, symbol, decimals, slug) plus the platform's default logo. So
 * from one confirmed launch to the next the content only gains a token: the standard's
 * `minVersionBump` (`@uniswap/token-lists`, via `diffTokenLists`) is MINOR, and folding its
 * `nextVersion` from `1.0.0` (empty list) gives `1.n.0`. `feeds/tokenList.test.ts` checks this
 * closed form against the library's own fold over rendered lists; the closed form is O(1) and the
 * same on every replica for the same chain.
 * @param launchCount - confirmed launches (the list's content)
 * @returns the list version
 * @example tokenListVersion(3) // { major: 1, minor: 3, patch: 0 }
 * @example tokenListVersion(1002) // { major: 1, minor: 1002, patch: 0 }
 */
export function tokenListVersion(launchCount: number): ListVersion {
  return { major: 1, minor: launchCount, patch: 0 };
}

/** Name and symbol rewritten to satisfy the schema (name ≤ 60, symbol ≤ 20 code points, no whitespace in symbols). */
export type SafeLabels = { name: string; symbol: string; sanitized: boolean };

/**
 * Makes a token's name and symbol valid for the token-list schema instead of dropping the token:
 * control characters, bidi marks and lone surrogates are removed, whitespace collapsed (name) or
 * removed (symbol), lengths cut to 60 / 20 code points; an empty result becomes `Unnamed token` /
 * `UNKNOWN`.
 * @example safeLabels("  My\u202E Coin ", "MY COIN") // { name: "My Coin", symbol: "MYCOIN", sanitized: true }
 */
export function safeLabels(name: string, symbol: string): SafeLabels {
  let safeName = truncateCodePoints(cleanText(name), 60).trim();
  if (safeName === "") safeName = "Unnamed token";
  let safeSymbol = truncateCodePoints(cleanText(symbol).replace(/\s+/gu, ""), 20);
  if (safeSymbol === "") safeSymbol = "UNKNOWN";
  return { name: safeName, symbol: safeSymbol, sanitized: safeName !== name || safeSymbol !== symbol };
}

/** A token as the list renderer needs it. */
export type ListToken = {
  address: string; // checksummed
  name: string;
  symbol: string;
  decimals: number;
  logoURI?: string;
  slug: string;
  launchTimestampSec: number;
};

/** Input of {@link renderTokenList}. */
export type TokenListInput = {
  name: string; // list name, `^[\w ]+$`, ≤ 30
  chainId: number;
  version: ListVersion;
  /** ISO timestamp of the list (the newest included launch; epoch when empty). */
  timestampSec: number;
  keywords: string[];
  logoURI?: string;
  tokens: readonly ListToken[];
};

/**
 * Renders a token list object (serialise with `JSON.stringify`). Each token carries
 * `extensions.slug` and, when its labels had to be rewritten, `extensions.sanitized: true`.
 */
export function renderTokenList(input: TokenListInput) {
  return {
    name: input.name,
    timestamp: new Date(input.timestampSec * 1000).toISOString(),
    version: input.version,
    keywords: input.keywords,
    ...(input.logoURI ? { logoURI: input.logoURI } : {}),
    tokens: input.tokens.map((t) => {
      const labels = safeLabels(t.name, t.symbol);
      return {
        chainId: input.chainId,
        address: t.address,
        decimals: t.decimals,
        name: labels.name,
        symbol: labels.symbol,
        ...(t.logoURI ? { logoURI: t.logoURI } : {}),
        extensions: { slug: t.slug.slice(0, 42), ...(labels.sanitized ? { sanitized: true } : {}) },
      };
    }),
  };
}
