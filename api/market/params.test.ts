import { describe, expect, it } from "vitest";
import { ApiError } from "../errors";
import { candleWindow, candlesQuery, MAX_CANDLE_BUCKETS } from "./params";

describe("candle window", () => {
  it("serves exactly one day of 1m candles and refuses one bucket more", () => {
    const from = 1_800_000_000 - (1_800_000_000 % 60);
    const lastOfDay = from + 60 * (MAX_CANDLE_BUCKETS - 1);
    expect(MAX_CANDLE_BUCKETS).toBe(1_440);
    expect(candleWindow("1m", from, lastOfDay, lastOfDay)).toEqual({ fromSec: BigInt(from), toSec: BigInt(lastOfDay) });
    expect(() => candleWindow("1m", from, lastOfDay + 60, lastOfDay)).toThrow(ApiError);
    expect(() => candleWindow("1m", from + 1, from, from)).toThrow(/from must not be after to/);
  });

  it("defaults to the 300 buckets ending now", () => {
    expect(candleWindow("5m", undefined, undefined, 1_000_000)).toEqual({ fromSec: BigInt(1_000_000 - 300 * 299), toSec: 1_000_000n });
  });

  it("accepts countback up to the same cap", () => {
    expect(candlesQuery.safeParse({ resolution: "1", countback: "1440" }).success).toBe(true);
    expect(candlesQuery.safeParse({ resolution: "1", countback: "1441" }).success).toBe(false);
  });
});
