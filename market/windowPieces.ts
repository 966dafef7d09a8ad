/**
 * The rows a window's sums are read from, and the price then (docs/public.md "Activity windows"
 * and "Top lists"), shared by the token records' windows (`tokenWindows.ts`) and the rankings
 * (`tokenRankings.ts`).
 *
 * Invariant: a window (trades with timestamp > now − length, `src/domain/activityWindows.ts`) is
 * the union of three disjoint pieces that together hold exactly its trades: the trades of its
 * first partial minute, the 1m candles up to the next whole hour, and the 1h candles from there on
 * (a candle of resolution r holds the trades with timestamp in [bucket start, bucket start + r)).
 * Rows read per token: at most 59 seconds of trades, 59 minute buckets and 24 hour buckets —
 * proportional to recent trading minutes, not to the number of trades or of launches.
 */
import { sql } from "ponder";
import * as schema from "../ponder.schema";
import { type ActivityWindowName, windowCutoffSec } from "../src/domain/activityWindows";

/** A SQL fragment. */
export type Sql = ReturnType<typeof sql>;

const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** Lowercase addresses as a SQL list of parameters (for `IN (…)`). */
export function addressList(tokens: readonly string[]): Sql {
  return sql.join(
    tokens.map((a) => sql`${a}`),
    sql`, `,
  );
}

/**
 * `LEFT JOIN LATERAL (…) AS <alias>`: the price (`<alias>.price_wei`, wei per whole token) after
 * the last trade of the token `tokenRef` at or before the window's cutoff, null when there is
 * none (the caller falls back to the launch price). One backward descent of the trade
 * (token, block, log) index, below the first block of the first second after the cutoff
 * (timestamps and block numbers rise together; no trade after the cutoff leaves every block).
 */
export function priceThenJoin(tokenRef: Sql, nowSec: number, w: ActivityWindowName, alias: string): Sql {
  const t = schema.trade;
  const cutoff = windowCutoffSec(nowSec, w);
  const firstBlock = sql`(SELECT min(${t.blockNumber}) FROM ${t} WHERE ${t.timestampSec} = (SELECT min(${t.timestampSec}) FROM ${t} WHERE ${t.timestampSec} > ${cutoff}))`;
  return sql`
    LEFT JOIN LATERAL (
      SELECT ${t.priceWei} AS price_wei FROM ${t}
      WHERE ${t.token} = ${tokenRef} AND ${t.blockNumber} < coalesce(${firstBlock}, ${MAX_BIGINT})
      ORDER BY ${t.blockNumber} DESC, ${t.logIndex} DESC LIMIT 1
    ) AS ${sql.raw(alias)} ON true`;
}

/**
 * The rows (`w`, `token`, `volume_wei`, `volume_usd_e18`, `trades`, `buys`) whose sums per token
 * are the window's figures (module invariant), for `tokens` (lowercase addresses) or every token.
 * The resolutions are literals so the planner can use the partial candle indexes
 * (`candle_1m_bucket_idx`, `candle_1h_bucket_idx`) when no token is named.
 */
export function windowPieces(nowSec: number, w: ActivityWindowName, tokens?: readonly string[]): Sql {
  const t = schema.trade;
  const c = schema.candle;
  const firstSec = windowCutoffSec(nowSec, w) + 1;
  const firstMinuteSec = Math.ceil(firstSec / 60) * 60;
  const firstHourSec = Math.ceil(firstMinuteSec / 3_600) * 3_600;
  const label = sql.raw(`'${w}'::text`);
  const list = tokens ? addressList(tokens) : null;
  const ofTrades = list ? sql` AND ${t.token} IN (${list})` : sql``;
  const ofCandles = list ? sql` AND ${c.token} IN (${list})` : sql``;
  return sql`
    SELECT ${label} AS w, ${t.token} AS token, ${t.ethAmountWei} AS volume_wei,
      coalesce(${t.ethAmountUsdE18}, 0) AS volume_usd_e18, 1 AS trades, (${t.side} = 'buy')::int AS buys
    FROM ${t} WHERE ${t.timestampSec} >= ${firstSec} AND ${t.timestampSec} < ${firstMinuteSec}${ofTrades}
    UNION ALL
    SELECT ${label}, ${c.token}, ${c.volumeWei}, coalesce(${c.volumeUsdE18}, 0), ${c.tradeCount}, ${c.buyCount} FROM ${c}
    WHERE ${c.resolution} = '1m' AND ${c.bucketStartSec} >= ${firstMinuteSec} AND ${c.bucketStartSec} < ${firstHourSec}${ofCandles}
    UNION ALL
    SELECT ${label}, ${c.token}, ${c.volumeWei}, coalesce(${c.volumeUsdE18}, 0), ${c.tradeCount}, ${c.buyCount} FROM ${c}
    WHERE ${c.resolution} = '1h' AND ${c.bucketStartSec} >= ${firstHourSec}${ofCandles}`;
}

/**
 * The CTEs `pieces` and `per_token`: one row per token with a trade in one of `windows`, columns
 * `token` and, per window, `<w>_volume_wei`, `<w>_volume_usd_e18`, `<w>_trades` and `<w>_buys`
 * (numeric; 0 for a window without trades).
 */
export function windowSums(nowSec: number, windows: readonly ActivityWindowName[], tokens?: readonly string[]): Sql {
  const sums = windows.map((w) => {
    const of = sql.raw(`w = '${w}'`);
    return sql`
      coalesce(sum(volume_wei) FILTER (WHERE ${of}), 0) AS ${sql.raw(`${w}_volume_wei`)},
      coalesce(sum(volume_usd_e18) FILTER (WHERE ${of}), 0) AS ${sql.raw(`${w}_volume_usd_e18`)},
      coalesce(sum(trades) FILTER (WHERE ${of}), 0)::numeric AS ${sql.raw(`${w}_trades`)},
      coalesce(sum(buys) FILTER (WHERE ${of}), 0)::numeric AS ${sql.raw(`${w}_buys`)}`;
  });
  return sql`
    pieces AS (${sql.join(
      windows.map((w) => windowPieces(nowSec, w, tokens)),
      sql` UNION ALL `,
    )}),
    per_token AS (SELECT token, ${sql.join(sums, sql`,`)} FROM pieces GROUP BY token)`;
}
