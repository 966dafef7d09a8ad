/**
 * The token record the API serves (docs/public.md "Token record"). Presenters turn database rows
 * into JSON records: addresses checksummed, amounts as bigint (serialised as decimal strings by
 * `http/json.ts`), block numbers and unix seconds as JSON numbers, units in every field name.
 */
import { getAddress } from "viem";
import type { token } from "../ponder.schema";
import type { RecordSettings } from "../config/public";
import { graduationProgressBps, priceChangeBps } from "../src/domain/market";
import { decodePositionIds } from "../src/domain/positions";
import { tokenUrl } from "../src/domain/urls";
import { formatUsd, weiToUsdE18 } from "../src/domain/usd";
import { resolveTokenMetadata, type StoredTokenMetadata } from "./metadata";
import type { AsOf } from "./snapshot";
import type { EthUsdNow, Stats24h } from "./tokenStats";
import type { IntegritySummary } from "./integrity";
import { holderShareBps } from "../src/domain/holders";
import { ACTIVITY_WINDOW_NAMES, type ActivityWindows, windowRecord } from "../src/domain/activityWindows";

type TokenRow = typeof token.$inferSelect & {
  stats24h?: Stats24h;
  windows?: ActivityWindows;
  storedMetadata?: StoredTokenMetadata;
  ethUsd?: EthUsdNow | null;
  integritySummary?: IntegritySummary;
  asOf?: AsOf;
};

/**
 * Token record: launch facts, market state after the latest indexed swap, 24 h figures, pool
 * liquidity, graduation progress, fee totals, metadata (the creator's stored metadata of a
 * confirmed launch, platform defaults for omitted fields) and page URL (docs/public.md "Token record").
 *
 * USD (docs/public.md "USD values"): `price_usd`, `market_cap_usd`, `liquidity.total_value_usd`
 * and `graduation_threshold_usd` convert the wei figure at the current ETH/USD (`eth_price_usd`);
 * `volume_usd` and `volume_24h_usd` sum each trade's value at its own block. All are decimal
 * strings rounded down to 18 decimals, and all are null while no ETH/USD is known (no reference
 * pool, or none of its prices indexed yet), never 0.
 * @param row - a `token` row, with `stats24h` and `ethUsd` attached by `withStats` (24 h and USD
 *   fields are null without)
 * @param settings - base URL of the service's pages (no trailing slash) and the public settings
 *   (graduation threshold, metadata defaults)
 */
export function tokenRecord(row: TokenRow, settings: RecordSettings) {
  const graduationMarketCapWei = settings.publicConfig.graduationMarketCapWei;
  const address = getAddress(row.address);
  const stats = row.stats24h;
  const ref = row.ethUsd;
  const usd = (wei: bigint) => (ref ? formatUsd(weiToUsdE18(wei, ref.sqrtPriceX96, ref)) : null);
  const totalValueWei = row.reserveWei + (row.reserveToken * row.priceWei) / 10n ** BigInt(row.decimals);
  return {
    address,
    slug: row.slug,
    launch_seq: row.launchSeq,
    name: row.name,
    symbol: row.symbol,
    decimals: row.decimals,
    total_supply: row.totalSupply,
    creator: getAddress(row.creator),
    factory: getAddress(row.factory),
    pool: getAddress(row.pool),
    quote_token: getAddress(row.weth),
    token0: getAddress(row.tokenIsToken0 ? row.address : row.weth),
    token1: getAddress(row.tokenIsToken0 ? row.weth : row.address),
    position_ids: decodePositionIds(row.positionIdsCsv).map(String),
    launch_tx_hash: row.launchTxHash,
    launch_block_number: Number(row.launchBlockNumber),
    launch_timestamp_sec: Number(row.launchTimestampSec),
    liquidity_wei: row.liquidityWei,
    first_buy_wei: row.firstBuyWei,
    first_buy_tokens_out: row.firstBuyTokensOut,
    sqrt_price_x96: row.sqrtPriceX96,
    tick: row.tick,
    price_wei: row.priceWei,
    market_cap_wei: row.marketCapWei,
    launch_price_wei: row.launchPriceWei,
    volume_wei: row.volumeWei,
    volume_token: row.volumeToken,
    eth_price_usd: ref ? formatUsd(weiToUsdE18(10n ** 18n, ref.sqrtPriceX96, ref)) : null,
    // How old the reference price is at the service's clock, and whether that is past the threshold.
    usd_source_age_sec: ref?.ageSec ?? null,
    usd_stale: ref?.stale ?? null,
    price_usd: usd(row.priceWei),
    market_cap_usd: usd(row.marketCapWei),
    volume_usd: ref ? formatUsd(row.volumeUsdE18) : null,
    volume_24h_usd: ref && stats ? formatUsd(stats.volumeUsdE18) : null,
    volume_24h_wei: stats ? stats.volumeWei : null,
    volume_24h_token: stats ? stats.volumeToken : null,
    trade_count_24h: stats ? stats.tradeCount : null,
    price_24h_ago_wei: stats ? stats.priceThenWei : null,
    price_change_24h_bps: stats ? priceChangeBps(row.priceWei, stats.priceThenWei) : null,
    // m5, h1, h6, h24 (docs/public.md "Activity windows"); null when not attached.
    windows: row.windows ? activityWindowsRecord(row.windows, row.priceWei, ref !== null && ref !== undefined) : null,
    liquidity: {
      // The pool's balances (both positions, plus fees not yet collected), tracked from pool events.
      reserve_wei: row.reserveWei,
      reserve_token: row.reserveToken,
      // Both sides valued in wei at the current price: reserve_wei + reserve_token × price / 10^decimals.
      total_value_wei: totalValueWei,
      // total_value_wei at the current ETH/USD.
      total_value_usd: usd(totalValueWei),
    },
    trade_count: row.tradeCount,
    buy_count: row.buyCount,
    sell_count: row.sellCount,
    last_trade_timestamp_sec: row.lastTradeTimestampSec === null ? null : Number(row.lastTradeTimestampSec),
    graduated: row.graduatedAtSec !== null,
    graduated_at_sec: row.graduatedAtSec === null ? null : Number(row.graduatedAtSec),
    graduation_threshold_wei: graduationMarketCapWei,
    graduation_threshold_usd: usd(graduationMarketCapWei),
    graduation_progress_bps:
      row.graduatedAtSec !== null ? 10_000 : graduationProgressBps(row.marketCapWei, graduationMarketCapWei),
    creator_fees_wei: row.creatorFeesWei,
    creator_fees_token: row.creatorFeesToken,
    protocol_fees_wei: row.protocolFeesWei,
    protocol_fees_token: row.protocolFeesToken,
    // Addresses with a non-zero balance (docs/public.md "Holders").
    holder_count: row.holderCount,
    // Shares of the total supply held now (docs/public.md "Launch integrity", "On list records").
    launch_integrity: row.integritySummary ? launchIntegrityRecord(row.integritySummary, row.totalSupply) : null,
    metadata: tokenMetadata(row, settings),
    token_url: tokenUrl(settings.publicBaseUrl, address),
    // The block of the one snapshot every figure above was read in (market/snapshot.ts).
    as_of_block: row.asOf ? Number(row.asOf.blockNumber) : null,
    as_of_timestamp_sec: row.asOf ? Number(row.asOf.timestampSec) : null,
  };
}

/**
 * The activity windows as served: per window the price then and its change in bps, WETH volume in
 * wei and USD (null while no ETH/USD is known), buys, sells, unique buyers and sellers.
 */
function activityWindowsRecord(windows: ActivityWindows, priceNowWei: bigint, hasEthUsd: boolean) {
  return Object.fromEntries(
    ACTIVITY_WINDOW_NAMES.map((w) => [
      w,
      { ...windowRecord(windows[w], priceNowWei), volume_usd: hasEthUsd ? formatUsd(windows[w].volumeUsdE18) : null },
    ]),
  ) as Record<(typeof ACTIVITY_WINDOW_NAMES)[number], ReturnType<typeof windowRecord> & { volume_usd: string | null }>;
}

/**
 * Off-chain metadata of a token: the creator's metadata stored by a confirmed launch
 * (`storedMetadata`, attached by `withStats`), each omitted field falling back to the platform
 * default (`config/public.ts`: default image, a generated description, no links); `is_default:
 * true` when no creator value is used (docs/launch.md "Metadata").
 */
export function tokenMetadata(
  row: { name: string; symbol: string; storedMetadata?: StoredTokenMetadata },
  settings: RecordSettings,
) {
  return resolveTokenMetadata(row, row.storedMetadata, settings);
}

/**
 * The integrity summary on a token record: the creator's, the snipers' and the same-block bundles'
 * shares of the total supply held now, in bps rounded down, as the integrity record defines them.
 */
function launchIntegrityRecord(summary: IntegritySummary, totalSupplyWei: bigint) {
  return {
    creator_balance_bps: holderShareBps(summary.creatorBalanceWei, totalSupplyWei),
    snipers: { count: summary.sniperCount, held_bps: holderShareBps(summary.sniperHeldWei, totalSupplyWei) },
    bundled: { count: summary.bundledCount, held_bps: holderShareBps(summary.bundledHeldWei, totalSupplyWei) },
  };
}
