/**
 * The activity windows of a page of tokens (docs/public.md "Activity windows"), read in one SQL
 * statement per page from the indexed `trade` table.
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

const MAX_BIGINT = 9_223_372_036_854_775_807n;

/**
 * The windows m5, h1, h6 and h24 of each token, keyed by lowercase address (every address given
 * gets an entry; a token without trades gets zero figures and its launch price as price then).
 *
 * One statement: block numbers and timestamps rise together, so the trades with timestamp >
 * cutoff are exactly those from the first block of the first second after the cutoff on
 * (`first_block`, two descents of the trade time index). The figures aggregate the page's trades
 * from the h24 first block on, one range of the (token, block, log) index per token; the price
 * then is one backward descent of that index per token and window. Rows read: the page's trades
 * of the last 24 h, plus four rows per token — proportional to trading, not to the number of
 * launches.
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
  const t = schema.trade;
  // `${t}` renders the schema-qualified table (market/ponderTables.ts).
  const cutoff = (w: ActivityWindowName) => BigInt(windowCutoffSec(nowSec, w));
  const firstBlock = (w: ActivityWindowName) =>
    sql`(SELECT min(${t.blockNumber}) FROM ${t} WHERE ${t.timestampSec} = (SELECT min(${t.timestampSec}) FROM ${t} WHERE ${t.timestampSec} > ${cutoff(w)}))`;
  const sums = ACTIVITY_WINDOW_NAMES.map((w) => {
    const inside = sql`${t.timestampSec} > ${cutoff(w)}`;
    return sql`
      coalesce(sum(${t.ethAmountWei}) FILTER (WHERE ${inside}), 0)::text AS ${sql.raw(`${w}_volume_wei`)},
      coalesce(sum(${t.ethAmountUsdE18}) FILTER (WHERE ${inside}), 0)::text AS ${sql.raw(`${w}_volume_usd_e18`)},
      count(*) FILTER (WHERE ${inside} AND ${t.side} = 'buy') AS ${sql.raw(`${w}_buys`)},
      count(*) FILTER (WHERE ${inside} AND ${t.side} = 'sell') AS ${sql.raw(`${w}_sells`)},
      count(DISTINCT ${t.trader}) FILTER (WHERE ${inside} AND ${t.side} = 'buy') AS ${sql.raw(`${w}_unique_buyers`)},
      count(DISTINCT ${t.trader}) FILTER (WHERE ${inside} AND ${t.side} = 'sell') AS ${sql.raw(`${w}_unique_sellers`)}`;
  });
  const priceThen = ACTIVITY_WINDOW_NAMES.map(
    (w) => sql`
      LEFT JOIN LATERAL (
        SELECT ${t.priceWei} AS price_wei FROM ${t}
        WHERE ${t.token} = v.token AND ${t.blockNumber} < coalesce(${firstBlock(w)}, ${MAX_BIGINT})
        ORDER BY ${t.blockNumber} DESC, ${t.logIndex} DESC LIMIT 1
      ) AS ${sql.raw(`then_${w}`)} ON true`,
  );
  // The time bound drops no row the block bound keeps (timestamps never decrease with the block
  // number); it lets the (token, timestamp_sec) index bound the scan when the planner picks it.
  const rows = rowsOf(
    await db.execute(sql`
      WITH s AS (
        SELECT ${t.token} AS s_token, ${sql.join(sums, sql`,`)}
        FROM ${t}
        WHERE ${t.token} IN (${sql.join(
          addresses.map((a) => sql`${a}`),
          sql`, `,
        )}) AND ${t.blockNumber} >= ${firstBlock("h24")} AND ${t.timestampSec} > ${cutoff("h24")}
        GROUP BY ${t.token}
      )
      SELECT v.token, s.*, ${sql.join(
        ACTIVITY_WINDOW_NAMES.map((w) => sql`${sql.raw(`then_${w}.price_wei::text AS ${w}_price_then_wei`)}`),
        sql`, `,
      )}
      FROM (VALUES ${sql.join(
        addresses.map((a) => sql`(${a})`),
        sql`, `,
      )}) AS v(token)
      LEFT JOIN s ON s.s_token = v.token
      ${sql.join(priceThen, sql` `)}`),
  );
  for (const row of rows) {
    const token = String(row.token).toLowerCase();
    const windows = {} as ActivityWindows;
    for (const w of ACTIVITY_WINDOW_NAMES) {
      const then = row[`${w}_price_then_wei`];
      windows[w] = {
        priceThenWei: then === null || then === undefined ? (launchPriceWei.get(token) ?? 0n) : BigInt(String(then)),
        volumeWei: BigInt(String(row[`${w}_volume_wei`] ?? "0")),
        volumeUsdE18: BigInt(String(row[`${w}_volume_usd_e18`] ?? "0")),
        buys: Number(row[`${w}_buys`] ?? 0),
        sells: Number(row[`${w}_sells`] ?? 0),
        uniqueBuyers: Number(row[`${w}_unique_buyers`] ?? 0),
        uniqueSellers: Number(row[`${w}_unique_sellers`] ?? 0),
      };
    }
    out.set(token, windows);
  }
  return out;
}
