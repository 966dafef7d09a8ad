/**
 * The candles answer shared by `GET /api/v1/evmchain/tokens/{address}/candles` and the public
 * `GET /api/public/token/{address_or_slug}/candles` (the token page's chart reads the latter).
 */
import type { Context } from "hono";
import type { Address } from "viem";
import type { z } from "zod";
import { countbackStartSec } from "../../src/domain/candles";
import { sendOk } from "../json";
import { candleWindow, type candlesQuery } from "./params";
import { tokenCandles } from "../../market/candleQueries";
import type { MarketDb } from "../../market/db";
import { candleRecord, candleUsdRecord } from "../../market/candleRecords";
import { udfHistoryResponse } from "./udfResponse";
import { secondBarsWindow } from "./secondBarsWindow";

/**
 * Answers a candles request for a launched token: OHLCV buckets with trades in the window, oldest
 * first (`{ok, token, resolution, from_sec, to_sec, candles}`), or the TradingView UDF `/history`
 * shape with `format=udf`. `currency=usd`: `{…, currency: "usd", candles}` with `open_usd` … `volume_usd`
 * (null in buckets without an ETH/USD), or UDF bars in USD (buckets without one left out).
 * @param address - the token (already known to exist)
 * @param query - the validated `candlesQuery` (resolution; `from`/`to` unix seconds, inclusive
 *   bounds on bucket start; `countback` = the last N buckets ending at `to`)
 * Second bars (1s, 15s) are aggregated from the trades and served for 24 h before the indexed
 * head only: an older window clamped or refused (./secondBarsWindow.ts).
 * @throws ApiError 400 `invalid_range` (from after to, more than 1,440 buckets), 400
 *   `out_of_retention` (second bars, whole window older than 24 h before the indexed head)
 */
export async function candlesResponse(
  c: Context,
  db: MarketDb,
  address: Address,
  query: z.output<typeof candlesQuery>,
  nowSec: number,
): Promise<Response> {
  const { resolution, from, to, format, fill, countback, currency } = query;
  const toSec = to ?? nowSec;
  const requested = candleWindow(
    resolution,
    countback !== undefined ? countbackStartSec(toSec, resolution, countback) : from,
    toSec,
    nowSec,
  );
  const { window, retentionStartSec } = await secondBarsWindow(c, db, resolution, requested);
  const rows = await tokenCandles(db, address, resolution, window.fromSec, window.toSec);
  if (format === "udf")
    return udfHistoryResponse(c, db, address, resolution, rows, window, {
      fill: fill === "1" || fill === "true",
      countback,
      currency,
      retentionStartSec,
    });
  const range = { token: address, resolution, from_sec: Number(window.fromSec), to_sec: Number(window.toSec) };
  if (currency === "usd") return sendOk(c, { ...range, currency, candles: rows.map(candleUsdRecord) });
  return sendOk(c, { ...range, candles: rows.map(candleRecord) });
}
