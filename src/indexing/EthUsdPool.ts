/**
 * The ETH/USD reference pool (`ETH_USD_POOL`; docs/public.md "USD values"): its `Initialize` and
 * `Swap` logs keep the one `eth_usd` row at the pool's newest price, which `recordTrade` reads for
 * every trade. Ponder processes one chain's logs in (block, log index) order across contracts, so
 * the row a trade reads holds the last reference price at or before the trade's position.
 *
 * RPC cost: the pool's token0/token1 and the stablecoin's decimals are read once (at the first
 * indexed log, or in setup), never per trade or per swap.
 */
import { ponder, type Context } from "ponder:registry";
import { erc20Abi } from "viem";
import { ethUsd } from "../../ponder.schema";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool";
import { indexerConfig } from "./indexerConfig";
import { lower } from "../domain/hex";
import { wethIsToken0Of } from "../domain/usd";

const { deployment } = indexerConfig();

type Orientation = { wethIsToken0: boolean; stablecoin: `0x${string}`; stablecoinDecimals: number };

/**
 * Reads the pool's orientation: which token is WETH, the other token (the stablecoin) and its
 * decimals, at `blockNumber` (the pool must exist there).
 * @throws Error when the pool is not a WETH pair (a misconfigured `ETH_USD_POOL` stops indexing)
 */
async function readOrientation(
  client: Context["client"],
  pool: `0x${string}`,
  blockNumber: bigint,
): Promise<Orientation> {
  const [token0, token1] = await Promise.all([
    client.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: "token0", blockNumber }),
    client.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: "token1", blockNumber }),
  ]);
  const wethIsToken0 = wethIsToken0Of(token0, token1, deployment.contracts.weth);
  const stablecoin = lower(wethIsToken0 ? token1 : token0);
  const decimals = await client.readContract({
    address: stablecoin,
    abi: erc20Abi,
    functionName: "decimals",
    blockNumber,
  });
  return { wethIsToken0, stablecoin, stablecoinDecimals: decimals };
}

/** Stores the reference price set by one log: one upsert (orientation read only for the first). */
async function setPrice(
  context: Context,
  pool: `0x${string}`,
  price: { sqrtPriceX96: bigint; blockNumber: bigint; logIndex: number; timestampSec: bigint },
): Promise<void> {
  const known = await context.db.find(ethUsd, { pool });
  const orientation = known ?? (await readOrientation(context.client, pool, price.blockNumber));
  await context.db
    .insert(ethUsd)
    .values({
      pool,
      wethIsToken0: orientation.wethIsToken0,
      stablecoin: orientation.stablecoin,
      stablecoinDecimals: orientation.stablecoinDecimals,
      ...price,
    })
    .onConflictDoUpdate(price);
}

if (deployment.ethUsdPool) {
  const configured = lower(deployment.ethUsdPool);

  // A pool initialised before the start block: its slot0 as of the block before it is the price
  // in force until its first indexed Swap. A pool created later has no code there: nothing to do.
  ponder.on("EthUsdPool:setup", async ({ context }) => {
    const before = BigInt(deployment.startBlock) - 1n;
    if (before < 0n) return;
    const code = await context.client.getCode({ address: configured, blockNumber: before });
    if (!code || code === "0x") return;
    const [sqrtPriceX96] = await context.client.readContract({
      address: configured,
      abi: uniswapV3PoolAbi,
      functionName: "slot0",
      blockNumber: before,
    });
    if (sqrtPriceX96 === 0n) return; // not initialised yet: its Initialize log will come
    const block = await context.client.getBlock({ blockNumber: before });
    await setPrice(context, configured, {
      sqrtPriceX96,
      blockNumber: before,
      logIndex: -1,
      timestampSec: block.timestamp,
    });
  });

  ponder.on("EthUsdPool:Initialize", async ({ event, context }) => {
    await setPrice(context, configured, {
      sqrtPriceX96: event.args.sqrtPriceX96,
      blockNumber: event.block.number,
      logIndex: event.log.logIndex,
      timestampSec: event.block.timestamp,
    });
  });

  ponder.on("EthUsdPool:Swap", async ({ event, context }) => {
    await setPrice(context, configured, {
      sqrtPriceX96: event.args.sqrtPriceX96,
      blockNumber: event.block.number,
      logIndex: event.log.logIndex,
      timestampSec: event.block.timestamp,
    });
  });
}
