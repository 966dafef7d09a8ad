/**
 * The rankings of the public surface `/api/public` (docs/public.md "Trending" and "Top lists"):
 * tokens ordered by their activity windows, ranked and read at one block and one clock
 * (`market/tokenRankings.ts`). No authentication; bounded lists without a cursor.
 */
import { Hono } from "hono";
import { z } from "zod";
import { ACTIVITY_WINDOW_NAMES, TOP_SORTS, trendingScoreOf } from "../../src/domain/activityWindows";
import { okBody, uintString } from "../../src/domain/wire";
import type { MarketReadDeps } from "../../market/readDeps";
import { topRecords, trendingRecords } from "../../market/tokenReads";
import { tokenRecord } from "../../market/tokenRecord";
import { tokenWire } from "../../market/wire";
import { sendOk } from "../json";
import { documented } from "../openapi/describe";
import { limitParam, validate } from "../validation";

/** The window names as a zod enum tuple. */
const WINDOW_NAMES = ACTIVITY_WINDOW_NAMES as ["m5", "h1", "h6", "h24"];

/** A bounded set (tokens traded in the last 24 h): no cursor. */
const trendingQuery = z.object({ limit: limitParam(20, 100) });
/** A bounded set (tokens traded in the window): no cursor. */
const topQuery = z.object({
  window: z.enum(WINDOW_NAMES, {
    message: `window must be one of ${ACTIVITY_WINDOW_NAMES.join(", ")}`,
  }),
  sort: z.enum(TOP_SORTS, { message: `sort must be one of ${TOP_SORTS.join(", ")}` }),
  limit: limitParam(20, 100),
});

/** Builds the ranking routes of `/api/public` (trending, top lists). */
export function publicRankingRoutes(deps: MarketReadDeps) {
  const { db, nowSec } = deps;
  return (
    new Hono()
      // Ranking: docs/public.md "Trending".
      .get(
        "/tokens/trending",
        documented({
          tag: "public",
          summary: "Tokens by trending score (traded in the last 24 h)",
          description:
            "`trending_score` (wei per hour, decimal string) = the sum over the record's windows of their activity per " +
            "hour: 12 × a(m5) + a(h1) + ⌊a(h6) / 6⌋ + ⌊a(h24) / 24⌋, where a(w) = `volume_wei` + (buys + sells) × " +
            "0.01 ETH. Highest first, ties to the newer launch; only tokens traded in the last 24 h (at most `limit`, " +
            "no cursor).",
          ok: okBody({ tokens: z.array(tokenWire.extend({ trending_score: uintString })) }),
          errors: ["invalid_request"],
        }),
        validate("query", trendingQuery),
        async (c) => {
          const rows = await trendingRecords(db, nowSec(), c.req.valid("query").limit, deps.storedMetadata);
          // The score served is the definition over the record's own windows (same block and clock as the ranking).
          return sendOk(c, {
            tokens: rows.map((row) => ({
              ...tokenRecord(row, deps),
              trending_score: row.windows ? trendingScoreOf(row.windows) : 0n,
            })),
          });
        },
      )
      // Ranking by one activity window: docs/public.md "Top lists".
      .get(
        "/tokens/top",
        documented({
          tag: "public",
          summary: "Tokens traded in one activity window, by its volume, trades or price change",
          description:
            "`window`: m5, h1, h6 or h24 (the record's `windows`). `sort`: `volume` (the window's `volume_wei`, " +
            "highest first), `trades` (buys + sells, most first), `gainers` (`price_change_bps`, highest first) or " +
            "`losers` (lowest first); ties go to the newer launch. Only tokens with a trade in the window are " +
            "listed (at most `limit`, no cursor). Every record is read at the block and clock it was ranked at, so " +
            "the list is in order of the records' own `windows`.",
          ok: okBody({
            window: z.enum(WINDOW_NAMES),
            sort: z.enum(TOP_SORTS),
            tokens: z.array(tokenWire),
          }),
          errors: ["invalid_request"],
        }),
        validate("query", topQuery),
        async (c) => {
          const query = c.req.valid("query");
          const rows = await topRecords(db, nowSec(), query, deps.storedMetadata);
          return sendOk(c, {
            window: query.window,
            sort: query.sort,
            tokens: rows.map((row) => tokenRecord(row, deps)),
          });
        },
      )
  );
}
