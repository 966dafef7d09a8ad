/**
 * Configuration of the public surface (docs/public.md), read once from the environment. Every
 * variable is optional; defaults are listed with each field.
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
 *   `{name}`/`{symbol}` substituted): metadata served until the launch write path stores a
 *   creator's own metadata.
 */

/** Public-surface settings. */
export type PublicConfig = {
  partnerASlug: string;
  partnerBSlug: string;
  confirmationBlocks: number;
  defaultImageUrl: (publicBaseUrl: string) => string;
  defaultDescription: (name: string, symbol: string) => string;
};

const SLUG = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * Reads the public-surface settings.
 * @param env - environment (default `process.env`)
 * @throws Error naming a malformed variable
 */
export function loadPublicConfig(env: NodeJS.ProcessEnv = process.env): PublicConfig {
  const partnerASlug = env.PARTNER_A_SLUG || "partner-a";
  const partnerBSlug = env.PARTNER_B_SLUG || "partner-b";
  for (const [name, value] of [
    ["PARTNER_A_SLUG", partnerASlug],
    ["PARTNER_B_SLUG", partnerBSlug],
  ] as const) {
    if (!SLUG.test(value) || value === "evmchain")
      throw new Error(`${name} must match ${SLUG} and not be "evmchain", got "${value}"`);
  }
  const confirmationBlocks = Number(env.EVENTS_CONFIRMATION_BLOCKS || 30);
  if (!Number.isInteger(confirmationBlocks) || confirmationBlocks < 1) {
    throw new Error(`EVENTS_CONFIRMATION_BLOCKS must be an integer >= 1, got "${env.EVENTS_CONFIRMATION_BLOCKS}"`);
  }
  const image = env.DEFAULT_TOKEN_IMAGE_URL;
  const description = env.DEFAULT_TOKEN_DESCRIPTION || "{name} ({symbol}) launched on evmchain.";
  return {
    partnerASlug,
    partnerBSlug,
    confirmationBlocks,
    defaultImageUrl: (base) => image || `${base}/static/token-default.png`,
    defaultDescription: (name, symbol) => description.replaceAll("{name}", name).replaceAll("{symbol}", symbol),
  };
}
