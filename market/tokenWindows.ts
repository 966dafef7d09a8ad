/**
 * The activity windows of a page of tokens (docs/public.md "Activity windows"), read in one SQL
 * statement per page without reading the window's trades one by one.
 */
import { sql } from "ponder";
import * as schema from "../ponder.schema";
import {
  ACTIVITY_WINDOW_NAMES,
  type ActivityWindowName,
  type ActivityWindows,
  windowCutoffSec,
} from "../src/domain/activityWindows";
import { rowsOf, type MarketDb } from "./db";
import { addressList, priceThenJoin, windowSums } from "./windowPieces";

/**
 * The windows m5, h1, h6 and h24 of each token, keyed by lowercase address (every address given
 * gets an entry; a token without trades gets zero figures and its launch price as price then).
 *
 * One statement: the volumes, buys and sells come from the page's window pieces
 * (`windowPieces.ts`: the first partial minute's trades, then 1m and 1h candles); the unique buyers
 * and sellers from `token_trader`, one row per wallet and side holding its newest trade's time (a
 * wallet is in a window exactly when that time is); the price then is one backward descent of the
 * trade (token, block, log) index per token and window, below the first block of the first second
 * after the cutoff (timestamps and block numbers rise together). Rows read per token: at most 59
 * seconds of trades, 59 + 24 candles, one row per wallet active in the last 24 h and four trades —
 * not the window's trades, however many there are.
 * @param launchPriceWei - each token's launch price (lowercase address → wei), the price then of
 *   a window with no trade at or before its cutoff
 */
export async function activityWindows(
  db: MarketDb,
  launchPriceWei: Map<string, bigint>,
  nowSec: number,
): Promise<Map<string, ActivityWindows>> {
  const addresses = [...launchPriceWei.keys()];
  const out = new Map<string, ActivityWindows>();
  if (addresses.length === 0) return out;
  const tt = schema.tokenTrader;
  // `${tt}` renders the schema-qualified table (market/ponderTables.ts).
  const cutoff = (w: ActivityWindowName) => BigInt(windowCutoffSec(nowSec, w));
  const list = addressList(addresses);
  const uniques = ACTIVITY_WINDOW_NAMES.map(
    (w) => sql`
      count(*) FILTER (WHERE ${tt.side} = 'buy' AND ${tt.lastTimestampSec} > ${cutoff(w)}) AS ${sql.raw(`${w}_unique_buyers`)},
      count(*) FILTER (WHERE ${tt.side} = 'sell' AND ${tt.lastTimestampSec} > ${cutoff(w)}) AS ${sql.raw(`${w}_unique_sellers`)}`,
  );
  const priceThen = ACTIVITY_WINDOW_NAMES.map((w) => priceThenJoin(sql`v.token`, nowSec, w, `then_${w}`));
  const columns = ACTIVITY_WINDOW_NAMES.map((w) =>
    sql.raw(
      [
        `s.${w}_volume_wei::text AS ${w}_volume_wei`,
        `s.${w}_volume_usd_e18::text AS ${w}_volume_usd_e18`,
        `s.${w}_trades AS ${w}_trades`,
        `s.${w}_buys AS ${w}_buys`,
        `u.${w}_unique_buyers AS ${w}_unique_buyers`,
        `u.${w}_unique_sellers AS ${w}_unique_sellers`,
        `then_${w}.price_wei::text AS ${w}_price_then_wei`,
      ].join(", "),
    ),
  );
  const rows = rowsOf(
    await db.execute(sql`
      WITH ${windowSums(nowSec, ACTIVITY_WINDOW_NAMES, addresses)},
      uniques AS (
        SELECT ${tt.token} AS token, ${sql.join(uniques, sql`,`)}
        FROM ${tt}
        WHERE ${tt.token} IN (${list}) AND ${tt.lastTimestampSec} > ${cutoff("h24")}
        GROUP BY ${tt.token}
      )
      SELECT v.token AS page_token, ${sql.join(columns, sql`, `)}
      FROM (VALUES ${sql.join(
        addresses.map((a) => sql`(${a})`),
        sql`, `,
      )}) AS v(token)
      LEFT JOIN per_token s ON s.token = v.token
      LEFT JOIN uniques u ON u.token = v.token
      ${sql.join(priceThen, sql` `)}`),
  );
  for (const row of rows) {
    const token = String(row.page_token).toLowerCase();
    const windows = {} as ActivityWindows;
    for (const w of ACTIVITY_WINDOW_NAMES) {
      const then = row[`${w}_price_then_wei`];
      const trades = Number(row[`${w}_trades`] ?? 0);
      const buys = Number(row[`${w}_buys`] ?? 0);
      windows[w] = {
        priceThenWei: then === null || then === undefined ? (launchPriceWei.get(token) ?? 0n) : BigInt(String(then)),
        volumeWei: BigInt(String(row[`${w}_volume_wei`] ?? "0")),
        volumeUsdE18: BigInt(String(row[`${w}_volume_usd_e18`] ?? "0")),
        buys,
        sells: trades - buys,
        uniqueBuyers: Number(row[`${w}_unique_buyers`] ?? 0),
        uniqueSellers: Number(row[`${w}_unique_sellers`] ?? 0),
      };
    }
    out.set(token, windows);
  }
  return out;
}
