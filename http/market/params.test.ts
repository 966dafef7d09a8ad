import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors";
import { validate } from "../validation";
import {
  ACCEPTED_RESOLUTIONS,
  CANDLE_MESSAGES,
  candleWindow,
  candlesQuery,
  MAX_CANDLE_BUCKETS,
  tradePageQuery,
} from "./params";

describe("candle window", () => {
  it("serves a day of 1m candles with inclusive bounds (1,441 bucket starts) and refuses one second more", () => {
    const to = 1_800_000_000 - (1_800_000_000 % 60);
    const from = to - 86_400;
    expect(MAX_CANDLE_BUCKETS).toBe(1_440);
    // The documented request: from = to − 1 day; both bounds are bucket starts, 1,441 buckets.
    expect(candleWindow("1m", from, to, to)).toEqual({ fromSec: BigInt(from), toSec: BigInt(to) });
    expect((to - from) / 60 + 1).toBe(1_441);
    expect(() => candleWindow("1m", from - 1, to, to)).toThrow(
      new ApiError("invalid_range", CANDLE_MESSAGES.tooWide("1m")),
    );
    expect(() => candleWindow("1m", from, to + 1, to)).toThrow(ApiError);
    // The same span rule at every resolution: 1,440 bucket lengths.
    expect(candleWindow("1d", to - 1_440 * 86_400, to, to).fromSec).toBe(BigInt(to - 1_440 * 86_400));
    expect(() => candleWindow("1d", to - 1_440 * 86_400 - 1, to, to)).toThrow(/at most 1440 1d buckets apart/);
    expect(() => candleWindow("1m", from + 1, from, from)).toThrow(
      new ApiError("invalid_range", "from must not be after to"),
    );
  });

  it("defaults to the 300 buckets ending now", () => {
    expect(candleWindow("5m", undefined, undefined, 1_000_000)).toEqual({
      fromSec: BigInt(1_000_000 - 300 * 299),
      toSec: 1_000_000n,
    });
  });
});

/** The validator with the catalogue's error body, as every route uses it. */
function appFor(schema: Parameters<typeof validate>[1]) {
  return new Hono()
    .get("/x", validate("query", schema), (c) => c.json({ ok: true, query: c.req.valid("query" as never) }))
    .onError((err, c) =>
      err instanceof ApiError
        ? c.json({ ok: false, error: err.code, message: err.message }, err.status)
        : c.json({ ok: false, error: "internal_error", message: String(err) }, 500),
    );
}

async function ask(schema: Parameters<typeof validate>[1], query: string) {
  const res = await appFor(schema).request(`/x?${query}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("candles query: codes and messages of the catalogue", () => {
  it("accepts every documented resolution, ours and UDF's", async () => {
    expect(ACCEPTED_RESOLUTIONS).toEqual([
      "1s",
      "15s",
      "1m",
      "5m",
      "15m",
      "1h",
      "4h",
      "1d",
      "1",
      "5",
      "15",
      "60",
      "240",
      "1D",
      "D",
      "1S",
      "15S",
    ]);
    const expected: Record<string, string> = {
      "1": "1m",
      "5": "5m",
      "15": "15m",
      "60": "1h",
      "240": "4h",
      "1D": "1d",
      D: "1d",
      "1S": "1s",
      "15S": "15s",
    };
    for (const r of ACCEPTED_RESOLUTIONS) {
      const { status, body } = await ask(candlesQuery, `resolution=${r}`);
      expect({ r, status, resolution: (body.query as { resolution: string }).resolution }).toEqual({
        r,
        status: 200,
        resolution: expected[r] ?? r,
      });
    }
  });

  it("answers each bad parameter with its code and exact message", async () => {
    const cases: Array<[string, string, string]> = [
      ["resolution=2h", "invalid_resolution", CANDLE_MESSAGES.resolution],
      ["resolution=1M", "invalid_resolution", CANDLE_MESSAGES.resolution],
      ["resolution=", "invalid_resolution", CANDLE_MESSAGES.resolution],
      ["", "invalid_request", "resolution: missing (required)"],
      ["from=5", "invalid_request", "resolution: missing (required)"],
      ["resolution=1m&countback=2000", "invalid_request", "countback must be an integer from 1 to 1440"],
      ["resolution=1m&countback=0", "invalid_request", "countback must be an integer from 1 to 1440"],
      ["resolution=1m&countback=1.5", "invalid_request", "countback must be an integer from 1 to 1440"],
      ["resolution=1m&countback=many", "invalid_request", "countback must be an integer from 1 to 1440"],
      ["resolution=1m&from=-5", "invalid_request", "from must be unix seconds (a non-negative integer)"],
      ["resolution=1m&from=soon", "invalid_request", "from must be unix seconds (a non-negative integer)"],
      ["resolution=1m&to=1.5", "invalid_request", "to must be unix seconds (a non-negative integer)"],
      ["resolution=1m&to=999999999999", "invalid_request", "to must be before year 10000"],
      ["resolution=1m&format=csv", "invalid_request", "format must be json or udf"],
      ["resolution=1m&fill=yes", "invalid_request", "fill must be 0 or 1"],
    ];
    for (const [query, error, message] of cases) {
      const { status, body } = await ask(candlesQuery, query);
      expect({ query, status, body }).toEqual({ query, status: 400, body: { ok: false, error, message } });
    }
  });

  it("accepts countback up to the cap", async () => {
    expect((await ask(candlesQuery, "resolution=1&countback=1440")).status).toBe(200);
    expect((await ask(candlesQuery, "resolution=1&countback=1441")).body.message).toBe(
      "countback must be an integer from 1 to 1440",
    );
  });
});

describe("v1 trade page query", () => {
  it("takes limit, cursor and before_timestamp, with catalogue codes and messages", async () => {
    expect((await ask(tradePageQuery, "")).body.query).toEqual({ limit: 50 });
    expect((await ask(tradePageQuery, "limit=2&cursor=abc&before_timestamp=1700000000")).body.query).toEqual({
      limit: 2,
      cursor: "abc",
      before_timestamp: 1_700_000_000,
    });
    const cases: Array<[string, string, string]> = [
      ["limit=0", "invalid_request", "limit must be at least 1"],
      ["limit=201", "invalid_request", "limit must be at most 200"],
      ["limit=x", "invalid_request", "limit must be an integer"],
      [`cursor=${"a".repeat(401)}`, "invalid_cursor", "cursor is not one this endpoint issued"],
      ["before_timestamp=-1", "invalid_request", "before_timestamp must be unix seconds (a non-negative integer)"],
      ["before_timestamp=now", "invalid_request", "before_timestamp must be unix seconds (a non-negative integer)"],
    ];
    for (const [query, error, message] of cases) {
      const { status, body } = await ask(tradePageQuery, query);
      expect({ query, status, body }).toEqual({ query, status: 400, body: { ok: false, error, message } });
    }
  });
});
