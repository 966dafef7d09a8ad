/**
 * What `npm start` prints once the devnet is ready: commands that work when pasted (the token
 * address is a seeded token's, not a placeholder), the devnet API key and where its store lives.
 */

/** The values the banner shows. */
export type DevnetBanner = {
  /** The service's base URL, e.g. `http://127.0.0.1:42069`. */
  baseUrl: string;
  /** The devnet API key's secret (dev account 0). */
  devnetKey: string;
  /** The bearer token of `/metrics`. */
  metricsToken: string;
  /** The offchain store's folder. */
  storeDir: string;
  /** `--data-dir` as given (`.devnet` by default: then `npm run keys` needs no flag). */
  dataDir: string;
  /** A seeded token's address for the candles example; absent with `--no-seed`. */
  exampleToken?: string;
};

/**
 * The ready banner, one line per entry.
 * @example devnetReadyBanner({ baseUrl: "http://127.0.0.1:42069", devnetKey: "k", metricsToken: "m", storeDir: ".devnet/store", dataDir: ".devnet" })
 */
export function devnetReadyBanner(banner: DevnetBanner): string {
  const { baseUrl, devnetKey, metricsToken, storeDir, dataDir, exampleToken } = banner;
  const candles = exampleToken
    ? [
        `  curl -s -H "Authorization: Bearer ${devnetKey}" "${baseUrl}/api/v1/evmchain/tokens/${exampleToken}/candles?resolution=1m"`,
      ]
    : [];
  return [
    `  curl -s ${baseUrl}/api/public/tokens/new?limit=5`,
    `  curl -s ${baseUrl}/api/public/trades/recent?limit=5`,
    ...candles,
    `  curl -s -H "Authorization: Bearer ${metricsToken}" ${baseUrl}/metrics`,
    `devnet API key (dev account 0): ${devnetKey}`,
    `devnet key store: ${storeDir} (held by the running service; cleared at the next start).`,
    `  more keys while it runs: npm run keys -- create --wallet <dev account address>${dataDir === ".devnet" ? "" : ` --data-dir ${dataDir}`}`,
    "Ctrl-C stops the trading, the service and anvil (a second Ctrl-C forces it).",
  ].join("\n");
}
