/**
 * Wire schemas of the market records, for the OpenAPI document (docs/openapi.md). They describe
 * what the market presenters (`market/*Record*.ts`) put on the wire after `http/json.ts`
 * serialised it: amounts as decimal strings, addresses checksummed, block numbers and unix seconds
 * as JSON numbers. Tests validate real responses against them, so a presenter that drifts from
 * its schema fails a test.
 */
import { z } from "zod";
import { HOLDER_LABELS } from "../src/domain/holders";
import { integrityWire } from "./integrityWire";
import { addressWire, blockNumber, cursor, hashWire, okBody, uintString, unixSec, usdString } from "../src/domain/wire";

/** Off-chain token metadata (creator values or platform defaults). */
export const tokenMetadataWire = z
  .looseObject({
    description: z.string(),
    image_url: z.string(),
    website_url: z.string().nullable(),
    twitter_url: z.string().nullable(),
    telegram_url: z.string().nullable(),
    is_default: z.boolean(),
  })
  .meta({ id: "TokenMetadata" });

const shareBps = z.number().int().min(0).max(10_000);

/** The integrity summary on every token record (docs/public.md "Launch integrity", "On list records"). */
export const launchIntegritySummaryWire = z
  .object({
    creator_balance_bps: shareBps.meta({ description: "the creator's balance now / total_supply, bps rounded down" }),
    snipers: z.object({
      count: z
        .number()
        .int()
        .nonnegative()
        .meta({ description: "sniper addresses (as the integrity record's snipers)" }),
      held_bps: shareBps.meta({ description: "their balances now / total_supply, bps rounded down" }),
    }),
    bundled: z.object({
      count: z
        .number()
        .int()
        .nonnegative()
        .meta({ description: "same-block bundle addresses (as the integrity record's bundled)" }),
      held_bps: shareBps.meta({ description: "their balances now / total_supply, bps rounded down" }),
    }),
  })
  .nullable()
  .meta({
    id: "LaunchIntegritySummary",
    description:
      "shares of the supply held now by the creator, the snipers and same-block bundles, read at as_of_block; the full figures (top-10 concentration, amounts bought) are at /token/{address_or_slug}/integrity; null before the launch's integrity row is indexed",
  });

/** One activity window (docs/public.md "Activity windows"). */
export const activityWindowWire = z
  .object({
    price_then_wei: uintString.meta({
      description: "price after the last trade at or before the cutoff (now − window), else the launch price",
    }),
    price_change_bps: z
      .number()
      .int()
      .nullable()
      .meta({ description: "(price_wei − price_then_wei) × 10,000 / price_then_wei, truncated toward zero" }),
    volume_wei: uintString.meta({ description: "WETH volume of the trades with block timestamp > now − window" }),
    volume_usd: usdString.meta({ description: "those trades' values at their own blocks, summed" }),
    buys: z.number().int().nonnegative(),
    sells: z.number().int().nonnegative(),
    unique_buyers: z.number().int().nonnegative().meta({ description: "distinct transaction senders of the buys" }),
    unique_sellers: z.number().int().nonnegative().meta({ description: "distinct transaction senders of the sells" }),
  })
  .meta({ id: "ActivityWindow" });

/** Token record (docs/public.md "Token record"). */
export const tokenWire = z
  .object({
    address: addressWire,
    slug: z.string(),
    launch_seq: z.number().int().positive(),
    name: z.string(),
    symbol: z.string(),
    decimals: z.number().int(),
    total_supply: uintString,
    creator: addressWire,
    factory: addressWire,
    pool: addressWire,
    quote_token: addressWire,
    token0: addressWire,
    token1: addressWire,
    position_ids: z.array(uintString),
    launch_tx_hash: hashWire,
    launch_block_number: blockNumber,
    launch_timestamp_sec: unixSec,
    liquidity_wei: uintString,
    first_buy_wei: uintString,
    first_buy_tokens_out: uintString,
    sqrt_price_x96: uintString,
    tick: z.number().int(),
    price_wei: uintString.meta({ description: "wei per one whole token (10^decimals base units), floored" }),
    market_cap_wei: uintString,
    launch_price_wei: uintString,
    volume_wei: uintString,
    volume_token: uintString,
    eth_price_usd: usdString.meta({ description: "current ETH/USD (the reference pool's newest indexed price)" }),
    price_usd: usdString.meta({ description: "price_wei at the current ETH/USD" }),
    market_cap_usd: usdString.meta({ description: "market_cap_wei at the current ETH/USD" }),
    volume_usd: usdString.meta({ description: "all-time volume: each trade's value at its own block, summed" }),
    volume_24h_usd: usdString.meta({ description: "24 h volume: each trade's value at its own block, summed" }),
    volume_24h_wei: uintString.nullable(),
    volume_24h_token: uintString.nullable(),
    trade_count_24h: z.number().int().nullable(),
    price_24h_ago_wei: uintString.nullable(),
    price_change_24h_bps: z.number().int().nullable(),
    windows: z
      .object({ m5: activityWindowWire, h1: activityWindowWire, h6: activityWindowWire, h24: activityWindowWire })
      .nullable()
      .meta({ description: "activity over the last 5 min, 1 h, 6 h and 24 h (block timestamps, seconds)" }),
    liquidity: z.object({
      reserve_wei: uintString,
      reserve_token: uintString,
      total_value_wei: uintString,
      total_value_usd: usdString.meta({ description: "total_value_wei at the current ETH/USD" }),
    }),
    trade_count: z.number().int(),
    buy_count: z.number().int(),
    sell_count: z.number().int(),
    last_trade_timestamp_sec: unixSec.nullable(),
    graduated: z.boolean(),
    graduated_at_sec: unixSec.nullable(),
    graduation_threshold_wei: uintString,
    graduation_threshold_usd: usdString.meta({ description: "graduation_threshold_wei at the current ETH/USD" }),
    graduation_progress_bps: z.number().int().min(0).max(10_000),
    creator_fees_wei: uintString,
    creator_fees_token: uintString,
    protocol_fees_wei: uintString,
    protocol_fees_token: uintString,
    holder_count: z.number().int().nonnegative().meta({ description: "addresses holding a non-zero balance" }),
    launch_integrity: launchIntegritySummaryWire,
    metadata: tokenMetadataWire,
    token_url: z.string(),
    as_of_block: blockNumber.nullable().meta({
      description:
        'the indexed block every figure of this record was read at (one snapshot; docs/public.md "One record, one block"); null before the first indexed block',
    }),
    as_of_timestamp_sec: unixSec.nullable().meta({ description: "that block's timestamp (unix seconds)" }),
    usd_source_age_sec: z.number().int().nonnegative().nullable().meta({
      description:
        "seconds from the block of the newest indexed ETH/USD reference price to as_of_timestamp_sec (chain time); null without a reference price",
    }),
    usd_stale: z.boolean().nullable().meta({
      description:
        "true when usd_source_age_sec is above 3600 (one hour): the USD figures use an ETH/USD that old; null without a reference price",
    }),
  })
  .meta({
    id: "Token",
    description:
      "A launched token: launch facts, market state after the latest indexed swap, 24 h figures, liquidity, fees, metadata.",
  });

/** Holder record (docs/public.md "Holders"). */
export const holderWire = z
  .object({
    address: addressWire,
    balance_wei: uintString.meta({ description: "balance in token base units (18 decimals), > 0" }),
    share_bps: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .meta({ description: "balance / total supply in basis points, rounded down" }),
    label: z.enum(HOLDER_LABELS).nullable().meta({
      description: "the launchpad's own addresses (the token's pool, …, the burn address 0x…dEaD), else null",
    }),
    updated_block_number: blockNumber.meta({ description: "block of the balance change that set this balance" }),
    updated_timestamp_sec: unixSec,
  })
  .meta({ id: "Holder" });

/** Token detail record: the token record with its ten largest holders. */
export const tokenDetailWire = tokenWire
  .extend({ top_holders: z.array(holderWire).max(10), integrity: integrityWire })
  .meta({
    id: "TokenDetail",
    description: "A token record with its ten largest holders (balance desc, address asc) and its launch integrity.",
  });

/** A page of a token's holders. */
export const holderPageWire = okBody({
  token: addressWire,
  holder_count: z.number().int().nonnegative(),
  holders: z.array(holderWire),
  next_cursor: cursor,
});

/** Trade record: one Uniswap V3 Swap of a launch pool, seen from the token's side. */
export const tradeWire = z
  .object({
    id: z.string(),
    token: addressWire,
    pool: addressWire,
    side: z.enum(["buy", "sell"]).meta({
      description:
        "buy: the token left the pool; sell: it entered; when no token moved (token_amount 0), the WETH direction decides (WETH in = buy)",
    }),
    trader: addressWire,
    recipient: addressWire,
    token_amount: uintString,
    eth_amount_wei: uintString,
    price_wei: uintString,
    market_cap_wei: uintString,
    eth_price_usd: usdString.meta({
      description: "ETH/USD in force at the trade: the reference pool's last price at or before its (block, log index)",
    }),
    eth_amount_usd: usdString.meta({ description: "eth_amount_wei at eth_price_usd (the trade's value at its block)" }),
    price_usd: usdString.meta({ description: "price_wei at eth_price_usd" }),
    market_cap_usd: usdString.meta({ description: "market_cap_wei at eth_price_usd" }),
    sqrt_price_x96: uintString,
    tick: z.number().int(),
    block_number: blockNumber,
    log_index: z.number().int().nonnegative(),
    timestamp_sec: unixSec,
    tx_hash: hashWire,
  })
  .meta({ id: "Trade" });

/** Events-feed record (docs/public.md "Events feed"). */
export const eventWire = z
  .object({
    id: z.number().int().nonnegative(),
    kind: z.enum(["launch", "trade", "big_buy", "graduation", "fee_claim"]),
    token: addressWire,
    block_number: blockNumber,
    log_index: z.number().int().nonnegative(),
    timestamp_sec: unixSec,
    tx_hash: hashWire,
    confirmed: z.boolean(),
    payload: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "Event" });

/** Token page of a list endpoint. */
export const tokenPage = okBody({ tokens: z.array(tokenWire), next_cursor: cursor });
/** Trade page of a list endpoint. */
export const tradePage = okBody({ trades: z.array(tradeWire), next_cursor: cursor });

/** One item of a batch read: the address asked for and its record, or null when no token launched there. */
export const tokenBatchBody = okBody({
  tokens: z.array(
    z.object({
      address: addressWire.meta({ description: "the address asked for, checksummed" }),
      found: z.boolean(),
      token: tokenWire
        .nullable()
        .meta({ description: "the token record, null when no launched token has this address" }),
    }),
  ),
});
