/**
 * Ponder pipeline floor for the backfill and scale benchmarks (`bench/backfill.ts`,
 * `bench/scale.ts`): the same events as the service's indexing functions (`src/`), each handled
 * by a function that does nothing. Ponder syncs only the events that have a function, so this app
 * pays every cost of Ponder's pipeline (fetching logs and blocks, storing them in its sync store,
 * reading them back, decoding, ordering, dispatching, checkpoints) and none of the service's table
 * writes. Its time, measured in the same run, splits the service's time into Ponder's part and the
 * handlers' part.
 * Invariant (`bench/ponderFloor.test.ts`): the events registered here are exactly the service's,
 * under the same condition (the ETH/USD reference pool only when the deployment names one).
 */
import { ponder } from "ponder:registry";
import { indexerConfig } from "../../../src/indexerConfig";

const nothing = async () => {};

ponder.on("LaunchFactory:TokenLaunched", nothing);
ponder.on("LaunchToken:HolderBalances", nothing);
ponder.on("UniswapV3Pool:Swap", nothing);
ponder.on("UniswapV3Pool:Initialize", nothing);
ponder.on("UniswapV3Pool:Mint", nothing);
ponder.on("UniswapV3Pool:Collect", nothing);
ponder.on("UniswapV3Pool:CollectProtocol", nothing);
ponder.on("UniswapV3Pool:Flash", nothing);
ponder.on("FeeLocker:FeesCollected", nothing);
if (indexerConfig().deployment.ethUsdPool) {
  ponder.on("EthUsdPool:setup", nothing);
  ponder.on("EthUsdPool:Initialize", nothing);
  ponder.on("EthUsdPool:Swap", nothing);
}
