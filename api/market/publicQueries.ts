/**
 * Read queries of the public surface over the indexer's tables (docs/public.md). Every query is
 * bounded by a `limit`; keyset cursors use `launch_seq` (or a trade's block/log position) as the
 * unique tie-breaker.
 */
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, or, sql } from "ponder";
type SQL = NonNullable<ReturnType<typeof and>>;
import * as schema from "../../ponder.schema";
import { trendingScore, type HourBucket } from "../../src/domain/market";
import type { MarketDb } from "./db";
import { getAddress } from "viem";
import type { MetadataSource, StoredTokenMetadata } from "../launch/metadata";
import { ponderInternalTable } from "./ponderTables";
import { decodeCheckpointBlock, type IndexedHead } from "../../ops/ponderInternals";

export type { IndexedHead };

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

/** The current ETH/USD: the reference pool's newest indexed price and its orientation. */
export type EthUsdNow = { sqrtPriceX96: bigint; wethIsToken0: boolean; stablecoinDecimals: number };

/**
 * The current ETH/USD (the `eth_usd` row the indexer keeps), or null without a reference pool or
 * before its first price. One primary-table read of at most one row.
 */
export async function currentEthUsd(db: MarketDb): Promise<EthUsdNow | null> {
  const e = schema.ethUsd;
  const rows = await db
    .select({ sqrtPriceX96: e.sqrtPriceX96, wethIsToken0: e.wethIsToken0, stablecoinDecimals: e.stablecoinDecimals })
    .from(e)
    .limit(1);
  return rows[0] ?? null;
}

/**
 * A token row with its 24 h figures and the creator's stored metadata (confirmed launches only)
 * attached (what `tokenRecord` renders in full).
 */
export type TokenWithStats = TokenRow & {
  stats24h?: Stats24h;
  storedMetadata?: StoredTokenMetadata;
  ethUsd?: EthUsdNow | null;
};

function rowsOf(result: unknown): Record<string, unknown>[] {
  const r = result as { rows?: Record<string, unknown>[] };
  return Array.isArray(r) ? (r as Record<string, unknown>[]) : (r.rows ?? []);
}

/** The indexer's raw checkpoint string (changes with every indexed block), or null before the first. */
export async function indexedCheckpoint(db: MarketDb): Promise<string | null> {
  const rows = rowsOf(
    await db.execute(sql`SELECT latest_checkpoint FROM ${ponderInternalTable("_ponder_checkpoint")}`),
  );
  return rows[0] ? String(rows[0].latest_checkpoint) : null;
}

/** The indexer's head, or null before the first checkpoint. */
export async function indexedHead(db: MarketDb): Promise<IndexedHead | null> {
  const checkpoint = await indexedCheckpoint(db);
  return checkpoint === null ? null : decodeCheckpointBlock(checkpoint);
}

/**
 * Attaches the 24 h figures, the current ETH/USD ({@link currentEthUsd}) and the creator metadata
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
  const [stored, sums, edgeTrades, ethUsdNow] = await Promise.all([
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
    // `${c}` renders the schema-qualified table (api/market/ponderTables.ts): an unqualified
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
    return {
      ...r,
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

/** The token with this slug, or null. */
export async function findTokenBySlug(db: MarketDb, slug: string): Promise<TokenRow | null> {
  const rows = await db.select().from(schema.token).where(eq(schema.token.slug, slug)).limit(1);
  return rows[0] ?? null;
}

/** Sort orders of token lists; every order ends with `launch_seq` as a unique tie-breaker. */
export type TokenSort = "new" | "old" | "market_cap" | "volume" | "trades";

/** Columns behind each sort (key column; null = launch order only). */
function sortColumn(sort: TokenSort) {
  const tk = schema.token;
  return sort === "market_cap"
    ? tk.marketCapWei
    : sort === "volume"
      ? tk.volumeWei
      : sort === "trades"
        ? tk.tradeCount
        : null;
}

/** Sort key of a row for a cursor (decimal string), or undefined for launch-order sorts. */
export function sortKey(row: TokenRow, sort: TokenSort): string | undefined {
  return sort === "market_cap"
    ? row.marketCapWei.toString()
    : sort === "volume"
      ? row.volumeWei.toString()
      : sort === "trades"
        ? String(row.tradeCount)
        : undefined;
}

/**
 * One page of tokens in `sort` order after the cursor position.
 * @param opts.after - last served `{ s: launch_seq, k: sort key }`
 * @param opts.maxLaunchBlock - only launches at or below this block (confirmed launches)
 * @param opts.onlyNotGraduated - exclude graduated tokens
 * @param opts.minSeq - only `launch_seq` greater than this (ascending feeds)
 */
export async function tokenPage(
  db: MarketDb,
  opts: {
    sort: TokenSort;
    limit: number;
    after?: { s: number; k?: string };
    maxLaunchBlock?: bigint;
    onlyNotGraduated?: boolean;
    minSeq?: number;
  },
): Promise<TokenRow[]> {
  const tk = schema.token;
  const where: (SQL | undefined)[] = [];
  if (opts.maxLaunchBlock !== undefined) where.push(lte(tk.launchBlockNumber, opts.maxLaunchBlock));
  if (opts.onlyNotGraduated) where.push(isNull(tk.graduatedAtSec));
  if (opts.minSeq !== undefined) where.push(gt(tk.launchSeq, opts.minSeq));
  const col = sortColumn(opts.sort);
  if (opts.after) {
    if (opts.sort === "old") where.push(gt(tk.launchSeq, opts.after.s));
    else if (!col) where.push(lt(tk.launchSeq, opts.after.s));
    else {
      const seq = opts.after.s;
      // Keyset: a smaller sort key, or the same key and an older launch.
      if (col === tk.tradeCount) {
        const k = Number(opts.after.k ?? 0);
        where.push(or(lt(tk.tradeCount, k), and(eq(tk.tradeCount, k), lt(tk.launchSeq, seq))));
      } else {
        const weiCol = col === tk.marketCapWei ? tk.marketCapWei : tk.volumeWei;
        const k = BigInt(opts.after.k ?? 0);
        where.push(or(lt(weiCol, k), and(eq(weiCol, k), lt(tk.launchSeq, seq))));
      }
    }
  }
  const order =
    opts.sort === "old" ? [asc(tk.launchSeq)] : col ? [desc(col), desc(tk.launchSeq)] : [desc(tk.launchSeq)];
  return db
    .select()
    .from(tk)
    .where(and(...where))
    .orderBy(...order)
    .limit(opts.limit);
}

/** Number of launches at or below a block (the token list's candidates). */
export async function countLaunches(db: MarketDb, maxLaunchBlock: bigint): Promise<number> {
  const rows = await db
    .select({ n: sql<string>`count(*)::text` })
    .from(schema.token)
    .where(lte(schema.token.launchBlockNumber, maxLaunchBlock));
  return Number(rows[0]?.n ?? 0);
}

/**
 * Trending tokens: score every token with a 1h candle in the last 24 h (`trendingScore`), highest
 * first, ties by newer launch; at most `limit`.
 */
export async function trendingTokens(
  db: MarketDb,
  nowSec: number,
  limit: number,
): Promise<Array<{ row: TokenRow; score: bigint }>> {
  const c = schema.candle;
  const since = BigInt(Math.floor(nowSec / 3600) * 3600 - 23 * 3600);
  const buckets = await db
    .select({ token: c.token, bucketStartSec: c.bucketStartSec, volumeWei: c.volumeWei, tradeCount: c.tradeCount })
    .from(c)
    .where(and(eq(c.resolution, "1h"), gte(c.bucketStartSec, since)));
  const byToken = new Map<string, HourBucket[]>();
  for (const b of buckets) byToken.set(b.token, [...(byToken.get(b.token) ?? []), b]);
  const scores = [...byToken.entries()]
    .map(([token, bs]) => ({ token, score: trendingScore(bs, nowSec) }))
    .filter((s) => s.score > 0n);
  if (scores.length === 0) return [];
  const rows = await db
    .select()
    .from(schema.token)
    .where(
      inArray(
        schema.token.address,
        scores.map((s) => s.token as `0x${string}`),
      ),
    );
  const rowBy = new Map(rows.map((r) => [r.address, r]));
  return scores
    .map((s) => ({ row: rowBy.get(s.token as `0x${string}`)!, score: s.score }))
    .filter((s) => s.row)
    .sort((a, b) => (a.score === b.score ? b.row.launchSeq - a.row.launchSeq : a.score > b.score ? -1 : 1))
    .slice(0, limit);
}

/**
 * Trades of every token (or one), newest first, strictly before the cursor position and, with
 * `beforeTimestampSec`, with a block timestamp strictly below it (unix seconds).
 */
export async function tradePage(
  db: MarketDb,
  opts: { limit: number; token?: `0x${string}`; before?: { b: bigint; l: number }; beforeTimestampSec?: bigint },
) {
  const t = schema.trade;
  const where: (SQL | undefined)[] = [];
  if (opts.token) where.push(eq(t.token, opts.token));
  if (opts.before)
    where.push(
      or(lt(t.blockNumber, opts.before.b), and(eq(t.blockNumber, opts.before.b), lt(t.logIndex, opts.before.l))),
    );
  if (opts.beforeTimestampSec !== undefined) where.push(lt(t.timestampSec, opts.beforeTimestampSec));
  return db
    .select()
    .from(t)
    .where(and(...where))
    .orderBy(desc(t.blockNumber), desc(t.logIndex))
    .limit(opts.limit);
}

/** Events with `sinceId < id < untilId`, ascending. */
export async function eventRange(db: MarketDb, sinceId: bigint, untilId: bigint, limit: number) {
  const e = schema.event;
  if (untilId <= sinceId + 1n) return [];
  return db
    .select()
    .from(e)
    .where(and(gt(e.id, sinceId), lt(e.id, untilId)))
    .orderBy(asc(e.id))
    .limit(limit);
}

/** Events of one kind, newest first (RSS feeds). */
export async function latestEventsOfKind(db: MarketDb, kind: "launch" | "big_buy" | "graduation", limit: number) {
  const e = schema.event;
  return db.select().from(e).where(eq(e.kind, kind)).orderBy(desc(e.id)).limit(limit);
}

/** Tokens by address (any order). */
export async function tokensByAddress(db: MarketDb, addresses: `0x${string}`[]): Promise<TokenRow[]> {
  if (addresses.length === 0) return [];
  return db.select().from(schema.token).where(inArray(schema.token.address, addresses));
}

/** Tokens a wallet created, in launch order (bounded by `limit`). */
export async function tokensByCreator(db: MarketDb, creator: `0x${string}`, limit: number): Promise<TokenRow[]> {
  return db
    .select()
    .from(schema.token)
    .where(eq(schema.token.creator, creator))
    .orderBy(asc(schema.token.launchSeq))
    .limit(limit);
}

/** The last candle of a token and resolution whose bucket starts before `beforeSec`, or null. */
export async function candleBefore(db: MarketDb, token: `0x${string}`, resolution: string, beforeSec: bigint) {
  const c = schema.candle;
  const rows = await db
    .select()
    .from(c)
    .where(and(eq(c.token, token), eq(c.resolution, resolution), lt(c.bucketStartSec, beforeSec)))
    .orderBy(desc(c.bucketStartSec))
    .limit(1);
  return rows[0] ?? null;
}
