/**
 * Presenters of the DexScreener adapter (DEX Screener "Adapter Specs" v1.1: `Block`, `Asset`,
 * `Pair`, `SwapEvent`, `JoinExitEvent`), pure functions over indexed rows.
 *
 * Spec conventions followed here: amounts, supplies, reserves and prices are **decimal strings in
 * whole units** (base units divided by 10^decimals with viem's `formatUnits`, never float math);
 * block numbers, timestamps (unix seconds) and indexes are JSON numbers; a pair's `asset0`/`asset1`
 * are the Uniswap V3 pool's `token0`/`token1`; `priceNative` is the price of asset0 in asset1.
 * Addresses and transaction hashes: addresses checksummed, hashes lowercase hex.
 */
import { formatUnits, getAddress } from "viem";
import type { token, trade } from "../ponder.schema";

type TokenRow = typeof token.$inferSelect;
type TradeRow = typeof trade.$inferSelect;

/** Decimals of WETH (the quote asset of every launch pool). */
const WETH_DECIMALS = 18;

/**
 * Fractional digits of `priceNative`. Every price a Uniswap V3 pool can hold is at least
 * (MIN_SQRT_RATIO / 2^96)^2 ≈ 2.9e-39, so with equal decimals (18/18 here) the floored value is
 * never 0, which the spec forbids.
 */
const PRICE_NATIVE_DECIMALS = 40;

/** `dexKey` of every pair: the pools are Uniswap V3 pools. */
const DEX_KEY = "uniswap";

/** Spec `Block`: number and unix-seconds timestamp. */
export type DsBlock = { blockNumber: number; blockTimestamp: number };

/** Spec `Asset` (optional fields omitted when unknown). */
export type DsAsset = {
  id: string;
  name: string;
  symbol: string;
  totalSupply: string;
  circulatingSupply?: string;
  coinGeckoId?: string;
  coinMarketCapId?: string;
};

/** Spec `Pair`. */
export type DsPair = {
  id: string;
  dexKey: string;
  asset0Id: string;
  asset1Id: string;
  createdAtBlockNumber: number;
  createdAtBlockTimestamp: number;
  createdAtTxnId: string;
  creator: string;
  feeBps: number;
};

/** Fields every spec event carries. */
type DsEventBase = {
  block: DsBlock;
  txnId: string;
  txnIndex: number;
  eventIndex: number;
  maker: string;
  pairId: string;
};

/** Spec `SwapEvent`: exactly one of `asset0In`/`asset1In` and the other asset's `*Out`. */
export type DsSwapEvent = DsEventBase & {
  eventType: "swap";
  asset0In?: string;
  asset1In?: string;
  asset0Out?: string;
  asset1Out?: string;
  priceNative: string;
  reserves: { asset0: string; asset1: string };
};

/** Spec `JoinExitEvent` (here only `join`: a launch's liquidity add). */
export type DsJoinEvent = DsEventBase & {
  eventType: "join";
  amount0: string;
  amount1: string;
  reserves: { asset0: string; asset1: string };
};

/** Any event `/events` serves. */
export type DsEvent = DsSwapEvent | DsJoinEvent;

/**
 * Price of one whole asset0 in whole asset1 from a pool's sqrtPriceX96, floored at
 * {@link PRICE_NATIVE_DECIMALS} fractional digits, as a decimal string.
 *
 * Math (Uniswap V3 whitepaper 6.1): raw price = sqrtPriceX96^2 / 2^192 (asset1 base units per
 * asset0 base unit); whole-unit price = raw × 10^(decimals0 − decimals1). Computed as
 * floor(sqrtPriceX96^2 × 10^(P + decimals0 − decimals1) / 2^192) with bigints only, then
 * `formatUnits(·, P)`.
 * @param sqrtPriceX96 - the pool's sqrt price after the event (Q64.96), positive
 * @param decimals0 - decimals of asset0 (token0)
 * @param decimals1 - decimals of asset1 (token1)
 * @returns whole-unit price of asset0 in asset1
 * @throws RangeError when sqrtPriceX96 is not positive
 * @example priceNative(2n ** 96n, 18, 18) // "1"
 * @example priceNative(2n ** 95n, 18, 18) // "0.25"
 */
export function priceNative(sqrtPriceX96: bigint, decimals0: number, decimals1: number): string {
  if (sqrtPriceX96 <= 0n) throw new RangeError("sqrtPriceX96 must be positive");
  const shift = PRICE_NATIVE_DECIMALS + decimals0 - decimals1;
  const squared = sqrtPriceX96 * sqrtPriceX96;
  const scaled =
    shift >= 0 ? (squared * 10n ** BigInt(shift)) >> 192n : squared / ((1n << 192n) * 10n ** BigInt(-shift));
  return formatUnits(scaled, PRICE_NATIVE_DECIMALS);
}

/** A token row's pool assets: token0/token1 addresses and decimals. */
function assetsOf(row: Pick<TokenRow, "address" | "weth" | "tokenIsToken0" | "decimals">) {
  const tokenSide = { id: getAddress(row.address), decimals: row.decimals };
  const wethSide = { id: getAddress(row.weth), decimals: WETH_DECIMALS };
  return row.tokenIsToken0 ? { asset0: tokenSide, asset1: wethSide } : { asset0: wethSide, asset1: tokenSide };
}

/**
 * Token/WETH amounts -> asset0/asset1 amounts as whole-unit decimal strings.
 * @param row - the token (orientation, decimals)
 * @param tokenAmount - token base units
 * @param wethAmount - WETH wei
 */
function toAssetAmounts(row: Pick<TokenRow, "tokenIsToken0" | "decimals">, tokenAmount: bigint, wethAmount: bigint) {
  const tok = formatUnits(tokenAmount, row.decimals);
  const weth = formatUnits(wethAmount, WETH_DECIMALS);
  return row.tokenIsToken0 ? { asset0: tok, asset1: weth } : { asset0: weth, asset1: tok };
}

/**
 * Spec `Asset` of a launched token: `totalSupply` in whole tokens. `circulatingSupply`,
 * `coinGeckoId` and `coinMarketCapId` are omitted (unknown to the service).
 * @example assetOfToken(row) // { id: "0xAbC…", name: "Pepe", symbol: "PEPE", totalSupply: "1000000000" }
 */
export function assetOfToken(row: Pick<TokenRow, "address" | "name" | "symbol" | "totalSupply" | "decimals">): DsAsset {
  return {
    id: getAddress(row.address),
    name: row.name,
    symbol: row.symbol,
    totalSupply: formatUnits(row.totalSupply, row.decimals),
  };
}

/**
 * Spec `Pair` of a launch pool: `id` = pool, `asset0Id`/`asset1Id` = token0/token1, `feeBps` from
 * the pool fee (hundredths of a bip: 10000 -> 100), created at the launch transaction (the launch
 * that made the pool a launch pool, even if someone created the pool earlier), `creator` = the
 * token's creator.
 * @param row - the launched token
 * @param poolFee - Uniswap V3 fee tier (10000 = 1 %)
 */
export function pairOfToken(row: TokenRow, poolFee: number): DsPair {
  const { asset0, asset1 } = assetsOf(row);
  return {
    id: getAddress(row.pool),
    dexKey: DEX_KEY,
    asset0Id: asset0.id,
    asset1Id: asset1.id,
    createdAtBlockNumber: Number(row.launchBlockNumber),
    createdAtBlockTimestamp: Number(row.launchTimestampSec),
    createdAtTxnId: row.launchTxHash,
    creator: getAddress(row.creator),
    feeBps: poolFee / 100,
  };
}

/**
 * Spec `SwapEvent` of one indexed trade. A buy pays WETH into the pool and takes the token out; a
 * sell the reverse; mapped onto asset0/asset1 by the pool's orientation, so exactly one `*In` and
 * one `*Out` are present. `maker` = the transaction's sender, `eventIndex` = the Swap's log index,
 * `priceNative` from the Swap's sqrtPriceX96, `reserves` = the pool's balances after the swap.
 * @param t - the trade row
 * @param row - its token (orientation and decimals)
 */
export function swapEvent(
  t: TradeRow,
  row: Pick<TokenRow, "address" | "weth" | "tokenIsToken0" | "decimals">,
): DsSwapEvent {
  const { asset0, asset1 } = assetsOf(row);
  const amounts = toAssetAmounts(row, t.tokenAmount, t.ethAmountWei);
  // Which asset the trader paid in: WETH on a buy, the token on a sell.
  const paidIsAsset0 = (t.side === "buy") !== row.tokenIsToken0;
  const sides = paidIsAsset0
    ? { asset0In: amounts.asset0, asset1Out: amounts.asset1 }
    : { asset1In: amounts.asset1, asset0Out: amounts.asset0 };
  return {
    block: { blockNumber: Number(t.blockNumber), blockTimestamp: Number(t.timestampSec) },
    eventType: "swap",
    txnId: t.txHash,
    txnIndex: t.txIndex,
    eventIndex: t.logIndex,
    maker: getAddress(t.trader),
    pairId: getAddress(t.pool),
    ...sides,
    priceNative: priceNative(t.sqrtPriceX96, asset0.decimals, asset1.decimals),
    reserves: toAssetAmounts(row, t.reserveTokenAfter, t.reserveWeiAfter),
  };
}

/**
 * Spec `JoinExitEvent` (`join`) of a launch's initial liquidity: its pool Mints summed, placed at
 * the last Mint's log index in the launch transaction (before any first buy), `maker` = the
 * creator, `reserves` = the pool's balances right after it.
 * @param row - the launched token
 */
export function launchJoinEvent(row: TokenRow): DsJoinEvent {
  const amounts = toAssetAmounts(row, row.launchMintToken, row.launchMintWei);
  return {
    block: { blockNumber: Number(row.launchBlockNumber), blockTimestamp: Number(row.launchTimestampSec) },
    eventType: "join",
    txnId: row.launchTxHash,
    txnIndex: row.launchTxIndex,
    eventIndex: row.launchMintLogIndex,
    maker: getAddress(row.creator),
    pairId: getAddress(row.pool),
    amount0: amounts.asset0,
    amount1: amounts.asset1,
    reserves: toAssetAmounts(row, row.launchReserveToken, row.launchReserveWei),
  };
}

/**
 * Orders events as the spec expects: by block, then transaction index, then event index.
 * @returns a new sorted array
 */
export function sortEvents(events: DsEvent[]): DsEvent[] {
  return [...events].sort(
    (a, b) => a.block.blockNumber - b.block.blockNumber || a.txnIndex - b.txnIndex || a.eventIndex - b.eventIndex,
  );
}
