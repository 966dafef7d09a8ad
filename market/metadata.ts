/**
 * Creator metadata of confirmed launches in the token records (docs/launch.md "Metadata";
 * spec: "Launch request fields" — platform defaults for omitted image, website, X, Telegram and
 * description).
 *
 * Ponder's tables stay chain-only: the API merges the store's confirmed launch rows into token
 * records. `createApp` builds one {@link storedMetadataSource} over the store and hands it to the
 * routers that render token records; they pass it to the read queries (`withStats` attaches
 * `storedMetadata` to each token row, one query per page), and `resolveTokenMetadata` then
 * resolves each field: the creator's value when stored, else the platform default.
 */
import type { RecordSettings } from "../config/public";
import type { Store } from "../store/index";
import { confirmedMetadataFor, type StoredTokenMetadata } from "../store/launches";

export type { StoredTokenMetadata };

/**
 * Looks up stored metadata for checksummed token addresses (keyed by lowercase address). Never
 * fails: a store that is down yields an empty map (the records show the platform defaults).
 */
export type MetadataSource = (tokens: readonly string[]) => Promise<Map<string, StoredTokenMetadata>>;

let metadataVersion = 0;

/**
 * A number that changes whenever this process stores creator metadata (each confirmed launch):
 * the public read cache keys on it (http/market/readCache.ts), so a token record never predates
 * this process's own confirm.
 */
export function storedMetadataVersion(): number {
  return metadataVersion;
}

/** Records that creator metadata was stored (called after every `confirmed` transition). */
export function noteStoredMetadataChanged(): void {
  metadataVersion++;
}

/**
 * The stored metadata lookup over the app's store. Never fails a read: when the store is down the
 * map is empty and records show the platform defaults (logged once per source).
 * @param getStore - the app's store getter
 * @example await storedMetadataSource(getStore)(["0xAbC…"]) // Map { "0xabc…" => { imageUrl, … } }
 */
export function storedMetadataSource(getStore: () => Promise<Store>): MetadataSource {
  let warned = false;
  return async (tokens) => {
    if (tokens.length === 0) return new Map();
    try {
      return await confirmedMetadataFor(await getStore(), tokens);
    } catch (err) {
      if (!warned) {
        warned = true;
        console.error(`token metadata: store lookup failed, serving platform defaults: ${(err as Error).message}`);
      }
      return new Map();
    }
  };
}

/** The `metadata` object of a token record. */
export type TokenMetadata = {
  image_url: string;
  description: string;
  website_url: string | null;
  twitter_url: string | null;
  telegram_url: string | null;
  /** True when no creator value is used (every field is the platform default). */
  is_default: boolean;
};

/**
 * Resolves a token's metadata: each field is the creator's stored value, else the platform
 * default — `image_url` = `DEFAULT_TOKEN_IMAGE_URL` (default `{base}/static/token-default.png`),
 * `description` = `DEFAULT_TOKEN_DESCRIPTION` (default `{name} ({symbol}) launched on evmchain.`),
 * website / X / Telegram = `null`.
 * @param settings - the base URL and the public settings (defaults)
 * @example resolveTokenMetadata({ name: "Pepe", symbol: "PEPE" }, undefined, settings).is_default // true
 */
export function resolveTokenMetadata(
  token: { name: string; symbol: string },
  stored: Omit<StoredTokenMetadata, "launchId"> | undefined,
  { publicBaseUrl, publicConfig }: RecordSettings,
): TokenMetadata {
  const image = stored?.imageUrl ?? null;
  const description = stored?.description ?? null;
  const website = stored?.websiteUrl ?? null;
  const twitter = stored?.twitterUrl ?? null;
  const telegram = stored?.telegramUrl ?? null;
  return {
    image_url: image ?? publicConfig.defaultImageUrl(publicBaseUrl),
    description: description ?? publicConfig.defaultDescription(token.name, token.symbol),
    website_url: website,
    twitter_url: twitter,
    telegram_url: telegram,
    is_default: [image, description, website, twitter, telegram].every((v) => v === null),
  };
}
