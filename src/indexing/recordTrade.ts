/**
 * Writes everything one swap of a launched token's pool implies: the trade row, one upsert per
 * candle resolution, the token's running market state, and the ordered events (trade, big_buy,
 * graduation). Shared by the Swap handler and the launch handler (whose first buy precedes the
 * launch event inside the same transaction).
 *
 * USD: the trade is converted at the ETH/USD in force at its (block, log index) — the `eth_usd`
 * row, i.e. the reference pool's last Initialize/Swap at or before it (src/indexing/EthUsdPool.ts); no
 * row (no reference pool, or none of its prices indexed yet) leaves every USD column null.
 */
import type { Context } from "ponder:registry";
import { candle, ethUsd, event, token, tokenTrader, trade } from "../../ponder.schema";
import { indexerConfig } from "./indexerConfig";
import { recordEarlyBuy } from "./integrity";
import type { MarketThresholds } from "../../config/market";
import { bucketStartSec, STORED_RESOLUTIONS } from "../domain/candles";
import { encodeEventPayload, eventId } from "../domain/events";
import { marketCapWei, orientSwap, priceWeiPerToken } from "../domain/price";
import { lower } from "../domain/hex";
import { addOrNull, maxOrNull, minOrNull, weiToUsdE18 } from "../domain/usd";

const ethUsdPool = indexerConfig().deployment.ethUsdPool;
const referencePool = ethUsdPool ? lower(ethUsdPool) : undefined;

type TokenRow = typeof token.$inferSelect;
type Db = Context["db"];

/** A Uniswap V3 `Swap` log with its chain position. */
export type SwapFacts = {
  amount0: bigint;
  amount1: bigint;
  sqrtPriceX96: bigint;
  tick: number;
  recipient: `0x${string}`;
  trader: `0x${string}`;
  txHash: `0x${string}`;
  blockNumber: bigint;
  /** Index of the Swap log itself (the trade id). */
  logIndex: number;
  /** Index of the transaction in its block. */
  txIndex: number;
  timestampSec: bigint;
  /** Chain position the derived events are ordered at: the Swap log, or the launch log for a first buy. */
  eventLogIndex: number;
  /** First `sub` slot of the derived events at `eventLogIndex`. */
  eventSubStart: number;
};

/**
 * Records one swap of `tokenRow`'s pool.
 *
 * Invariant: called once per Swap log in chain order, so `close` and the running totals are the
 * state after this swap, and every delta is computed here exactly once.
 * @returns the token's market state after the swap
 */
export async function recordTrade(
  db: Db,
  tokenRow: TokenRow,
  swap: SwapFacts,
  thresholds: MarketThresholds,
): Promise<{ priceWei: bigint; marketCapWei: bigint; graduated: boolean }> {
  const { side, tokenAmount, ethAmountWei } = orientSwap(swap.amount0, swap.amount1, tokenRow.tokenIsToken0);
  const priceWei = priceWeiPerToken(swap.sqrtPriceX96, tokenRow.tokenIsToken0, tokenRow.decimals);
  const mcapWei = marketCapWei(priceWei, tokenRow.totalSupply, tokenRow.decimals);
  const tokenAddress = tokenRow.address;
  // Pool balances after the swap: the pool's signed deltas added to the tracked reserves.
  const reserveTokenAfter = tokenRow.reserveToken + (tokenRow.tokenIsToken0 ? swap.amount0 : swap.amount1);
  const reserveWeiAfter = tokenRow.reserveWei + (tokenRow.tokenIsToken0 ? swap.amount1 : swap.amount0);
  // One primary-key read per trade, served from Ponder's in-memory cache; no RPC.
  const ref = referencePool ? await db.find(ethUsd, { pool: referencePool }) : null;
  const usd = (wei: bigint) => (ref ? weiToUsdE18(wei, ref.sqrtPriceX96, ref) : null);
  const ethAmountUsdE18 = usd(ethAmountWei);
  const priceUsdE18 = usd(priceWei);

  await db.insert(trade).values({
    id: `${swap.txHash}-${swap.logIndex}`,
    token: tokenAddress,
    pool: tokenRow.pool,
    side,
    trader: lower(swap.trader),
    recipient: lower(swap.recipient),
    tokenAmount,
    ethAmountWei,
    sqrtPriceX96: swap.sqrtPriceX96,
    tick: swap.tick,
    priceWei,
    marketCapWei: mcapWei,
    reserveWeiAfter,
    reserveTokenAfter,
    blockNumber: swap.blockNumber,
    logIndex: swap.logIndex,
    txIndex: swap.txIndex,
    timestampSec: swap.timestampSec,
    txHash: swap.txHash,
    ethUsdSqrtPriceX96: ref?.sqrtPriceX96 ?? null,
    ethPriceUsdE18: usd(10n ** 18n),
    ethAmountUsdE18,
    priceUsdE18,
    marketCapUsdE18: usd(mcapWei),
  });

  for (const resolution of STORED_RESOLUTIONS) {
    await db
      .insert(candle)
      .values({
        token: tokenAddress,
        resolution,
        bucketStartSec: bucketStartSec(swap.timestampSec, resolution),
        openWei: priceWei,
        highWei: priceWei,
        lowWei: priceWei,
        closeWei: priceWei,
        volumeToken: tokenAmount,
        volumeWei: ethAmountWei,
        volumeBuyWei: side === "buy" ? ethAmountWei : 0n,
        volumeSellWei: side === "sell" ? ethAmountWei : 0n,
        tradeCount: 1,
        buyCount: side === "buy" ? 1 : 0,
        openUsdE18: priceUsdE18,
        highUsdE18: priceUsdE18,
        lowUsdE18: priceUsdE18,
        closeUsdE18: priceUsdE18,
        volumeUsdE18: ethAmountUsdE18,
      })
      .onConflictDoUpdate((row) => ({
        highWei: row.highWei > priceWei ? row.highWei : priceWei,
        lowWei: row.lowWei < priceWei ? row.lowWei : priceWei,
        closeWei: priceWei,
        volumeToken: row.volumeToken + tokenAmount,
        volumeWei: row.volumeWei + ethAmountWei,
        volumeBuyWei: row.volumeBuyWei + (side === "buy" ? ethAmountWei : 0n),
        volumeSellWei: row.volumeSellWei + (side === "sell" ? ethAmountWei : 0n),
        tradeCount: row.tradeCount + 1,
        buyCount: row.buyCount + (side === "buy" ? 1 : 0),
        // USD over the trades that had an ETH/USD: the first of them opens, the last closes.
        openUsdE18: row.openUsdE18 ?? priceUsdE18,
        highUsdE18: maxOrNull(row.highUsdE18, priceUsdE18),
        lowUsdE18: minOrNull(row.lowUsdE18, priceUsdE18),
        closeUsdE18: priceUsdE18 ?? row.closeUsdE18,
        volumeUsdE18: addOrNull(row.volumeUsdE18, ethAmountUsdE18),
      }));
  }

  // Swaps arrive in chain order, so this trade is the trader's newest on its side.
  await db
    .insert(tokenTrader)
    .values({ token: tokenAddress, side, trader: lower(swap.trader), lastTimestampSec: swap.timestampSec })
    .onConflictDoUpdate({ lastTimestampSec: swap.timestampSec });

  if (side === "buy")
    await recordEarlyBuy(db, {
      token: tokenAddress,
      creator: tokenRow.creator,
      launchBlock: tokenRow.launchBlockNumber,
      recipient: swap.recipient,
      blockNumber: swap.blockNumber,
      tokensWei: tokenAmount,
      timestampSec: swap.timestampSec,
      logIndex: swap.logIndex,
    });

  const graduates = tokenRow.graduatedAtSec === null && mcapWei >= thresholds.graduationMarketCapWei;
  await db.update(token, { address: tokenAddress }).set((row) => ({
    sqrtPriceX96: swap.sqrtPriceX96,
    tick: swap.tick,
    priceWei,
    marketCapWei: mcapWei,
    reserveWei: reserveWeiAfter,
    reserveToken: reserveTokenAfter,
    volumeWei: row.volumeWei + ethAmountWei,
    volumeToken: row.volumeToken + tokenAmount,
    volumeUsdE18: row.volumeUsdE18 + (ethAmountUsdE18 ?? 0n),
    tradeCount: row.tradeCount + 1,
    buyCount: row.buyCount + (side === "buy" ? 1 : 0),
    sellCount: row.sellCount + (side === "sell" ? 1 : 0),
    lastTradeTimestampSec: swap.timestampSec,
    ...(graduates ? { graduatedAtSec: swap.timestampSec } : {}),
  }));

  const base = {
    token: tokenAddress,
    blockNumber: swap.blockNumber,
    logIndex: swap.eventLogIndex,
    timestampSec: swap.timestampSec,
    txHash: swap.txHash,
  };
  // Serialized once: a big buy's event shares its trade's payload text.
  const tradePayloadJson = encodeEventPayload({
    trade_id: `${swap.txHash}-${swap.logIndex}`,
    side,
    trader: lower(swap.trader),
    token_amount: tokenAmount.toString(),
    eth_amount_wei: ethAmountWei.toString(),
    price_wei: priceWei.toString(),
    market_cap_wei: mcapWei.toString(),
  });
  let sub = swap.eventSubStart;
  await db.insert(event).values({
    ...base,
    id: eventId(swap.blockNumber, swap.eventLogIndex, sub++),
    kind: "trade",
    payloadJson: tradePayloadJson,
  });
  if (side === "buy" && ethAmountWei >= thresholds.bigBuyThresholdWei) {
    await db.insert(event).values({
      ...base,
      id: eventId(swap.blockNumber, swap.eventLogIndex, sub++),
      kind: "big_buy",
      payloadJson: tradePayloadJson,
    });
  }
  if (graduates) {
    await db.insert(event).values({
      ...base,
      id: eventId(swap.blockNumber, swap.eventLogIndex, sub++),
      kind: "graduation",
      payloadJson: encodeEventPayload({
        market_cap_wei: mcapWei.toString(),
        threshold_wei: thresholds.graduationMarketCapWei.toString(),
        price_wei: priceWei.toString(),
      }),
    });
  }
  return { priceWei, marketCapWei: mcapWei, graduated: graduates };
}
