/**
 * Query parameters of the market-data endpoints, with their documented defaults and bounds
 * (README "Limits").
 */
import { z } from "zod";
import { RESOLUTION_SECONDS, RESOLUTIONS, type Resolution } from "../../src/domain/candles";
import { ApiError } from "../errors";
import { limitParam } from "../validation";
import { UDF_RESOLUTIONS } from "./udf";

/** `limit` of trade lists: default 50, maximum 200. */
export const tradesQuery = z.object({ limit: limitParam(50, 200) });

/** `limit` of token lists: default 20, maximum 100. */
export const tokensQuery = z.object({ limit: limitParam(20, 100) });

/** Most buckets one candles request may cover: one day of 1m candles, as charting clients ask for. */
export const MAX_CANDLE_BUCKETS = 1_440;

/** Buckets served when `from` is omitted. */
export const DEFAULT_CANDLE_BUCKETS = 300;

const unixSeconds = z.coerce
  .number({ message: "must be unix seconds" })
  .int("must be an integer number of unix seconds")
  .min(0, "must not be negative")
  .max(253_402_300_799, "must be before year 10000");

/**
 * Candles query: `resolution` (required; ours or the UDF names 1, 5, 15, 60, 240, 1D/D),
 * `from`/`to` (unix seconds, inclusive bucket starts), `format` (`json` default, or `udf` for the
 * TradingView UDF `/history` shape), `fill` (UDF only: 1 fills empty buckets), `countback` (UDF
 * only, 1..1440: the last N buckets ending at `to`, overriding `from`).
 */
export const candlesQuery = z.object({
  resolution: z.preprocess(
    (v) => (typeof v === "string" && v in UDF_RESOLUTIONS ? UDF_RESOLUTIONS[v as keyof typeof UDF_RESOLUTIONS] : v),
    z.enum(RESOLUTIONS as [Resolution, ...Resolution[]], {
      message: `resolution must be one of ${RESOLUTIONS.join(", ")} (or UDF 1, 5, 15, 60, 240, 1D)`,
    }),
  ),
  from: unixSeconds.optional(),
  to: unixSeconds.optional(),
  format: z.enum(["json", "udf"], { message: "format must be json or udf" }).default("json"),
  fill: z.enum(["0", "1", "true", "false"], { message: "fill must be 0 or 1" }).default("0"),
  countback: z.coerce.number({ message: "countback must be an integer" }).int().min(1).max(MAX_CANDLE_BUCKETS).optional(),
});

/**
 * Resolves the candle window: `to` defaults to now, `from` to 300 buckets before `to`.
 * @throws ApiError `invalid_range` when from > to or the window spans more than 1,440 buckets
 */
export function candleWindow(
  resolution: Resolution,
  fromSec: number | undefined,
  toSec: number | undefined,
  nowSec: number,
): { fromSec: bigint; toSec: bigint } {
  const size = RESOLUTION_SECONDS[resolution];
  const to = toSec ?? nowSec;
  const from = fromSec ?? Math.max(0, to - size * (DEFAULT_CANDLE_BUCKETS - 1));
  if (from > to) throw new ApiError("invalid_range", "from must not be after to");
  if ((to - from) / size >= MAX_CANDLE_BUCKETS) {
    throw new ApiError("invalid_range", `the range covers more than ${MAX_CANDLE_BUCKETS} ${resolution} buckets`);
  }
  return { fromSec: BigInt(from), toSec: BigInt(to) };
}
