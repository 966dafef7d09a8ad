/**
 * Creator metadata of confirmed launches in the token records (docs/launch.md "Metadata";
 * spec: "Launch request fields" — platform defaults for omitted image, website, X, Telegram and
 * description).
 *
 * Ponder's tables stay chain-only: the API merges the store's confirmed launch rows into token
 * records. `launchMetadataScope` (mounted once by `createApp`) makes the request's store
 * reachable from the shared read queries (`withStats` attaches `storedMetadata` to each token
 * row, one query per page) without threading it through every router; `tokenMetadata` then
 * resolves each field: the creator's value when stored, else the platform default.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import type { RecordSettings } from "../../config/public";
import type { Store } from "../../store/index";
import { confirmedMetadataFor, type StoredTokenMetadata } from "../../store/launches";

export type { StoredTokenMetadata };

/** Looks up stored metadata for checksummed token addresses (keyed by lowercase address). */
export type MetadataSource = (tokens: readonly string[]) => Promise<Map<string, StoredTokenMetadata>>;

const scope = new AsyncLocalStorage<MetadataSource>();
let metadataVersion = 0;

/**
 * A number that changes whenever this process stores creator metadata (each confirmed launch):
 * the public read cache keys on it (api/market/readCache.ts), so a token record never predates
 * this process's own confirm.
 */
export function storedMetadataVersion(): number {
  return metadataVersion;
}

/** Records that creator metadata was stored (called after every `confirmed` transition). */
export function noteStoredMetadataChanged(): void {
  metadataVersion++;
}
let warned = false;

/**
 * Middleware: runs the rest of the request with the store's metadata lookup in scope.
 * @param getStore - the app's store getter
 */
export function launchMetadataScope(getStore: () => Promise<Store>): MiddlewareHandler {
  const source: MetadataSource = async (tokens) => confirmedMetadataFor(await getStore(), tokens);
  return (_c, next) => scope.run(source, next);
}

/**
 * Stored metadata of `tokens` in the current request's scope. Never fails a read: without a
 * scope (route tests, scripts) or when the store is down, the map is empty and records show the
 * platform defaults (logged once).
 */
export async function storedMetadataFor(tokens: readonly string[]): Promise<Map<string, StoredTokenMetadata>> {
  const source = scope.getStore();
  if (!source || tokens.length === 0) return new Map();
  try {
    return await source(tokens);
  } catch (err) {
    if (!warned) {
      warned = true;
      console.error(`token metadata: store lookup failed, serving platform defaults: ${(err as Error).message}`);
    }
    return new Map();
  }
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
