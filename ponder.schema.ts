/**
 * Chain-derived tables, written only by the indexing functions in `src/`.
 *
 * Conventions: addresses and hashes are stored lowercase (checksummed only when served); amounts
 * are bigint base units (token units or wei, the unit is in the column name); times are unix
 * seconds; prices are wei per one whole token, floored, derived from sqrtPriceX96
 * (`src/domain/price.ts`). USD amounts (`*UsdE18`) are integers of 10^-18 USD, floored, converted
 * at the reference pool's ETH/USD in force (`src/domain/usd.ts`); null where no ETH/USD was known.
 */
import { index, onchainEnum, onchainTable, sql } from "ponder";

// Table groups in src/schema/: Ponder reads this module's exports (re-exports included) and hashes
// every file under src/ into its build id, so a change there re-indexes as one here would.
export { holder, prelaunchHolderCount, tokenIntegrity } from "./src/schema/holders";
export { candle, tokenTrader, trade, tradeSide } from "./src/schema/market";

/** Kinds of public events (see `src/domain/events.ts`). */
export const eventKind = onchainEnum("event_kind", ["launch", "trade", "big_buy", "graduation", "fee_claim"]);

/** One launched token: its launch facts and its running market state. */
export const token = onchainTable(
  "token",
  (t) => ({
    address: t.hex().primaryKey(),
    /** 1, 2, 3, … in launch (chain) order across every accepted factory; the partner `orderId`. */
    launchSeq: t.integer().notNull(),
    /** Unique, stable URL slug derived from the symbol (`src/domain/slug.ts`). */
    slug: t.text().notNull(),
    factory: t.hex().notNull(),
    creator: t.hex().notNull(),
    name: t.text().notNull(),
    symbol: t.text().notNull(),
    decimals: t.integer().notNull(),
    totalSupply: t.bigint().notNull(),
    pool: t.hex().notNull(),
    weth: t.hex().notNull(),
    tokenIsToken0: t.boolean().notNull(),
    /**
     * Locked position ids as comma-separated decimals (`src/domain/positions.ts`). Text, not an
     * array: Ponder deep-copies every row of a table with a JSON or array column on each write,
     * and this row is updated on every swap.
     */
    positionIdsCsv: t.text().notNull(),
    liquidityWei: t.bigint().notNull(),
    firstBuyWei: t.bigint().notNull(),
    firstBuyTokensOut: t.bigint().notNull(),
    launchTxHash: t.hex().notNull(),
    launchBlockNumber: t.bigint().notNull(),
    launchLogIndex: t.integer().notNull(),
    launchTimestampSec: t.bigint().notNull(),
    /** Start price (wei per whole token) the pool was launched at, before any first buy. */
    launchPriceWei: t.bigint().notNull(),
    /** Index of the launch transaction in its block. */
    launchTxIndex: t.integer().notNull(),
    // The launch's liquidity add (its pool `Mint`s, summed; served as a DexScreener `join`):
    // log index of the last Mint, token base units and WETH wei minted, and the pool's balances
    // right after it (before any first buy; includes WETH a pre-created pool already held).
    launchMintLogIndex: t.integer().notNull(),
    launchMintToken: t.bigint().notNull(),
    launchMintWei: t.bigint().notNull(),
    launchReserveToken: t.bigint().notNull(),
    launchReserveWei: t.bigint().notNull(),
    // Pool balances tracked from pool events (launch receipt, then Mint/Swap/Collect/Flash):
    // WETH wei and token base units the pool holds, including fees not yet collected.
    reserveWei: t.bigint().notNull(),
    reserveToken: t.bigint().notNull(),
    // Market state after the latest indexed swap (or the start price before any).
    sqrtPriceX96: t.bigint().notNull(),
    tick: t.integer().notNull(),
    priceWei: t.bigint().notNull(),
    marketCapWei: t.bigint().notNull(),
    volumeWei: t.bigint().notNull(),
    volumeToken: t.bigint().notNull(),
    tradeCount: t.integer().notNull(),
    buyCount: t.integer().notNull(),
    sellCount: t.integer().notNull(),
    lastTradeTimestampSec: t.bigint(),
    graduatedAtSec: t.bigint(),
    // Fee totals collected through the fee locker, split 70/30 (`FeesCollected`).
    creatorFeesWei: t.bigint().notNull(),
    creatorFeesToken: t.bigint().notNull(),
    protocolFeesWei: t.bigint().notNull(),
    protocolFeesToken: t.bigint().notNull(),
    /** All-time volume in 10^-18 USD: each trade's `ethAmountUsdE18` summed (trades without ETH/USD add 0). */
    volumeUsdE18: t.bigint().notNull(),
    /** Addresses holding a non-zero balance: the number of this token's `holder` rows (`src/indexing/LaunchToken.ts`). */
    holderCount: t.integer().notNull(),
  }),
  (table) => ({
    launchOrderIdx: index().on(table.launchBlockNumber, table.launchLogIndex),
    launchSeqIdx: index().on(table.launchSeq),
    // Search (market/search.ts): `text_pattern_ops` makes `LIKE 'prefix%'` an index range in
    // any collation; the slug index also serves equality lookups.
    slugIdx: index("token_slug_search_idx").on(sql`${table.slug} text_pattern_ops`),
    symbolSearchIdx: index("token_symbol_search_idx").on(sql`lower(${table.symbol}) text_pattern_ops`),
    nameSearchIdx: index("token_name_search_idx").on(sql`lower(${table.name}) text_pattern_ops`),
    // Word prefixes of name and symbol (`to_tsquery('simple', 'pep:*')`); the expression must stay
    // identical to the word tier in market/search.ts for the planner to use it.
    wordSearchIdx: index("token_word_search_idx").using(
      "gin",
      sql`to_tsvector('simple'::regconfig, ${table.name} || ' ' || ${table.symbol})`,
    ),
    marketCapIdx: index().on(table.marketCapWei, table.launchSeq),
    volumeIdx: index().on(table.volumeWei, table.launchSeq),
    creatorIdx: index().on(table.creator),
    poolIdx: index().on(table.pool),
  }),
);

/** Pool -> token lookup for the Swap handler (a pool exists here only once its launch is indexed). */
export const pool = onchainTable("pool", (t) => ({
  address: t.hex().primaryKey(),
  token: t.hex().notNull(),
  tokenIsToken0: t.boolean().notNull(),
}));

/** A pool log recorded before its pool's launch event (see {@link prelaunchPoolLogs}). Amounts are decimal strings (JSON). */
export type PrelaunchPoolLog =
  | { logIndex: number; kind: "Initialize"; sqrtPriceX96: string; tick: number }
  | { logIndex: number; kind: "Mint"; amount0: string; amount1: string }
  | {
      logIndex: number;
      kind: "Swap";
      amount0: string;
      amount1: string;
      sqrtPriceX96: string;
      tick: number;
      recipient: `0x${string}`;
    };

/**
 * Pool logs that precede their pool's launch event. The factory emits `TokenLaunched` last, after
 * initialising the pool, minting the locked positions and the first buy, so those logs reach the
 * indexer (Ponder matches a factory's children from the launch block on) while the pool is not yet
 * known as a launched one. One row per pool holds the logs of the newest transaction that touched
 * it before its launch; the launch handler reads the launch transaction's logs and empties the row.
 * This replaces reading the launch receipt over RPC (`src/indexing/prelaunchLogs.ts`).
 */
export const prelaunchPoolLogs = onchainTable("prelaunch_pool_logs", (t) => ({
  pool: t.hex().primaryKey(),
  txHash: t.hex().notNull(),
  logs: t.json().$type<PrelaunchPoolLog[]>().notNull(),
}));

/**
 * The ETH/USD reference pool (`ETH_USD_POOL`, one row): its orientation, read once from the chain
 * when its first log is indexed, and the price in force after the newest indexed Initialize or
 * Swap (or its slot0 just before the start block, for a pool initialised earlier).
 */
export const ethUsd = onchainTable("eth_usd", (t) => ({
  pool: t.hex().primaryKey(),
  wethIsToken0: t.boolean().notNull(),
  stablecoin: t.hex().notNull(),
  stablecoinDecimals: t.integer().notNull(),
  sqrtPriceX96: t.bigint().notNull(),
  /** Chain position of the log that set the price (log index -1: slot0 read before the start block). */
  blockNumber: t.bigint().notNull(),
  logIndex: t.integer().notNull(),
  timestampSec: t.bigint().notNull(),
}));

/** One `FeesCollected` of a position locked by an accepted launch. */
export const feeClaim = onchainTable(
  "fee_claim",
  (t) => ({
    id: t.text().primaryKey(), // `${txHash}-${logIndex}`
    positionId: t.bigint().notNull(),
    token: t.hex().notNull(),
    creator: t.hex().notNull(),
    creatorFeesWei: t.bigint().notNull(),
    creatorFeesToken: t.bigint().notNull(),
    protocolFeesWei: t.bigint().notNull(),
    protocolFeesToken: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
    timestampSec: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  (table) => ({
    tokenIdx: index().on(table.token),
    creatorIdx: index().on(table.creator),
  }),
);

/** Ordered public events; `id` increases in chain order (`src/domain/events.ts`). */
export const event = onchainTable(
  "event",
  (t) => ({
    id: t.bigint().primaryKey(),
    kind: eventKind("kind").notNull(),
    token: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
    timestampSec: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    // Kind-specific fields; amounts as decimal strings in wei / token base units. JSON text
    // (`encodeEventPayload` in src/domain/events.ts), not a JSON column: Ponder deep-copies every
    // row of a table with a JSON or array column, and one to three events are written per swap.
    payloadJson: t.text().notNull(),
  }),
  (table) => ({
    kindIdx: index().on(table.kind, table.id),
    tokenIdx: index().on(table.token, table.id),
  }),
);

/** Slug registry: one row per assigned slug (uniqueness), and per base the next collision suffix. */
export const slug = onchainTable("slug", (t) => ({
  slug: t.text().primaryKey(),
  token: t.hex().notNull(),
}));

/** Next collision suffix per slug base (`pepe` -> 2 means the next `pepe` launch tries `pepe-2`). */
export const slugBase = onchainTable("slug_base", (t) => ({
  base: t.text().primaryKey(),
  next: t.integer().notNull(),
}));

/** Named monotonic counters (`launch`: the last assigned `token.launchSeq`). */
export const counter = onchainTable("counter", (t) => ({
  name: t.text().primaryKey(),
  value: t.integer().notNull(),
}));
