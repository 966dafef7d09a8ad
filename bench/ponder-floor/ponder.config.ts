/**
 * The service's own indexer configuration (same chain, contracts, factory and start block), so
 * that this app syncs exactly the logs the service syncs. See `bench/ponder-floor/src/index.ts`.
 */
export { default } from "../../ponder.config";
