/**
 * `TokenLaunched` of an accepted factory -> token row, pool lookup row, launch event, and the first
 * buy as a trade. The factory emits the launch event last, after initialising the pool, minting
 * the locked positions and the first-buy Swap, so the pool handlers cannot attribute those logs
 * (the pool is not known yet): they keep them (`src/indexing/prelaunchLogs.ts`) and this handler takes
 * the launch transaction's. No RPC request in the common case; a pool initialised before the
 * launch transaction (pre-created by someone else) costs one or two `eth_call`s (its WETH
 * balance, and its slot0 when the launch did not move its price).
 */
import { ponder, type Context } from "ponder:registry";
import {
  counter,
  event as eventTable,
  pool,
  prelaunchHolderCount,
  slug as slugTable,
  slugBase as slugBaseTable,
  token,
  type PrelaunchPoolLog,
} from "../../ponder.schema";
import { erc20Abi } from "viem";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool";
import { indexerConfig } from "./indexerConfig";
import { encodeEventPayload, eventId } from "../domain/events";
import { encodePositionIds } from "../domain/positions";
import { isToken0, marketCapWei, priceWeiPerToken } from "../domain/price";
import { assignSlug, slugBase } from "../domain/slug";
import { takePrelaunchLogs } from "./prelaunchLogs";
import { recordTrade } from "./recordTrade";
import { openIntegrity } from "./integrity";
import { lower } from "../domain/hex";

const { deployment, thresholds } = indexerConfig();
const TOKEN_DECIMALS = 18; // LaunchToken is a fixed-supply OpenZeppelin ERC-20 with 18 decimals.

type PrelaunchSwap = Extract<PrelaunchPoolLog, { kind: "Swap" }>;

ponder.on("LaunchFactory:TokenLaunched", async ({ event, context }) => {
  const args = event.args;
  const tokenAddress = lower(args.token);
  const poolAddress = lower(args.pool);
  const weth = lower(deployment.contracts.weth);
  const tokenIsToken0 = isToken0(tokenAddress, weth);

  // Pool logs of this transaction that precede the launch event, in order.
  const poolLogs = await takePrelaunchLogs(context.db, poolAddress, lower(event.transaction.hash), event.log.logIndex);
  const swaps = poolLogs.filter((l): l is PrelaunchSwap => l.kind === "Swap");
  const firstBuy = args.firstBuyWei > 0n ? swaps.at(-1) : undefined;
  // Start price: the price the pool was brought to before any first buy (an Initialize in this
  // transaction, or the factory's corrective swap of a pre-created pool).
  const startLog = [...poolLogs].reverse().find((l) => l !== firstBuy && l.kind !== "Mint") as
    | Exclude<PrelaunchPoolLog, { kind: "Mint" }>
    | undefined;
  // Neither: the factory found the pool already at its start price, as it was before this block
  // (a transaction earlier in this block that moved it would have made the factory move it back).
  const start = startLog
    ? { sqrtPriceX96: BigInt(startLog.sqrtPriceX96), tick: startLog.tick }
    : await readSlot0(context, poolAddress, event.block.number - 1n);
  const startPriceWei = priceWeiPerToken(start.sqrtPriceX96, tokenIsToken0, TOKEN_DECIMALS);

  // Pool balances before the first buy: the launch's Mints and non-first-buy Swaps, plus, for a
  // pool initialised before this transaction (pre-created by someone else, maybe holding their
  // WETH liquidity from blocks before the indexer knew the pool), its WETH balance before this
  // block. WETH sent to a pool by plain transfer is not counted, as after the launch.
  const initialisedHere = poolLogs.some((l) => l.kind === "Initialize");
  let reserveWei = initialisedHere ? 0n : await readWethBalance(context, weth, poolAddress, event.block.number - 1n);
  let reserveToken = 0n;
  // The launch's liquidity add: its Mints summed, at the last Mint's position.
  let mintToken = 0n;
  let mintWei = 0n;
  let mintLogIndex = event.log.logIndex;
  for (const l of poolLogs) {
    if (l === firstBuy || l.kind === "Initialize") continue;
    const a0 = BigInt(l.amount0);
    const a1 = BigInt(l.amount1);
    reserveToken += tokenIsToken0 ? a0 : a1;
    reserveWei += tokenIsToken0 ? a1 : a0;
    if (l.kind === "Mint") {
      mintToken += tokenIsToken0 ? a0 : a1;
      mintWei += tokenIsToken0 ? a1 : a0;
      mintLogIndex = l.logIndex;
    }
  }

  // Launch order and slug (src/domain/slug.ts), assigned in chain order.
  const seqRow = await context.db
    .insert(counter)
    .values({ name: "launch", value: 1 })
    .onConflictDoUpdate((row) => ({ value: row.value + 1 }));
  const base = slugBase(args.symbol);
  const baseRow = await context.db.find(slugBaseTable, { base });
  const assigned = await assignSlug(
    base,
    baseRow?.next ?? 1,
    async (s) => (await context.db.find(slugTable, { slug: s })) !== null,
  );
  await context.db.insert(slugTable).values({ slug: assigned.slug, token: tokenAddress });
  await context.db
    .insert(slugBaseTable)
    .values({ base, next: assigned.next })
    .onConflictDoUpdate({ next: assigned.next });

  // Holders made by the launch transaction (mint, liquidity, dust, first buy), counted by the
  // holder handler before this event (src/indexing/LaunchToken.ts).
  // Taken by setting it to 0, not deleted: a delete is a database round trip in Ponder, an update
  // is not; the holder handler never counts here again once the token row exists.
  const prelaunchHolders = await context.db.find(prelaunchHolderCount, { token: tokenAddress });
  if (prelaunchHolders) await context.db.update(prelaunchHolderCount, { token: tokenAddress }).set({ holderCount: 0 });

  const tokenRow = await context.db.insert(token).values({
    address: tokenAddress,
    launchSeq: seqRow.value,
    slug: assigned.slug,
    factory: lower(event.log.address),
    creator: lower(args.creator),
    name: args.name,
    symbol: args.symbol,
    decimals: TOKEN_DECIMALS,
    totalSupply: args.totalSupply,
    pool: poolAddress,
    weth,
    tokenIsToken0,
    positionIdsCsv: encodePositionIds(args.positionIds),
    liquidityWei: args.liquidityWei,
    firstBuyWei: args.firstBuyWei,
    firstBuyTokensOut: args.firstBuyTokensOut,
    launchTxHash: event.transaction.hash,
    launchBlockNumber: event.block.number,
    launchLogIndex: event.log.logIndex,
    launchTimestampSec: event.block.timestamp,
    launchPriceWei: startPriceWei,
    launchTxIndex: event.transaction.transactionIndex,
    launchMintLogIndex: mintLogIndex,
    launchMintToken: mintToken,
    launchMintWei: mintWei,
    launchReserveToken: reserveToken,
    launchReserveWei: reserveWei,
    reserveWei,
    reserveToken,
    sqrtPriceX96: start.sqrtPriceX96,
    tick: start.tick,
    priceWei: startPriceWei,
    marketCapWei: marketCapWei(startPriceWei, args.totalSupply, TOKEN_DECIMALS),
    volumeWei: 0n,
    volumeUsdE18: 0n,
    volumeToken: 0n,
    tradeCount: 0,
    buyCount: 0,
    sellCount: 0,
    lastTradeTimestampSec: null,
    graduatedAtSec: null,
    creatorFeesWei: 0n,
    creatorFeesToken: 0n,
    protocolFeesWei: 0n,
    protocolFeesToken: 0n,
    holderCount: prelaunchHolders?.holderCount ?? 0,
  });
  await context.db.insert(pool).values({ address: poolAddress, token: tokenAddress, tokenIsToken0 });
  await openIntegrity(context.db, tokenAddress, lower(args.creator));

  await context.db.insert(eventTable).values({
    id: eventId(event.block.number, event.log.logIndex, 0),
    kind: "launch",
    token: tokenAddress,
    blockNumber: event.block.number,
    logIndex: event.log.logIndex,
    timestampSec: event.block.timestamp,
    txHash: event.transaction.hash,
    payloadJson: encodeEventPayload({
      creator: lower(args.creator),
      slug: assigned.slug,
      name: args.name,
      symbol: args.symbol,
      pool: poolAddress,
      factory: lower(event.log.address),
      liquidity_wei: args.liquidityWei.toString(),
      first_buy_wei: args.firstBuyWei.toString(),
      first_buy_tokens_out: args.firstBuyTokensOut.toString(),
    }),
  });

  if (firstBuy) {
    await recordTrade(
      context.db,
      tokenRow,
      {
        amount0: BigInt(firstBuy.amount0),
        amount1: BigInt(firstBuy.amount1),
        sqrtPriceX96: BigInt(firstBuy.sqrtPriceX96),
        tick: firstBuy.tick,
        recipient: firstBuy.recipient,
        trader: event.transaction.from,
        txHash: event.transaction.hash,
        blockNumber: event.block.number,
        logIndex: firstBuy.logIndex,
        txIndex: event.transaction.transactionIndex,
        timestampSec: event.block.timestamp,
        eventLogIndex: event.log.logIndex,
        eventSubStart: 1,
      },
      thresholds,
    );
  }
});

async function readSlot0(
  context: Pick<Context, "client">,
  poolAddress: `0x${string}`,
  blockNumber: bigint,
): Promise<{ sqrtPriceX96: bigint; tick: number }> {
  const slot0 = await context.client.readContract({
    abi: uniswapV3PoolAbi,
    address: poolAddress,
    functionName: "slot0",
    blockNumber,
  });
  return { sqrtPriceX96: slot0[0], tick: Number(slot0[1]) };
}

/** WETH balance of `holder` at `blockNumber` (0 before genesis). */
async function readWethBalance(
  context: Pick<Context, "client">,
  weth: `0x${string}`,
  holder: `0x${string}`,
  blockNumber: bigint,
): Promise<bigint> {
  if (blockNumber < 0n) return 0n;
  return context.client.readContract({
    abi: erc20Abi,
    address: weth,
    functionName: "balanceOf",
    args: [holder],
    blockNumber,
  });
}
