/**
 * The indexer's settings, parsed once per process: the
 * deployment (config/deployment.ts: devnet manifest or production addresses) and the market
 * thresholds (config/market.ts). Ponder loads each handler file as an entry point with no
 * arguments, so handlers take their settings from this one memoised reader instead of parsing the
 * environment themselves. A change needs a restart (and, for thresholds, a re-index).
 */
import { loadDeployment, type Deployment } from "../../config/deployment";
import { loadMarketThresholds, type MarketThresholds } from "../../config/market";

/** What indexing handlers read from the environment. */
export type IndexerConfig = { deployment: Deployment; thresholds: MarketThresholds };

let parsed: IndexerConfig | undefined;

/**
 * The process's indexer settings, parsed at the first call and shared afterwards.
 * @throws Error naming a malformed variable (the indexer stops before indexing anything)
 */
export function indexerConfig(): IndexerConfig {
  parsed ??= { deployment: loadDeployment(), thresholds: loadMarketThresholds() };
  return parsed;
}
