/**
 * Read queries over the indexer's `token` table: lookups by address, slug and creator, keyset
 * pages in every list order, and the trending list. Every list is bounded by a `limit`; keyset
 * cursors use `launch_seq` as the unique tie-breaker.
 */
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, or, sql } from "ponder";
import type { Address } from "viem";
import * as schema from "../ponder.schema";
import { lower } from "../src/domain/hex";
import { trendingScore, type HourBucket } from "../src/domain/market";
import { decodeCursor, encodeCursor, tokenCursorShape } from "./cursor";
import type { MarketDb } from "./db";
import { withStats } from "./tokenStats";
import type { MetadataSource } from "./metadata";
import { TokenNotFoundError } from "./errors";

type SQL = NonNullable<ReturnType<typeof and>>;
type TokenRow = typeof schema.token.$inferSelect;

/**
 * The token with this address, its 24 h figures at `nowSec` and its stored creator metadata
 * (`withStats`), or null.
 */
export async function findToken(db: MarketDb, address: Address, nowSec: number, storedMetadata?: MetadataSource) {
  const rows = await db
    .select()
    .from(schema.token)
    .where(eq(schema.token.address, lower(address)))
    .limit(1);
  if (!rows[0]) return null;
  const [row] = await withStats(db, rows, nowSec, storedMetadata);
  return row ?? null;
}

/** Most addresses one batch read takes (`GET /api/public/tokens?addresses=`, docs/public.md "Batch reads"). */
export const TOKEN_BATCH_MAX = 30;

/**
 * The tokens with these addresses, in the order given, each with its 24 h figures, activity
 * windows and stored metadata (`withStats`), or null for an address with no launched token. One
 * primary-key read for the rows, then `withStats` once for all of them.
 * @param addresses - distinct addresses (any case), at most {@link TOKEN_BATCH_MAX} (the route bounds them)
 */
export async function findTokens(
  db: MarketDb,
  addresses: readonly Address[],
  nowSec: number,
  storedMetadata?: MetadataSource,
) {
  if (addresses.length === 0) return [];
  const rows = await db
    .select()
    .from(schema.token)
    .where(inArray(schema.token.address, addresses.map(lower)))
    .limit(addresses.length);
  const withFigures = await withStats(db, rows, nowSec, storedMetadata);
  const byAddress = new Map(withFigures.map((r) => [r.address.toLowerCase(), r]));
  return addresses.map((a) => byAddress.get(lower(a)) ?? null);
}

/**
 * The token with this address and its 24 h figures ({@link findToken}).
 * @throws TokenNotFoundError when no launched token has this address
 */
export async function requireToken(db: MarketDb, address: Address, nowSec: number, storedMetadata?: MetadataSource) {
  const row = await findToken(db, address, nowSec, storedMetadata);
  if (!row) throw new TokenNotFoundError(`no launched token at ${address}`);
  return row;
}

/**
 * The launched token's address if there is one (one primary-key lookup, no 24 h figures): for
 * endpoints that only need to know the token exists (trades, candles).
 * @returns the stored (lowercase) address, or null
 */
export async function findTokenAddress(db: MarketDb, address: Address): Promise<`0x${string}` | null> {
  const rows = await db
    .select({ address: schema.token.address })
    .from(schema.token)
    .where(eq(schema.token.address, lower(address)))
    .limit(1);
  return rows[0]?.address ?? null;
}

/**
 * What a holder page needs of its token (one primary-key lookup): pool, factory, total supply and
 * holder count; null when no launched token has this address.
 */
export async function findTokenHolderFacts(db: MarketDb, address: Address) {
  const t = schema.token;
  const rows = await db
    .select({
      address: t.address,
      pool: t.pool,
      factory: t.factory,
      totalSupply: t.totalSupply,
      holderCount: t.holderCount,
    })
    .from(t)
    .where(eq(t.address, lower(address)))
    .limit(1);
  return rows[0] ?? null;
}

/** The token with this slug, or null. */
export async function findTokenBySlug(db: MarketDb, slug: string): Promise<TokenRow | null> {
  const rows = await db.select().from(schema.token).where(eq(schema.token.slug, slug)).limit(1);
  return rows[0] ?? null;
}

/**
 * The oldest launch with this symbol, compared case-insensitively (symbols are not unique: the
 * first launch keeps a typed symbol, as a chart resolves it; docs/public.md "TradingView datafeed").
 * @example await findTokenBySymbol(db, "alpha") // the row of the first token launched as "ALPHA"
 */
export async function findTokenBySymbol(db: MarketDb, symbol: string): Promise<TokenRow | null> {
  const rows = await db
    .select()
    .from(schema.token)
    .where(sql`lower(${schema.token.symbol}) = lower(${symbol})`)
    .orderBy(asc(schema.token.launchSeq))
    .limit(1);
  return rows[0] ?? null;
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

/**
 * Whether the indexer already has the token's row (its page and read API resolve), waiting up to
 * `waitMs` (polling every 200 ms).
 */
export async function tokenIndexed(db: MarketDb, token: Address, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rows = await db
      .select({ address: schema.token.address })
      .from(schema.token)
      .where(eq(schema.token.address, lower(token)))
      .limit(1);
    if (rows.length > 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
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
function sortKey(row: TokenRow, sort: TokenSort): string | undefined {
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
 * One page of a token list with the rows' 24 h figures ({@link withStats}), and the cursor of the
 * next page (null on the last one).
 * @param opts.cursor - the previous page's `next_cursor`
 * @param storedMetadata - creator metadata of confirmed launches (none when not given)
 * @throws InvalidCursorError for a cursor this list did not issue
 */
export async function tokenListPage(
  db: MarketDb,
  nowSec: number,
  opts: { sort: TokenSort; limit: number; cursor?: string; onlyNotGraduated?: boolean },
  storedMetadata?: MetadataSource,
) {
  const { sort, limit } = opts;
  const after = opts.cursor ? decodeCursor(opts.cursor, tokenCursorShape) : undefined;
  const rows = await tokenPage(db, { sort, limit, after, onlyNotGraduated: opts.onlyNotGraduated });
  const last = rows.at(-1);
  const key = last ? sortKey(last, sort) : undefined;
  return {
    rows: await withStats(db, rows, nowSec, storedMetadata),
    next_cursor: rows.length === limit && last ? encodeCursor({ s: last.launchSeq, ...(key ? { k: key } : {}) }) : null,
  };
}
