/**
 * Key material in free text (docs/trust.md "Safety rule"): a client never sends a seed phrase or a
 * private key, not even by mistake inside a description, a name, a key label or a URL. These
 * pure detectors look at one string each; `http/middleware/forbidden.ts` runs them over every string
 * of every request body.
 *
 * Sources: BIP-39 (mnemonic words; the English list from `@scure/bip39`, the same list wallets
 * use), BIP-32 (extended keys: `xprv`, `tprv`, and the SLIP-132 variants `yprv`, `zprv`, `uprv`,
 * `vprv`, `Yprv`, `Zprv`, `Uprv`, `Vprv`), secp256k1 private keys (32 bytes, 64 hex digits).
 */
import { wordlist } from "@scure/bip39/wordlists/english";

const BIP39 = new Set(wordlist);

/**
 * Shortest run of consecutive BIP-39 words refused: 12, the shortest mnemonic wallets create.
 * A 13th or 25th (passphrase) word, a prefix such as "my seed:" or a suffix never shortens a run.
 */
export const SEED_PHRASE_MIN_WORDS = 12;

/** 32 bytes of hex anywhere (a private key), `0x` optional, not part of a longer hex run. */
const HEX_32_BYTES = /(?:^|[^0-9a-fA-F])(?:0x)?[0-9a-fA-F]{64}(?![0-9a-fA-F])/;

/**
 * A BIP-32 extended private key: version prefix + base58 (111 characters in all). Matched by
 * shape (>= 100 base58 characters after the prefix), not by checksum, so a key with a typo is
 * refused as well.
 */
const EXTENDED_PRIVATE_KEY = /(?:^|[^1-9A-HJ-NP-Za-km-z])[xtyzuvYZUV]prv[1-9A-HJ-NP-Za-km-z]{100,}/;

/** `%XX` escapes (a phrase inside a URL query: `?s=abandon%20ability…`). */
const PERCENT_ESCAPE = /%([0-9a-fA-F]{2})/g;

/**
 * The words of `text` after normalising separators: percent-escapes decoded, Unicode NFKC
 * (full-width letters become ASCII), lowercased, split at every character that is not a letter
 * a-z (spaces, `+`, commas, digits of a numbered list, punctuation).
 * @example normalisedWords("1.Abandon, 2.ability+able") // ["abandon", "ability", "able"]
 */
export function normalisedWords(text: string): string[] {
  const decoded = text.replace(PERCENT_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return decoded
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 0);
}

/**
 * The longest run of consecutive BIP-39 English words in `text` (after {@link normalisedWords}).
 * @returns a word count (0 when no word of the list occurs)
 * @example longestSeedWordRun("my seed: abandon ability able") // 3
 */
export function longestSeedWordRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (const word of normalisedWords(text)) {
    run = BIP39.has(word) ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * Whether `text` carries a BIP-39 seed phrase: a run of at least {@link SEED_PHRASE_MIN_WORDS}
 * consecutive words of the English list, whatever separates them (spaces, commas, numbering,
 * `+` or `%20` in a URL) and whatever comes before or after.
 * @example looksLikeSeedPhrase("my seed: " + "abandon ".repeat(11) + "about.") // true
 * @example looksLikeSeedPhrase("A community coin for people who like to build things together.") // false
 */
export function looksLikeSeedPhrase(text: string): boolean {
  return longestSeedWordRun(text) >= SEED_PHRASE_MIN_WORDS;
}

/**
 * Whether `text` contains something shaped like a private key: 64 hex digits (`0x` optional) that
 * are not part of a longer hex run (a 65-byte signature or a longer hex blob is not a key).
 * @example looksLikePrivateKey("key ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80") // true
 */
export function looksLikePrivateKey(text: string): boolean {
  return HEX_32_BYTES.test(text);
}

/**
 * Whether `text` contains a BIP-32 extended private key (`xprv…`, `tprv…`, `yprv…`, `zprv…`, …).
 * Extended public keys (`xpub…`) are not secret and pass.
 * @example looksLikeExtendedPrivateKey("xprv9s21ZrQH143K…") // true for a whole key
 */
export function looksLikeExtendedPrivateKey(text: string): boolean {
  return EXTENDED_PRIVATE_KEY.test(text);
}

/** What kind of key material a string carries. */
export type KeyMaterialKind = "private_key" | "extended_private_key" | "seed_phrase";

/** How each kind is named in an error message (the secret itself is never echoed). */
export const KEY_MATERIAL_NAMES: Record<KeyMaterialKind, string> = {
  private_key: "a private key (64 hex digits)",
  extended_private_key: "an extended private key (BIP-32 xprv/tprv)",
  seed_phrase: `a seed phrase (${SEED_PHRASE_MIN_WORDS} or more BIP-39 words)`,
};

/**
 * The first kind of key material found in `text`, or `null`.
 * @param options.publicHex - the string is a public hash or signature by definition (a `tx_hash`
 *   that is exactly `0x` + 64 hex digits): the private-key shape is not applied to it
 * @example findKeyMaterial("abandon ".repeat(12)) // "seed_phrase"
 */
export function findKeyMaterial(text: string, options: { publicHex?: boolean } = {}): KeyMaterialKind | null {
  if (!options.publicHex && looksLikePrivateKey(text)) return "private_key";
  if (looksLikeExtendedPrivateKey(text)) return "extended_private_key";
  if (looksLikeSeedPhrase(text)) return "seed_phrase";
  return null;
}
