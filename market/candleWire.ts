/**
 * The wire shapes of candle answers (OHLCV per bucket): JSON in wei or USD, and TradingView's UDF
 * bars, shared by the candles endpoints of both surfaces, the UDF datafeed and the OpenAPI document.
 */
import { z } from "zod";
import type { Resolution } from "../src/domain/candles";
import { addressWire, okBody, uintString, unixSec, usdString } from "../src/domain/wire";

/** OHLCV candle; prices in wei per whole token. */
const candleWire = z
  .object({
    bucket_start_sec: unixSec,
    open_wei: uintString,
    high_wei: uintString,
    low_wei: uintString,
    close_wei: uintString,
    volume_token: uintString,
    volume_wei: uintString,
    volume_buy_wei: uintString.meta({
      description: "WETH volume of the bucket's buys (trade side `buy`: WETH into the pool), wei",
    }),
    volume_sell_wei: uintString.meta({
      description:
        "WETH volume of the bucket's sells (trade side `sell`), wei; volume_buy_wei + volume_sell_wei = volume_wei",
    }),
    trade_count: z.number().int().positive(),
  })
  .meta({ id: "Candle" });

/** OHLCV candle in USD (`currency=usd`): each trade converted at the ETH/USD in force at it. */
const candleUsdWire = z
  .object({
    bucket_start_sec: unixSec,
    open_usd: usdString,
    high_usd: usdString,
    low_usd: usdString,
    close_usd: usdString,
    volume_token: uintString,
    volume_usd: usdString,
    trade_count: z.number().int().positive(),
  })
  .meta({
    id: "CandleUsd",
    description: "USD per whole token and USD volume over the bucket's trades that had an ETH/USD (null when none had)",
  });

const candleRange = {
  token: addressWire,
  resolution: z.enum(["1s", "15s", "1m", "5m", "15m", "1h", "4h", "1d"] satisfies Resolution[]),
  from_sec: z.number().int(),
  to_sec: z.number().int(),
};

/**
 * TradingView UDF bars (`/api/public/udf/history`, and the candles endpoints with `format=udf`):
 * parallel arrays of bucket starts (unix seconds) and OHLCV numbers, or `no_data` with the last
 * bar's time before the range.
 */
export const udfBarsWire = z.union([
  z.object({
    s: z.literal("ok"),
    t: z.array(z.number().int()),
    o: z.array(z.number()),
    h: z.array(z.number()),
    l: z.array(z.number()),
    c: z.array(z.number()),
    v: z.array(z.number()),
  }),
  z.object({ s: z.literal("no_data"), nextTime: z.number().int().optional() }),
]);

/**
 * Candles answer: `format=json` (default) in wei or, with `currency=usd`, in USD; `format=udf`
 * TradingView's bars ({@link udfBarsWire}).
 */
export const candlesBody = z.union([
  okBody({ ...candleRange, candles: z.array(candleWire) }),
  okBody({ ...candleRange, currency: z.literal("usd"), candles: z.array(candleUsdWire) }),
  udfBarsWire,
]);
