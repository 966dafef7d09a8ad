/**
 * A token's 24 h figures, the current ETH/USD and the creator's stored metadata: what a token row
 * needs beyond its own columns before `tokenRecord` renders it.
 */
import { getAddress } from "viem";
import { ETH_USD_STALE_AFTER_SEC } from "../config/usdFreshness";
import { and, eq, gte, inArray, lt, sql } from "ponder";
import * as schema from "../ponder.schema";
import type { MetadataSource, StoredTokenMetadata } from "./metadata";
import { rowsOf, type MarketDb } from "./db";
import type { ActivityWindows } from "../src/domain/activityWindows";
import type { AsOf } from "./snapshot";
import { activityWindows } from "./tokenWindows";
import { type IntegritySummary, integritySummaries } from "./integrity";

type TokenRow = typeof schema.token.$inferSelect;

/** Rolling 24 h figures of one token (docs/public.md "Token record"). */
export type Stats24h = {
  volumeWei: bigint;
  volumeToken: bigint;
  tradeCount: number;
  /** Price 24 h ago: the last trade at or before now − 24 h, else the launch price. */
  priceThenWei: bigint;
  /** USD volume (10^-18 USD): each trade's value at its own block; trades without ETH/USD add 0. */
  volumeUsdE18: bigint;
};

/**
 * The current ETH/USD: the reference pool's newest indexed price, its orientation, and how old it
 * is (docs/public.md "USD values": `usd_source_age_sec`, `usd_stale`).
 */
export type EthUsdNow = {
  sqrtPriceX96: bigint;
  wethIsToken0: boolean;
  stablecoinDecimals: number;
  /** Block timestamp (unix seconds) of the reference pool log that set the price. */
  timestampSec: bigint;
  /** The snapshot's indexed head time − `timestampSec`, seconds, at least 0 (set by `market/tokenReads.ts`). */
  ageSec?: number;
  /** `ageSec` above `ETH_USD_STALE_AFTER_SEC` (config/usdFreshness.ts, 3,600 s). */
  stale?: boolean;
};

/**
 * The reference price with its age at a chain time and whether it is stale.
 * @param atSec - unix seconds: the indexed head's block timestamp of the read's snapshot
 * @param staleAfterSec - threshold (default `ETH_USD_STALE_AFTER_SEC`)
 * @example ethUsdAgeAt({ ...ref, timestampSec: 1_000n }, 4_700) // { ...ref, ageSec: 3_700, stale: true }
 */
export function ethUsdAgeAt(ref: EthUsdNow, atSec: number, staleAfterSec = ETH_USD_STALE_AFTER_SEC): EthUsdNow {
  const ageSec = Math.max(0, atSec - Number(ref.timestampSec));
  return { ...ref, ageSec, stale: ageSec > staleAfterSec };
}

/**
 * The current ETH/USD (the `eth_usd` row the indexer keeps), or null without a reference pool or
 * before its first price. One primary-table read of at most one row.
 */
async function currentEthUsd(db: MarketDb): Promise<EthUsdNow | null> {
  const e = schema.ethUsd;
  const rows = await db
    .select({
      sqrtPriceX96: e.sqrtPriceX96,
      wethIsToken0: e.wethIsToken0,
      stablecoinDecimals: e.stablecoinDecimals,
      timestampSec: e.timestampSec,
    })
    .from(e)
    .limit(1);
  return rows[0] ?? null;
}

/**
 * A token row with its 24 h figures, its activity windows and the creator's stored metadata (confirmed launches only)
 * attached (what `tokenRecord` renders in full).
 */
export type TokenWithStats = TokenRow & {
  stats24h?: Stats24h;
  /** The activity windows m5, h1, h6, h24 (`market/tokenWindows.ts`). */
  windows?: ActivityWindows;
  storedMetadata?: StoredTokenMetadata;
  ethUsd?: EthUsdNow | null;
  /** The launch-integrity summary (`market/integrity.ts` integritySummaries); absent without an integrity row. */
  integritySummary?: IntegritySummary;
  /** The indexed block the row and its figures were read at (`market/snapshot.ts`); absent outside a snapshot. */
  asOf?: AsOf;
};

/**
 * Attaches the 24 h figures, the activity windows (`activityWindows`, one more statement per page),
 * the launch-integrity summary (`integritySummaries`, one more statement per page),
 * the current ETH/USD ({@link currentEthUsd}) and the creator metadata
 * of confirmed launches (one store query through `storedMetadata`; none when it is not given) to
 * token rows.
 *
 * The figures are those of docs/public.md (trades with timestamp > now − 86,400; the price after
 * the last trade at or before that cutoff), computed without reading a day of trades: the 1m
 * candles whose bucket starts after the cutoff's minute carry the sums, and only the trades of the
 * cutoff's own minute (at most 60 s of trades, any token) are read one by one. The price then is
 * the last of those at or before the cutoff, else the close of the token's last 1m candle before
 * that minute, else the launch price. Cost per token: at most 1,440 candle rows, whatever the
 * trading rate.
 */
export async function withStats(
  db: MarketDb,
  rows: TokenRow[],
  nowSec: number,
  storedMetadata?: MetadataSource,
): Promise<TokenWithStats[]> {
  if (rows.length === 0) return [];
  const addresses = rows.map((r) => r.address);
  const cutoff = BigInt(nowSec - 86_400);
  const edgeStart = cutoff - (((cutoff % 60n) + 60n) % 60n); // start of the 1m bucket holding the cutoff
  const edgeEnd = edgeStart + 60n; // buckets from here on hold only trades after the cutoff
  const c = schema.candle;
  const t = schema.trade;
  const [stored, sums, edgeTrades, ethUsdNow, windows, integrity] = await Promise.all([
    storedMetadata ? storedMetadata(addresses.map((a) => getAddress(a))) : new Map<string, StoredTokenMetadata>(),
    db
      .select({
        token: c.token,
        volumeWei: sql<string>`coalesce(sum(${c.volumeWei}), 0)::text`,
        volumeToken: sql<string>`coalesce(sum(${c.volumeToken}), 0)::text`,
        volumeUsdE18: sql<string>`coalesce(sum(${c.volumeUsdE18}), 0)::text`,
        count: sql<string>`coalesce(sum(${c.tradeCount}), 0)::text`,
      })
      .from(c)
      .where(and(inArray(c.token, addresses), eq(c.resolution, "1m"), gte(c.bucketStartSec, edgeEnd)))
      .groupBy(c.token),
    db
      .select({
        token: t.token,
        timestampSec: t.timestampSec,
        blockNumber: t.blockNumber,
        logIndex: t.logIndex,
        priceWei: t.priceWei,
        ethAmountWei: t.ethAmountWei,
        tokenAmount: t.tokenAmount,
        ethAmountUsdE18: t.ethAmountUsdE18,
      })
      .from(t)
      .where(and(gte(t.timestampSec, edgeStart), lt(t.timestampSec, edgeEnd), inArray(t.token, addresses))),
    currentEthUsd(db),
    activityWindows(db, new Map(rows.map((r) => [r.address.toLowerCase(), r.launchPriceWei])), nowSec),
    integritySummaries(db, addresses),
  ]);
  const totals = new Map(
    sums.map((r) => [
      r.token,
      {
        volumeWei: BigInt(r.volumeWei),
        volumeToken: BigInt(r.volumeToken),
        volumeUsdE18: BigInt(r.volumeUsdE18),
        tradeCount: Number(r.count),
      },
    ]),
  );
  const lastAtCutoff = new Map<string, { blockNumber: bigint; logIndex: number; priceWei: bigint }>();
  for (const trade of edgeTrades) {
    if (trade.timestampSec > cutoff) {
      const sum = totals.get(trade.token) ?? { volumeWei: 0n, volumeToken: 0n, volumeUsdE18: 0n, tradeCount: 0 };
      totals.set(trade.token, {
        volumeWei: sum.volumeWei + trade.ethAmountWei,
        volumeToken: sum.volumeToken + trade.tokenAmount,
        volumeUsdE18: sum.volumeUsdE18 + (trade.ethAmountUsdE18 ?? 0n),
        tradeCount: sum.tradeCount + 1,
      });
    } else {
      const best = lastAtCutoff.get(trade.token);
      if (
        !best ||
        trade.blockNumber > best.blockNumber ||
        (trade.blockNumber === best.blockNumber && trade.logIndex > best.logIndex)
      )
        lastAtCutoff.set(trade.token, trade);
    }
  }
  const thenBy = new Map([...lastAtCutoff].map(([token, trade]) => [token, trade.priceWei]));
  const needClose = addresses.filter((a) => !thenBy.has(a));
  if (needClose.length > 0) {
    // One index descent per token (candle primary key: token, resolution, bucket_start_sec).
    // `${c}` renders the schema-qualified table (market/ponderTables.ts): an unqualified
    // `candle` would read the empty temporary table Ponder's flush leaves in a PGlite session.
    const closes = rowsOf(
      await db.execute(sql`
        SELECT v.token, last.close_wei FROM (VALUES ${sql.join(
          needClose.map((a) => sql`(${a})`),
          sql`, `,
        )}) AS v(token)
        CROSS JOIN LATERAL (
          SELECT ${c.closeWei} AS close_wei FROM ${c}
          WHERE ${c.token} = v.token AND ${c.resolution} = '1m' AND ${c.bucketStartSec} < ${edgeStart}
          ORDER BY ${c.bucketStartSec} DESC LIMIT 1
        ) AS last`),
    );
    for (const row of closes) thenBy.set(String(row.token), BigInt(String(row.close_wei)));
  }
  return rows.map((r) => {
    const total = totals.get(r.address);
    const meta = stored.get(r.address.toLowerCase());
    const tokenWindows = windows.get(r.address.toLowerCase());
    const summary = integrity.get(r.address.toLowerCase());
    return {
      ...r,
      ...(summary ? { integritySummary: summary } : {}),
      ...(tokenWindows ? { windows: tokenWindows } : {}),
      ...(meta ? { storedMetadata: meta } : {}),
      ethUsd: ethUsdNow,
      stats24h: {
        volumeWei: total?.volumeWei ?? 0n,
        volumeToken: total?.volumeToken ?? 0n,
        volumeUsdE18: total?.volumeUsdE18 ?? 0n,
        tradeCount: total?.tradeCount ?? 0,
        priceThenWei: thenBy.get(r.address) ?? r.launchPriceWei,
      },
    };
  });
}
