/**
 * Swaps of launched tokens' pools -> trades, candles, token market state, events.
 * Pools are discovered from `TokenLaunched` (see `ponder.config.ts`).
 */
import { ponder } from "ponder:registry";
import { pool, token } from "../../ponder.schema";
import { indexerConfig } from "./indexerConfig";
import { recordPrelaunchLog } from "./prelaunchLogs";
import { recordTrade } from "./recordTrade";
import { lower } from "../domain/hex";

const { thresholds } = indexerConfig();

ponder.on("UniswapV3Pool:Swap", async ({ event, context }) => {
  const poolRow = await context.db.find(pool, { address: lower(event.log.address) });
  // No pool row yet: this Swap precedes its launch event (the first buy, or the factory moving a
  // pre-created pool to the start price). The launch handler records the first buy from these logs.
  if (!poolRow) {
    await recordPrelaunchLog(context.db, event, {
      kind: "Swap",
      amount0: event.args.amount0.toString(),
      amount1: event.args.amount1.toString(),
      sqrtPriceX96: event.args.sqrtPriceX96.toString(),
      tick: event.args.tick,
      recipient: lower(event.args.recipient),
    });
    return;
  }
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
      txIndex: event.transaction.transactionIndex,
      timestampSec: event.block.timestamp,
      eventLogIndex: event.log.logIndex,
      eventSubStart: 0,
    },
    thresholds,
  );
});

/**
 * Pool balance changes that are not swaps, after the launch: liquidity added (`Mint`, tokens in),
 * fees or liquidity withdrawn (`Collect`, `CollectProtocol`, tokens out), flash-loan fees
 * (`Flash`, paid in). They keep `token.reserveWei` / `token.reserveToken` equal to the pool's
 * balances (direct ERC-20 transfers to the pool, which emit no pool event, are not counted).
 * @returns false when the pool has no launch indexed yet (nothing applied)
 */
async function applyReserveDelta(
  context: Parameters<Parameters<typeof ponder.on<"UniswapV3Pool:Mint">>[1]>[0]["context"],
  poolAddress: string,
  delta0: bigint,
  delta1: bigint,
): Promise<boolean> {
  const poolRow = await context.db.find(pool, { address: lower(poolAddress) });
  if (!poolRow) return false; // before its launch event
  await context.db.update(token, { address: poolRow.token }).set((row) => ({
    reserveToken: row.reserveToken + (poolRow.tokenIsToken0 ? delta0 : delta1),
    reserveWei: row.reserveWei + (poolRow.tokenIsToken0 ? delta1 : delta0),
  }));
  return true;
}

ponder.on("UniswapV3Pool:Mint", async ({ event, context }) => {
  const known = await applyReserveDelta(context, event.log.address, event.args.amount0, event.args.amount1);
  // Before the launch event: the launch's own liquidity (the launch handler sums it).
  if (!known) {
    await recordPrelaunchLog(context.db, event, {
      kind: "Mint",
      amount0: event.args.amount0.toString(),
      amount1: event.args.amount1.toString(),
    });
  }
});

/** A pool's one `Initialize`: always before its launch event (the launch handler reads the start price from it). */
ponder.on("UniswapV3Pool:Initialize", async ({ event, context }) => {
  const known = await context.db.find(pool, { address: lower(event.log.address) });
  if (known) return;
  await recordPrelaunchLog(context.db, event, {
    kind: "Initialize",
    sqrtPriceX96: event.args.sqrtPriceX96.toString(),
    tick: event.args.tick,
  });
});

ponder.on("UniswapV3Pool:Collect", async ({ event, context }) => {
  await applyReserveDelta(context, event.log.address, -event.args.amount0, -event.args.amount1);
});

ponder.on("UniswapV3Pool:CollectProtocol", async ({ event, context }) => {
  await applyReserveDelta(context, event.log.address, -event.args.amount0, -event.args.amount1);
});

ponder.on("UniswapV3Pool:Flash", async ({ event, context }) => {
  await applyReserveDelta(context, event.log.address, event.args.paid0, event.args.paid1);
});
