/**
 * Query parameters of the market-data endpoints, with their documented defaults and bounds
 * (README "Limits").
 */
import { z } from "zod";
import { RESOLUTION_SECONDS, RESOLUTIONS, type Resolution } from "../../src/domain/candles";
import { ApiError } from "../errors";
import { limitParam } from "../validation";

/** `limit` of trade lists: default 50, maximum 200. */
export const tradesQuery = z.object({ limit: limitParam(50, 200) });

/** `limit` of token lists: default 20, maximum 100. */
export const tokensQuery = z.object({ limit: limitParam(20, 100) });

/** Most buckets one candles request may cover. */
export const MAX_CANDLE_BUCKETS = 1_000;

/** Buckets served when `from` is omitted. */
export const DEFAULT_CANDLE_BUCKETS = 300;

const unixSeconds = z.coerce
  .number({ message: "must be unix seconds" })
  .int("must be an integer number of unix seconds")
  .min(0, "must not be negative")
  .max(253_402_300_799, "must be before year 10000");

/** Candles query: `resolution` (required), `from`/`to` (unix seconds, inclusive bucket starts). */
export const candlesQuery = z.object({
  resolution: z.enum(RESOLUTIONS as [Resolution, ...Resolution[]], {
    message: `resolution must be one of ${RESOLUTIONS.join(", ")}`,
  }),
  from: unixSeconds.optional(),
  to: unixSeconds.optional(),
});

/**
 * Resolves the candle window: `to` defaults to now, `from` to 300 buckets before `to`.
 * @throws ApiError `invalid_range` when from > to or the window spans more than 1,000 buckets
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
