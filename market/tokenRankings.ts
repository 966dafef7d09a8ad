/**
 * Rankings of every token by its activity windows (docs/public.md "Trending" and "Top lists"),
 * one SQL statement each, without reading a day of trades.
 *
 * Each window is summed from the pieces of `windowPieces.ts` (its first partial minute of trades,
 * then 1m and 1h candles) over every token at once: rows read are proportional to recent trading
 * minutes and hours, not to the number of trades or of launches.
 */
import { inArray, sql } from "ponder";
import * as schema from "../ponder.schema";
import {
  ACTIVITY_WINDOW_NAMES,
  ACTIVITY_WINDOWS,
  type ActivityWindowName,
  TRENDING_TRADE_WEIGHT_WEI,
  type TopSort,
} from "../src/domain/activityWindows";
import { rowsOf, type MarketDb } from "./db";
import type { TokenRow } from "./tokenLookups";
import { priceThenJoin, windowSums } from "./windowPieces";

/**
 * The volume (wei) and trade count of each window for every token that traded in the last day,
 * keyed by lowercase address: the sums `trendingTokens` and `topTokens` order by (the e2e test
 * compares them with the definition at every edge second).
 */
export async function windowTotals(
  db: MarketDb,
  nowSec: number,
): Promise<Map<string, Record<ActivityWindowName, { volumeWei: bigint; trades: number }>>> {
  const rows = rowsOf(await db.execute(sql`WITH ${windowSums(nowSec, ACTIVITY_WINDOW_NAMES)} SELECT * FROM per_token`));
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
      WITH ${windowSums(nowSec, ACTIVITY_WINDOW_NAMES)}
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
  const volume = sql.raw(`p.${w}_volume_wei`);
  const trades = sql.raw(`p.${w}_trades`);
  // The price then: one index descent per listed candidate (`priceThenJoin`).
  const priceThen = sql`coalesce(then_price.price_wei, ${tk.launchPriceWei})`;
  const change = sql`div((${tk.priceWei} - ${priceThen}) * 10000, nullif(${priceThen}, 0))`;
  const thenJoin =
    sort === "gainers" || sort === "losers" ? priceThenJoin(sql`p.token`, nowSec, w, "then_price") : sql``;
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
      WITH ${windowSums(nowSec, [w])}
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
