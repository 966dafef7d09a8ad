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
import { indexerConfig } from "../../../src/indexing/indexerConfig";
import { trade } from "../ponder.schema";

const nothing = async () => {};

/**
 * `PONDER_FLOOR_WRITES=trades`: each Swap inserts one row of the service's `trade` shape, its
 * values taken from the log alone (no reads). A lower bound for any service that serves trades:
 * the service writes this row and more per swap (bench/backfill.ts `--trade-rows-floor`).
 */
const writesTrades = process.env.PONDER_FLOOR_WRITES === "trades";

ponder.on("LaunchFactory:TokenLaunched", nothing);
ponder.on("LaunchToken:HolderBalances", nothing);
ponder.on(
  "UniswapV3Pool:Swap",
  writesTrades
    ? async ({ event, context }) => {
        const { amount0, amount1, sqrtPriceX96, tick, recipient } = event.args;
        await context.db.insert(trade).values({
          id: `${event.transaction.hash}-${event.log.logIndex}`,
          token: event.log.address,
          pool: event.log.address,
          side: amount0 > 0n ? "sell" : "buy",
          trader: event.transaction.from,
          recipient,
          tokenAmount: amount0 < 0n ? -amount0 : amount0,
          ethAmountWei: amount1 < 0n ? -amount1 : amount1,
          sqrtPriceX96,
          tick,
          priceWei: sqrtPriceX96,
          marketCapWei: sqrtPriceX96,
          reserveWeiAfter: amount1,
          reserveTokenAfter: amount0,
          blockNumber: event.block.number,
          logIndex: event.log.logIndex,
          txIndex: event.transaction.transactionIndex,
          timestampSec: event.block.timestamp,
          txHash: event.transaction.hash,
          ethUsdSqrtPriceX96: null,
          ethPriceUsdE18: null,
          ethAmountUsdE18: null,
          priceUsdE18: null,
          marketCapUsdE18: null,
        });
      }
    : nothing,
);
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
