/**
 * Configuration of the public surface (docs/public.md), taken from the validated settings
 * (`config/env.ts`, parsed once per process) and passed down by `createApp`. Defaults are those of
 * the schema:
 *
 * - `PARTNER_A_SLUG` (default `partner-a`): path segment of the order-id partner feed,
 *   `/api/public/integrations/{PARTNER_A_SLUG}/evmchain/tokens`.
 * - `PARTNER_B_SLUG` (default `partner-b`): path segment of the launches/status partner feed,
 *   `/api/public/integrations/{PARTNER_B_SLUG}/evmchain/launches|status`.
 * - `EVENTS_CONFIRMATION_BLOCKS` (default 30, minimum 1): an event, launch or list entry is
 *   *confirmed* once the indexed head is at least this many blocks past its block. 30 is Ponder's
 *   finality depth for chain 4663, so a reorg the indexer can absorb never touches confirmed data
 *   (~3 s at 100 ms blocks).
 * - `DEFAULT_TOKEN_IMAGE_URL` (default `{PUBLIC_BASE_URL}/static/token-default.png`),
 *   `DEFAULT_TOKEN_DESCRIPTION` (default `{name} ({symbol}) launched on evmchain.`, with
 *   `{name}`/`{symbol}` substituted): metadata served for fields a creator did not store.
 * - `GRADUATION_MARKET_CAP_WEI` (default 10 ETH): the graduation threshold token records show
 *   (the indexer reads the same variable through `src/indexing/indexerConfig.ts`).
 * - `CHAIN_NAME`, `PUBLIC_RPC_URL`, `BLOCK_EXPLORER_URL`: the wallet's network parameters
 *   (`chain/network.ts`).
 */
import { loadEnv, type Env } from "./env";

/** The wallet network settings as configured (`chain/network.ts` validates and renders them). */
export type NetworkSettings = { CHAIN_NAME?: string; PUBLIC_RPC_URL?: string; BLOCK_EXPLORER_URL?: string };

/** Public-surface settings. */
export type PublicConfig = {
  partnerASlug: string;
  partnerBSlug: string;
  confirmationBlocks: number;
  /** Graduation threshold in wei (`GRADUATION_MARKET_CAP_WEI`). */
  graduationMarketCapWei: bigint;
  defaultImageUrl: (publicBaseUrl: string) => string;
  defaultDescription: (name: string, symbol: string) => string;
  /** The wallet's network parameters (`addEthereumChainParameter`). */
  network: NetworkSettings;
};

/** What the record presenters need: the service's base URL (no trailing slash) and the public settings. */
export type RecordSettings = { publicBaseUrl: string; publicConfig: PublicConfig };

/**
 * The public-surface settings of validated settings.
 * @param env - the result of `loadEnv()`
 * @example publicConfigOf(loadEnv({})).confirmationBlocks // 30
 */
export function publicConfigOf(env: Env): PublicConfig {
  const image = env.DEFAULT_TOKEN_IMAGE_URL;
  const description = env.DEFAULT_TOKEN_DESCRIPTION || "{name} ({symbol}) launched on evmchain.";
  return {
    partnerASlug: env.PARTNER_A_SLUG,
    partnerBSlug: env.PARTNER_B_SLUG,
    confirmationBlocks: env.EVENTS_CONFIRMATION_BLOCKS,
    graduationMarketCapWei: BigInt(env.GRADUATION_MARKET_CAP_WEI),
    defaultImageUrl: (base) => image || `${base}/static/token-default.png`,
    defaultDescription: (name, symbol) => description.replaceAll("{name}", name).replaceAll("{symbol}", symbol),
    network: {
      CHAIN_NAME: env.CHAIN_NAME,
      PUBLIC_RPC_URL: env.PUBLIC_RPC_URL,
      BLOCK_EXPLORER_URL: env.BLOCK_EXPLORER_URL,
    },
  };
}

/**
 * Validates `env` and returns its public-surface settings (for an app built without the
 * service's entry point, e.g. in tests: `createApp` calls it once when `publicConfig` is not given).
 * @param env - environment (default `process.env`)
 * @throws ConfigError naming a malformed variable
 */
export function loadPublicConfig(env: NodeJS.ProcessEnv = process.env): PublicConfig {
  return publicConfigOf(loadEnv(env));
}
