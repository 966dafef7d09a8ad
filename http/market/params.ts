/**
 * Query parameters of the market-data endpoints, with their documented defaults and bounds
 * (README "Limits").
 */
import { z } from "zod";
import { RESOLUTION_SECONDS, RESOLUTIONS, SECOND_BARS_RETENTION_SEC, type Resolution } from "../../src/domain/candles";
import { ApiError } from "../errors";
import { limitParam } from "../validation";
import { UDF_RESOLUTIONS } from "../../market/udf";
import { TOKEN_BATCH_MAX } from "../../market/tokenReads";
import { addressParam } from "../../src/domain/wire";

/**
 * An opaque paging cursor as this service issues it (`next_cursor`): at most 400 characters, else
 * 400 `invalid_cursor` "cursor is not one this endpoint issued" (the decoder of each list checks
 * the rest). Optional: absent means the first page.
 */
export const issuedCursorParam = z
  .string()
  .refine((v) => v.length <= 400, {
    message: "cursor is not one this endpoint issued",
    params: { code: "invalid_cursor" },
  })
  .optional();

/**
 * `sort` values of launch feeds: `new` (newest launch first, default), `old` (oldest first),
 * `market_cap` (highest first), `volume` (all-time WETH volume, highest first), `trades`
 * (all-time trade count, highest first); ties by newer launch.
 */
const LAUNCH_SORTS = ["new", "old", "market_cap", "volume", "trades"] as const;

/** Launch feeds: `sort` ({@link LAUNCH_SORTS}, default `new`), `limit` (default 50, max 200), `cursor`. */
export const launchesQuery = z.object({
  sort: z.enum(LAUNCH_SORTS, { message: `sort must be one of ${LAUNCH_SORTS.join(", ")}` }).default("new"),
  limit: limitParam(50, 200),
  cursor: issuedCursorParam,
});

/**
 * Key-surface trade pages: `limit` (default 50, max 200), `cursor` (the previous page's
 * `next_cursor`, as on the public trade lists; anything else is `invalid_cursor`) and
 * `before_timestamp` (unix seconds: only trades whose block time is strictly earlier, the
 * time-based form GeckoTerminal's trade endpoint offers). Both may be combined.
 */
export const tradePageQuery = z.object({
  limit: limitParam(50, 200),
  cursor: issuedCursorParam,
  before_timestamp: z.coerce
    .number({ message: "before_timestamp must be unix seconds (a non-negative integer)" })
    .int("before_timestamp must be unix seconds (a non-negative integer)")
    .min(0, "before_timestamp must be unix seconds (a non-negative integer)")
    .max(253_402_300_799, "before_timestamp must be before year 10000")
    .optional(),
});

/**
 * Widest candle window: `to − from` may span at most 1,440 bucket lengths — one day of 1m
 * candles. Bounds are inclusive bucket starts, so such a window holds up to 1,441 buckets (the
 * documented "a day of 1m candles": `from = to − 86,400`).
 */
export const MAX_CANDLE_BUCKETS = 1_440;

/** Buckets served when `from` is omitted. */
const DEFAULT_CANDLE_BUCKETS = 300;

/** Every resolution the candles endpoints accept: ours, then the UDF names (docs/public.md). */
export const ACCEPTED_RESOLUTIONS = [...RESOLUTIONS, ...Object.keys(UDF_RESOLUTIONS)] as readonly string[];

/** Catalogue messages of the candles query (each code of `http/errors.ts`, tested in params.test.ts). */
export const CANDLE_MESSAGES = {
  resolution: `resolution must be one of ${RESOLUTIONS.join(", ")} (or UDF ${Object.keys(UDF_RESOLUTIONS).join(", ")})`,
  countback: `countback must be an integer from 1 to ${MAX_CANDLE_BUCKETS}`,
  fromAfterTo: "from must not be after to",
  tooWide: (resolution: Resolution) =>
    `from and to may be at most ${MAX_CANDLE_BUCKETS} ${resolution} buckets apart (${MAX_CANDLE_BUCKETS * RESOLUTION_SECONDS[resolution]} s; bounds inclusive)`,
  retention: (resolution: Resolution, retentionStartSec: number) =>
    `${resolution} bars are kept for ${SECOND_BARS_RETENTION_SEC / 3_600} h (${SECOND_BARS_RETENTION_SEC} s) before the indexed head's block time: the oldest is ${retentionStartSec}; ask for to >= ${retentionStartSec} or use 1m or longer`,
} as const;

const unixSeconds = (name: string) =>
  z.coerce
    .number({ message: `${name} must be unix seconds (a non-negative integer)` })
    .int(`${name} must be unix seconds (a non-negative integer)`)
    .min(0, `${name} must be unix seconds (a non-negative integer)`)
    .max(253_402_300_799, `${name} must be before year 10000`);

/**
 * Candles query: `resolution` (required; ours or the UDF names 1S, 15S, 1, 5, 15, 60, 240, 1D/D;
 * anything else `invalid_resolution`), `from`/`to` (unix seconds, inclusive bucket starts), `format`
 * (`json` default, or `udf` for the TradingView UDF `/history` shape), `currency` (`eth` default,
 * or `usd`: docs/public.md "USD values"), `fill` (UDF only: 1 fills
 * empty buckets), `countback` (UDF only, 1..1440: the last N buckets ending at `to`, overriding
 * `from`). Malformed values are `invalid_request` with the messages of {@link CANDLE_MESSAGES}.
 */
export const candlesQuery = z.object({
  resolution: z
    .string()
    .refine((v) => ACCEPTED_RESOLUTIONS.includes(v), {
      message: CANDLE_MESSAGES.resolution,
      params: { code: "invalid_resolution" },
    })
    .transform(
      (v): Resolution =>
        v in UDF_RESOLUTIONS ? UDF_RESOLUTIONS[v as keyof typeof UDF_RESOLUTIONS] : (v as Resolution),
    )
    .meta({
      description:
        "bucket length: ours (1s, 15s, 1m, 5m, 15m, 1h, 4h, 1d) or TradingView's (1S, 15S, 1, 5, 15, 60, 240, 1D, D); 1s and 15s (second bars) only for the last 24 h before the indexed head",
      enum: [...ACCEPTED_RESOLUTIONS],
    }),
  from: unixSeconds("from").optional(),
  to: unixSeconds("to").optional(),
  format: z.enum(["json", "udf"], { message: "format must be json or udf" }).default("json"),
  currency: z.enum(["eth", "usd"], { message: "currency must be eth or usd" }).default("eth").meta({
    description:
      "eth (default): prices in wei per whole token, volume in wei; usd: prices and volume in USD, each trade converted at the ETH/USD in force at it (null without a reference price)",
  }),
  fill: z.enum(["0", "1", "true", "false"], { message: "fill must be 0 or 1" }).default("0"),
  countback: z.coerce
    .number({ message: CANDLE_MESSAGES.countback })
    .int(CANDLE_MESSAGES.countback)
    .min(1, CANDLE_MESSAGES.countback)
    .max(MAX_CANDLE_BUCKETS, CANDLE_MESSAGES.countback)
    .optional(),
});

/**
 * Resolves the candle window: `to` defaults to now, `from` to 300 buckets before `to`.
 * @param resolution - bucket length
 * @param fromSec / toSec - requested bounds, unix seconds (inclusive bucket starts)
 * @param nowSec - the clock, unix seconds
 * @returns the bounds as bigint unix seconds
 * @throws ApiError `invalid_range` when from > to or `to − from` exceeds 1,440 bucket lengths
 * @example candleWindow("1m", 1_700_000_000 - 86_400, 1_700_000_000, 0) // { fromSec: 1699913600n, toSec: 1700000000n } (a day of 1m candles)
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
  if (from > to) throw new ApiError("invalid_range", CANDLE_MESSAGES.fromAfterTo);
  if (to - from > MAX_CANDLE_BUCKETS * size) throw new ApiError("invalid_range", CANDLE_MESSAGES.tooWide(resolution));
  return { fromSec: BigInt(from), toSec: BigInt(to) };
}

/**
 * `addresses`: 1 to {@link TOKEN_BATCH_MAX} comma-separated token addresses (any case, spaces
 * around commas allowed), no duplicates (case-insensitive); docs/public.md "Batch reads".
 */
export const tokenBatchQuery = z.object({
  addresses: z
    .string()
    .max(TOKEN_BATCH_MAX * 50, `addresses must be at most ${TOKEN_BATCH_MAX} comma-separated addresses`)
    .meta({ description: `1 to ${TOKEN_BATCH_MAX} comma-separated token addresses, no duplicates` })
    .transform((v) => v.split(",").map((a) => a.trim()))
    .pipe(
      z
        .array(addressParam)
        .min(1, "addresses must name at least one address")
        .max(TOKEN_BATCH_MAX, `addresses must be at most ${TOKEN_BATCH_MAX} comma-separated addresses`)
        .refine((list) => new Set(list).size === list.length, { message: "addresses must not repeat an address" }),
    ),
});
