/**
 * The TradingView UDF datafeed under one base path, `/api/public/udf` (TradingView Charting
 * Library, "UDF" datafeed adapter; docs/public.md "TradingView datafeed"): a chart given this base
 * path as its datafeed URL calls `/config`, `/time`, `/search`, `/symbols` and `/history`.
 *
 * Bodies are the UDF shapes (no `ok` field). Failures carry UDF's `{s: "error", errmsg}` together
 * with the catalogue's body (`ok: false, error, message`, `http/errors.ts`) and status, so both a
 * UDF client and this API's clients read them.
 */
import { Hono } from "hono";
import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { countbackStartSec } from "../../src/domain/candles";
import { isSlugShaped } from "../../src/domain/slug";
import { ApiError } from "../errors";
import { toJsonText } from "../../src/domain/json";
import { udfBarsWire } from "../../market/candleWire";
import { candleWindow, candlesQuery, CANDLE_MESSAGES } from "../market/params";
import { findTokenBySlug, findTokenBySymbol } from "../../market/tokenLookups";
import { tokenPage } from "../../market/tokenLists";
import { searchTokens } from "../../market/search";
import { findToken } from "../../market/tokenReads";
import { tokenCandles } from "../../market/candleQueries";
import type { MarketDb } from "../../market/db";
import {
  udfConfig,
  udfSearchItem,
  udfSymbolInfo,
  udfSymbolKey,
  UDF_SUPPORTED_RESOLUTIONS,
} from "../../market/udfDatafeed";
import { udfHistoryResponse } from "../market/udfResponse";
import { secondBarsRetentionStart, secondBarsWindow } from "../market/secondBarsWindow";
import { documented } from "../openapi/describe";
import { candleReadErrors } from "../openapi/tokenDocs";
import { validate } from "../validation";

/** What the datafeed reads. */
export type UdfDeps = {
  db: MarketDb;
  /** Clock, unix seconds (`/time`, the default history window). */
  nowSec: () => number;
};

const json = (body: unknown, status: 200 | 400 | 404 | 503 = 200) =>
  new Response(toJsonText(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });

const symbolParam = z
  .string({ message: "symbol must be a token address or slug" })
  .min(1, "symbol must be a token address or slug")
  .max(200, "symbol must be a token address or slug");
const unixSeconds = (name: string) => candlesQuery.shape.from.unwrap().describe(`${name}: unix seconds`);

/** `/symbols?symbol=`: a ticker (checksummed address), any-case address or slug, optionally `EXCHANGE:`-prefixed. */
const symbolsQuery = z.object({ symbol: symbolParam });
/** `/search?query=&type=&exchange=&limit=`: `limit` 1..100 (default 30). */
const searchQuery = z.object({
  query: z.string().max(100, "query must be at most 100 characters").default(""),
  type: z.string().max(40, "type must be at most 40 characters").optional(),
  exchange: z.string().max(40, "exchange must be at most 40 characters").optional(),
  limit: z.coerce
    .number({ message: "limit must be an integer from 1 to 100" })
    .int("limit must be an integer from 1 to 100")
    .min(1, "limit must be an integer from 1 to 100")
    .max(100, "limit must be an integer from 1 to 100")
    .default(30),
});
/**
 * `/history?symbol=&resolution=&from=&to=&countback=` (UDF): bars with `from <= t < to`;
 * `countback` (1..1,440) = that many bars ending before `to`, taking priority over `from`;
 * `currency=usd`: bars in USD (docs/public.md "USD values").
 */
const historyQuery = z.object({
  symbol: symbolParam,
  resolution: candlesQuery.shape.resolution,
  from: unixSeconds("from").optional(),
  to: unixSeconds("to"),
  countback: candlesQuery.shape.countback,
  currency: candlesQuery.shape.currency,
});

const errorsNote = "Errors carry UDF's `{s: \"error\", errmsg}` besides the catalogue's `{ok: false, error, message}`.";

/** Builds the UDF datafeed router (mount at `/api/public/udf`). */
export function udfRoutes(deps: UdfDeps) {
  const nowSec = deps.nowSec;

  /**
   * A chart's symbol -> the token row: an address (any case, optionally `evmchain:`-prefixed), a
   * slug (any case), or a symbol as `/search` returns it and a user types it (any case; when
   * several launches share it, the oldest); 404 `token_not_found` otherwise.
   */
  async function tokenFor(symbol: string) {
    const key = udfSymbolKey(symbol);
    if (isAddress(key, { strict: false })) {
      const row = await findToken(deps.db, getAddress(key), nowSec());
      if (row) return row;
      throw new ApiError("token_not_found", `unknown_symbol: no launched token for "${symbol}"`);
    }
    const slug = key.toLowerCase();
    const row =
      (isSlugShaped(slug) ? await findTokenBySlug(deps.db, slug) : null) ?? (await findTokenBySymbol(deps.db, key));
    if (!row) throw new ApiError("token_not_found", `unknown_symbol: no launched token for "${symbol}"`);
    return row;
  }

  return (
    new Hono()
      .get(
        "/config",
        documented({
          tag: "udf",
          summary: "UDF datafeed configuration",
          description: `Resolutions accepted by /history: ${UDF_SUPPORTED_RESOLUTIONS.join(", ")} (also D, and 1s, 15s, 1m, 5m, 15m, 1h, 4h, 1d); 1S and 15S for the last 24 h only.`,
          ok: z.looseObject({
            supported_resolutions: z.array(z.enum(UDF_SUPPORTED_RESOLUTIONS)),
            supports_search: z.literal(true),
            supports_time: z.literal(true),
            supports_group_request: z.literal(false),
            supports_marks: z.literal(false),
            supports_timescale_marks: z.literal(false),
          }),
        }),
        (_c) => json(udfConfig()),
      )
      .get(
        "/time",
        documented({
          tag: "udf",
          summary: "Server time, unix seconds (text/plain)",
          content: { "text/plain": "unix seconds, e.g. 1795330256" },
        }),
        (c) => c.text(String(nowSec())),
      )
      /**
       * GET /search?query=&type=&exchange=&limit= — up to `limit` (default 30, max 100) tokens
       * matching `query`, ranked as the public search (`market/search.ts`); an empty query
       * lists the newest launches. `[{symbol, full_name, description, exchange, ticker, type}]`.
       * 400 `invalid_request`.
       */
      .get(
        "/search",
        documented({
          tag: "udf",
          summary: "Symbol search (symbol, name, slug, address prefix)",
          description: errorsNote,
          ok: z.array(
            z.object({
              symbol: z.string(),
              full_name: z.string(),
              description: z.string(),
              exchange: z.string(),
              ticker: z.string(),
              type: z.string(),
            }),
          ),
          errors: ["invalid_request"],
        }),
        validate("query", searchQuery),
        async (c) => {
          const { query, limit } = c.req.valid("query");
          const rows =
            query.trim() === ""
              ? await tokenPage(deps.db, { sort: "new", limit })
              : (await searchTokens(deps.db, query, limit)).map((hit) => hit.row);
          return json(rows.map(udfSearchItem));
        },
      )
      /**
       * GET /symbols?symbol= — LibrarySymbolInfo of one token (ticker = checksummed address;
       * pricescale from its current price). 400 `invalid_request`; 404 `token_not_found`
       * (`errmsg` "unknown_symbol: …").
       */
      .get(
        "/symbols",
        documented({
          tag: "udf",
          summary: "Symbol information (LibrarySymbolInfo)",
          description: errorsNote,
          ok: z.looseObject({
            name: z.string(),
            ticker: z.string(),
            session: z.literal("24x7"),
            timezone: z.literal("Etc/UTC"),
            pricescale: z.number().int(),
            minmov: z.literal(1),
            has_intraday: z.literal(true),
            supported_resolutions: z.array(z.string()),
          }),
          errors: ["invalid_request", "token_not_found"],
        }),
        validate("query", symbolsQuery),
        async (c) => {
          const row = await tokenFor(c.req.valid("query").symbol);
          return json(udfSymbolInfo(row));
        },
      )
      /**
       * GET /history?symbol=&resolution=&from=&to=&countback= — bars with `from <= t < to`
       * (`t` = bucket start, unix seconds; o/h/l/c ETH per whole token, v ETH), or
       * `{s: "no_data", nextTime?}` (the last bar before the range). `resolution`: 1S, 15S, 1, 5,
       * 15, 60, 240, 1D, D (or 1s, 15s, 1m … 1d). `countback` (1..1,440) takes priority over
       * `from`. Second bars only for 24 h before the indexed head (a straddling range is clamped,
       * `X-Bars-From-Clamped`). 400 `invalid_request` / `invalid_resolution` / `invalid_range`
       * (more than 1,440 buckets) / `out_of_retention`; 404 `token_not_found`.
       */
      .get(
        "/history",
        documented({
          tag: "udf",
          summary: "Bars (UDF history)",
          description: `Every accepted resolution: ${UDF_SUPPORTED_RESOLUTIONS.join(", ")}, D, 1s, 15s, 1m, 5m, 15m, 1h, 4h, 1d. Second bars (1S, 15S) are served for 24 h before the indexed head's block time: a range entirely older is 400 \`out_of_retention\`, a range straddling the edge is clamped to it (header \`X-Bars-From-Clamped\` = the requested from; \`X-Bars-Retention-Start-Sec\` = the oldest bar served). ${errorsNote}`,
          ok: udfBarsWire,
          errors: candleReadErrors(),
        }),
        validate("query", historyQuery),
        async (c) => {
          const { symbol, resolution, from, to, countback, currency } = c.req.valid("query");
          const row = await tokenFor(symbol);
          // UDF's `to` is exclusive; ours inclusive. `to = 0` asks for nothing before the epoch.
          const last = to - 1;
          if (last < 0) return json({ s: "no_data" });
          if (countback === undefined && from === undefined)
            throw new ApiError("invalid_request", "from: missing (required without countback)");
          const first = countback !== undefined ? countbackStartSec(last, resolution, countback) : from!;
          const address = getAddress(row.address);
          // `[from, to)` with from = to is empty, not an error (UDF's `to` is exclusive): no_data,
          // with `nextTime` = the last bar before it.
          if (countback === undefined && from === to)
            return udfHistoryResponse(
              c,
              deps.db,
              address,
              resolution,
              [],
              { fromSec: BigInt(to), toSec: BigInt(to - 1) },
              {
                fill: false,
                countback,
                currency,
                retentionStartSec: await secondBarsRetentionStart(deps.db, resolution),
              },
            );
          if (first > last) throw new ApiError("invalid_range", CANDLE_MESSAGES.fromAfterTo);
          const requested = candleWindow(resolution, first, last, nowSec());
          const { window, retentionStartSec } = await secondBarsWindow(c, deps.db, resolution, requested);
          const rows = await tokenCandles(deps.db, address, resolution, window.fromSec, window.toSec);
          return udfHistoryResponse(c, deps.db, address, resolution, rows, window, {
            fill: false,
            countback,
            currency,
            retentionStartSec,
          });
        },
      )
  );
}
