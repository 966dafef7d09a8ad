/**
 * Uniswap token list rendering (https://tokenlists.org, schema `tokenlist.schema.json` of
 * `@uniswap/token-lists`). Pure: no Hono, no database.
 *
 * The served list is the newest `limit` confirmed launches (docs/public.md "Token list"); its
 * version follows the standard's rules — major when a token is removed, minor when one is added,
 * patch for metadata-only changes — and is derived from the confirmed launch count alone, so
 * every replica computes the same version for the same chain (see {@link tokenListVersion}).
 */
import { cleanText, truncateCodePoints } from "./text";

/** A semantic version as the token-list schema spells it. */
export type ListVersion = { major: number; minor: number; patch: number };

/**
 * Version bump between two successive lists (the standard's rules): any removal -> major+1
 * (minor, patch reset), else any addition -> minor+1 (patch reset), else `metadataChanged` ->
 * patch+1, else unchanged.
 * @param prev - previous version
 * @param prevAddresses - addresses in the previous list (any case)
 * @param nextAddresses - addresses in the next list
 * @param metadataChanged - whether a kept token's fields changed
 * @example nextListVersion({ major: 1, minor: 2, patch: 0 }, ["0xa"], ["0xa", "0xb"]) // { major: 1, minor: 3, patch: 0 }
 */
export function nextListVersion(
  prev: ListVersion,
  prevAddresses: readonly string[],
  nextAddresses: readonly string[],
  metadataChanged = false,
): ListVersion {
  const before = new Set(prevAddresses.map((a) => a.toLowerCase()));
  const after = new Set(nextAddresses.map((a) => a.toLowerCase()));
  if ([...before].some((a) => !after.has(a))) return { major: prev.major + 1, minor: 0, patch: 0 };
  if ([...after].some((a) => !before.has(a))) return { major: prev.major, minor: prev.minor + 1, patch: 0 };
  if (metadataChanged) return { major: prev.major, minor: prev.minor, patch: prev.patch + 1 };
  return prev;
}

/**
 * Version of the list of the newest `limit` tokens after `launchCount` confirmed launches:
 * the fold of {@link nextListVersion} from `1.0.0` (empty) over one launch at a time. While the
 * list is not full every launch is an addition (`1.n.0`); once full, each launch adds the newest
 * and removes the oldest token, a major bump (`(1 + n − limit).0.0`).
 * @param launchCount - confirmed launches (the list's candidates)
 * @param limit - list size cap
 * @example tokenListVersion(3, 1000) // { major: 1, minor: 3, patch: 0 }
 * @example tokenListVersion(1002, 1000) // { major: 3, minor: 0, patch: 0 }
 */
export function tokenListVersion(launchCount: number, limit: number): ListVersion {
  if (launchCount <= limit) return { major: 1, minor: launchCount, patch: 0 };
  return { major: 1 + launchCount - limit, minor: 0, patch: 0 };
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
