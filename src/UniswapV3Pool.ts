/**
 * Swaps of launched tokens' pools -> trades, candles, token market state, events.
 * Pools are discovered from `TokenLaunched` (see `ponder.config.ts`).
 */
import { ponder } from "ponder:registry";
import { pool, token } from "../ponder.schema";
import { loadMarketThresholds } from "../config/market";
import { lower, recordTrade } from "./recordTrade";

const thresholds = loadMarketThresholds();

ponder.on("UniswapV3Pool:Swap", async ({ event, context }) => {
  const poolRow = await context.db.find(pool, { address: lower(event.log.address) });
  // No pool row yet: this Swap precedes its launch event (the first buy, or the factory moving a
  // pre-created pool to the start price). The launch handler records the first buy from its receipt.
  if (!poolRow) return;
  const tokenRow = await context.db.find(token, { address: poolRow.token });
  if (!tokenRow) return;
  await recordTrade(
    context.db,
    tokenRow,
    {
      amount0: event.args.amount0,
      amount1: event.args.amount1,
      sqrtPriceX96: event.args.sqrtPriceX96,
      tick: event.args.tick,
      recipient: event.args.recipient,
      trader: event.transaction.from,
      txHash: event.transaction.hash,
      blockNumber: event.block.number,
      logIndex: event.log.logIndex,
      timestampSec: event.block.timestamp,
      eventLogIndex: event.log.logIndex,
      eventSubStart: 0,
    },
    thresholds,
  );
});
