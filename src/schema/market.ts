/**
 * Market tables (re-exported by `ponder.schema.ts`, written only by the indexing functions): the
 * trades mirrored from the launched pools' Swap logs and their OHLCV candles
 * (`src/indexing/recordTrade.ts`). Conventions as in `ponder.schema.ts`: lowercase addresses,
 * bigint base units, unix seconds, prices in wei per whole token.
 */
import { index, onchainEnum, onchainTable, primaryKey, sql } from "ponder";

/** Side of a trade from the launched token's point of view. */
export const tradeSide = onchainEnum("trade_side", ["buy", "sell"]);

/** One Uniswap V3 Swap of a launched token's pool, mirrored as a trade. */
export const trade = onchainTable(
  "trade",
  (t) => ({
    id: t.text().primaryKey(), // `${txHash}-${logIndex}`
    token: t.hex().notNull(),
    pool: t.hex().notNull(),
    side: tradeSide("side").notNull(),
    trader: t.hex().notNull(), // the transaction's sender
    recipient: t.hex().notNull(), // the Swap event's recipient
    tokenAmount: t.bigint().notNull(),
    ethAmountWei: t.bigint().notNull(),
    sqrtPriceX96: t.bigint().notNull(),
    tick: t.integer().notNull(),
    priceWei: t.bigint().notNull(),
    marketCapWei: t.bigint().notNull(),
    /** Pool balances right after this swap (WETH wei, token base units). */
    reserveWeiAfter: t.bigint().notNull(),
    reserveTokenAfter: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
    /** Index of the transaction in its block. */
    txIndex: t.integer().notNull(),
    timestampSec: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    /**
     * ETH/USD in force at this trade: the reference pool's sqrtPriceX96 of its last Initialize or
     * Swap at or before the trade's (block, log index) (`eth_usd`); null before the first one or
     * without a reference pool. The USD columns below are converted at it (null with it).
     */
    ethUsdSqrtPriceX96: t.bigint(),
    /** That ETH/USD as 10^-18 USD per ETH (the value of 10^18 wei), floored. */
    ethPriceUsdE18: t.bigint(),
    ethAmountUsdE18: t.bigint(),
    priceUsdE18: t.bigint(),
    marketCapUsdE18: t.bigint(),
  }),
  (table) => ({
    timeIdx: index().on(table.timestampSec),
    tokenOrderIdx: index().on(table.token, table.blockNumber, table.logIndex),
    tokenTimeIdx: index("trade_token_time_idx").on(table.token, table.timestampSec), // second bars (secondBars.ts)
    chainOrderIdx: index().on(table.blockNumber, table.logIndex),
  }),
);

/** OHLCV per token, resolution and bucket; prices in wei per whole token. */
export const candle = onchainTable(
  "candle",
  (t) => ({
    token: t.hex().notNull(),
    resolution: t.text().notNull(),
    bucketStartSec: t.bigint().notNull(),
    openWei: t.bigint().notNull(),
    highWei: t.bigint().notNull(),
    lowWei: t.bigint().notNull(),
    closeWei: t.bigint().notNull(),
    volumeToken: t.bigint().notNull(),
    volumeWei: t.bigint().notNull(),
    // volumeWei split by the trade's side (`trade.side`: buy = WETH into the pool); they sum to it.
    volumeBuyWei: t.bigint().notNull(),
    volumeSellWei: t.bigint().notNull(),
    tradeCount: t.integer().notNull(),
    // Trades of the bucket by side (`trade.side` = buy); the sells are tradeCount − buyCount.
    buyCount: t.integer().notNull(),
    // USD OHLCV over the bucket's trades that had an ETH/USD, each converted at its own
    // (`trade.priceUsdE18`, `trade.ethAmountUsdE18`); null when none had.
    openUsdE18: t.bigint(),
    highUsdE18: t.bigint(),
    lowUsdE18: t.bigint(),
    closeUsdE18: t.bigint(),
    volumeUsdE18: t.bigint(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.token, table.resolution, table.bucketStartSec] }),
    // The windows of every token at once (market/tokenRankings.ts: trending and top lists): the
    // 1m and 1h buckets of the last day across tokens, without reading other resolutions.
    recentMinuteIdx: index("candle_1m_bucket_idx").on(table.bucketStartSec).where(sql.raw("resolution = '1m'")),
    recentHourIdx: index("candle_1h_bucket_idx").on(table.bucketStartSec).where(sql.raw("resolution = '1h'")),
  }),
);

/**
 * The newest trade of each (token, side, trader): one row per wallet that ever bought (or sold)
 * the token, holding the block timestamp of its latest such trade. A trader is in a window's
 * `unique_buyers` (or `unique_sellers`) exactly when its row's `lastTimestampSec` is inside the
 * window, so the unique counts read one row per wallet active in the window instead of every
 * trade (market/tokenWindows.ts, docs/public.md "Activity windows"). Reorg-safe like every table.
 */
export const tokenTrader = onchainTable(
  "token_trader",
  (t) => ({
    token: t.hex().notNull(),
    side: tradeSide("side").notNull(),
    trader: t.hex().notNull(),
    lastTimestampSec: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.token, table.side, table.trader] }),
    recentIdx: index("token_trader_recent_idx").on(table.token, table.lastTimestampSec),
  }),
);
