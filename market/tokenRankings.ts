/**
 * Rankings of every token by its activity windows (docs/public.md "Trending" and "Top lists"),
 * one SQL statement each, without reading a day of trades.
 *
 * Invariant: a window (trades with timestamp > now − length, `src/domain/activityWindows.ts`) is
 * summed from three disjoint pieces that together hold exactly its trades: the trades of its first
 * partial minute, the 1m candles up to the next whole hour, and the 1h candles from there on (a
 * candle of resolution r holds the trades with timestamp in [bucket start, bucket start + r)). Rows
 * read: at most 59 seconds of trades, 59 minute buckets and 24 hour buckets per token that traded
 * in them — proportional to recent trading, not to the number of launches. The per-record figures
 * (`market/tokenWindows.ts`) read the trades themselves; the e2e test checks that both agree.
 */
import { inArray, sql } from "ponder";
import * as schema from "../ponder.schema";
import {
  ACTIVITY_WINDOW_NAMES,
  ACTIVITY_WINDOWS,
  type ActivityWindowName,
  TRENDING_TRADE_WEIGHT_WEI,
  type TopSort,
  windowCutoffSec,
} from "../src/domain/activityWindows";
import { rowsOf, type MarketDb } from "./db";
import type { TokenRow } from "./tokenLookups";

type Sql = ReturnType<typeof sql>;

/**
 * The rows (`w`, `token`, `volume_wei`, `trades`) whose sums per token are the window's volume and
 * trade count (module invariant). Literals for the resolution so the planner can use the partial
 * candle indexes (`candle_1m_bucket_idx`, `candle_1h_bucket_idx`).
 */
function windowPieces(nowSec: number, w: ActivityWindowName): Sql {
  const t = schema.trade;
  const c = schema.candle;
  const firstSec = windowCutoffSec(nowSec, w) + 1;
  const firstMinuteSec = Math.ceil(firstSec / 60) * 60;
  const firstHourSec = Math.ceil(firstMinuteSec / 3_600) * 3_600;
  const label = sql.raw(`'${w}'::text`);
  return sql`
    SELECT ${label} AS w, ${t.token} AS token, ${t.ethAmountWei} AS volume_wei, 1 AS trades FROM ${t}
    WHERE ${t.timestampSec} >= ${firstSec} AND ${t.timestampSec} < ${firstMinuteSec}
    UNION ALL
    SELECT ${label}, ${c.token}, ${c.volumeWei}, ${c.tradeCount} FROM ${c}
    WHERE ${c.resolution} = '1m' AND ${c.bucketStartSec} >= ${firstMinuteSec} AND ${c.bucketStartSec} < ${firstHourSec}
    UNION ALL
    SELECT ${label}, ${c.token}, ${c.volumeWei}, ${c.tradeCount} FROM ${c}
    WHERE ${c.resolution} = '1h' AND ${c.bucketStartSec} >= ${firstHourSec}`;
}

/** `volume_wei` and `trades` of each window per token that traded in one of them (`per_token`). */
function perTokenWindows(nowSec: number, windows: readonly ActivityWindowName[]): Sql {
  const sums = windows.map(
    (w) => sql`
      coalesce(sum(volume_wei) FILTER (WHERE w = ${sql.raw(`'${w}'`)}), 0) AS ${sql.raw(`${w}_volume_wei`)},
      coalesce(sum(trades) FILTER (WHERE w = ${sql.raw(`'${w}'`)}), 0)::numeric AS ${sql.raw(`${w}_trades`)}`,
  );
  return sql`
    pieces AS (${sql.join(
      windows.map((w) => windowPieces(nowSec, w)),
      sql` UNION ALL `,
    )}),
    per_token AS (SELECT token, ${sql.join(sums, sql`,`)} FROM pieces GROUP BY token)`;
}

/**
 * The volume (wei) and trade count of each window for every token that traded in the last day,
 * keyed by lowercase address: the sums `trendingTokens` and `topTokens` order by (the e2e test
 * compares them with the definition at every edge second).
 */
export async function windowTotals(
  db: MarketDb,
  nowSec: number,
): Promise<Map<string, Record<ActivityWindowName, { volumeWei: bigint; trades: number }>>> {
  const rows = rowsOf(
    await db.execute(sql`WITH ${perTokenWindows(nowSec, ACTIVITY_WINDOW_NAMES)} SELECT * FROM per_token`),
  );
  return new Map(
    rows.map((row) => [
      String(row.token).toLowerCase(),
      Object.fromEntries(
        ACTIVITY_WINDOW_NAMES.map((w) => [
          w,
          { volumeWei: BigInt(String(row[`${w}_volume_wei`])), trades: Number(row[`${w}_trades`]) },
        ]),
      ) as Record<ActivityWindowName, { volumeWei: bigint; trades: number }>,
    ]),
  );
}

/** Token rows of these lowercase addresses, in the order given. */
async function rowsInOrder(db: MarketDb, addresses: string[]): Promise<TokenRow[]> {
  if (addresses.length === 0) return [];
  const rows = await db
    .select()
    .from(schema.token)
    .where(inArray(schema.token.address, addresses as `0x${string}`[]));
  const byAddress = new Map(rows.map((r) => [r.address.toLowerCase(), r]));
  return addresses.flatMap((a) => byAddress.get(a) ?? []);
}

/**
 * The tokens with the highest trending score (`trendingScoreOf`: the windows' activity per hour,
 * docs/public.md "Trending"), ties by newer launch; only tokens traded in the last 24 h.
 * @param nowSec - the reading's clock, unix seconds (the records' windows use the same)
 * @param limit - at most this many (the route bounds it to 100)
 * @returns the token rows, highest score first
 */
export async function trendingTokens(db: MarketDb, nowSec: number, limit: number): Promise<TokenRow[]> {
  const tk = schema.token;
  const score = sql.join(
    ACTIVITY_WINDOW_NAMES.map(
      (w) =>
        sql`div((${sql.raw(`p.${w}_volume_wei + p.${w}_trades`)} * ${TRENDING_TRADE_WEIGHT_WEI}) * 3600, ${ACTIVITY_WINDOWS[w]})`,
    ),
    sql` + `,
  );
  const ranked = rowsOf(
    await db.execute(sql`
      WITH ${perTokenWindows(nowSec, ACTIVITY_WINDOW_NAMES)}
      SELECT p.token FROM per_token p JOIN ${tk} ON ${tk.address} = p.token
      WHERE p.h24_trades > 0
      ORDER BY ${score} DESC, ${tk.launchSeq} DESC
      LIMIT ${limit}`),
  );
  return rowsInOrder(
    db,
    ranked.map((r) => String(r.token).toLowerCase()),
  );
}

/**
 * The tokens traded in one window, in a top-list order (`TopSort`, docs/public.md "Top lists"),
 * ties by newer launch. `gainers`/`losers` rank by the window's `price_change_bps` (price now
 * against the price after the last trade at or before the cutoff, else the launch price).
 * @param nowSec - the reading's clock, unix seconds (the records' windows use the same)
 * @param limit - at most this many (the route bounds it to 100)
 * @returns the token rows in list order
 */
export async function topTokens(
  db: MarketDb,
  nowSec: number,
  opts: { window: ActivityWindowName; sort: TopSort; limit: number },
): Promise<TokenRow[]> {
  const { window: w, sort, limit } = opts;
  const tk = schema.token;
  const t = schema.trade;
  const volume = sql.raw(`p.${w}_volume_wei`);
  const trades = sql.raw(`p.${w}_trades`);
  // The price then: one backward descent of the (token, block, log) index per listed candidate,
  // below the first block after the cutoff (timestamps rise with block numbers).
  const cutoff = windowCutoffSec(nowSec, w);
  const firstBlock = sql`(SELECT min(${t.blockNumber}) FROM ${t} WHERE ${t.timestampSec} = (SELECT min(${t.timestampSec}) FROM ${t} WHERE ${t.timestampSec} > ${cutoff}))`;
  const priceThen = sql`coalesce(then_price.price_wei, ${tk.launchPriceWei})`;
  const change = sql`div((${tk.priceWei} - ${priceThen}) * 10000, nullif(${priceThen}, 0))`;
  const thenJoin =
    sort === "gainers" || sort === "losers"
      ? sql`LEFT JOIN LATERAL (
          SELECT ${t.priceWei} AS price_wei FROM ${t}
          WHERE ${t.token} = p.token AND ${t.blockNumber} < ${firstBlock}
          ORDER BY ${t.blockNumber} DESC, ${t.logIndex} DESC LIMIT 1
        ) AS then_price ON true`
      : sql``;
  const key =
    sort === "volume"
      ? sql`${volume} DESC`
      : sort === "trades"
        ? sql`${trades} DESC`
        : sort === "gainers"
          ? sql`${change} DESC NULLS LAST`
          : sql`${change} ASC NULLS LAST`;
  const ranked = rowsOf(
    await db.execute(sql`
      WITH ${perTokenWindows(nowSec, [w])}
      SELECT p.token FROM per_token p JOIN ${tk} ON ${tk.address} = p.token ${thenJoin}
      WHERE ${trades} > 0
      ORDER BY ${key}, ${tk.launchSeq} DESC
      LIMIT ${limit}`),
  );
  return rowsInOrder(
    db,
    ranked.map((r) => String(r.token).toLowerCase()),
  );
}
