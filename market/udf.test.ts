import { describe, expect, it } from "vitest";
import { toUdfHistory, type CandleIn } from "./udf";

const G = 10n ** 9n; // 1 gwei = 1e-9 ETH
const k = (t: number, o: bigint, h: bigint, l: bigint, c: bigint, v: bigint): CandleIn => ({
  bucketStartSec: BigInt(t),
  openE18: o * G,
  highE18: h * G,
  lowE18: l * G,
  closeE18: c * G,
  volumeE18: v * 10n ** 18n,
});

describe("toUdfHistory", () => {
  const candles = [k(120, 3n, 5n, 2n, 4n, 1n), k(300, 4n, 4n, 1n, 1n, 2n)];
  it("shapes bars as parallel arrays in ETH", () => {
    expect(
      toUdfHistory(candles, {
        sizeSec: 60,
        fromSec: 60,
        toSec: 300,
        fill: false,
        prevCloseE18: null,
        nextTimeSec: null,
      }),
    ).toEqual({
      s: "ok",
      t: [120, 300],
      o: [3e-9, 4e-9],
      h: [5e-9, 4e-9],
      l: [2e-9, 1e-9],
      c: [4e-9, 1e-9],
      v: [1, 2],
    });
  });
  it("fills gaps with the previous close and zero volume, from a close known before the range", () => {
    expect(
      toUdfHistory(candles, { sizeSec: 60, fromSec: 60, toSec: 360, fill: true, prevCloseE18: 7n * G, nextTimeSec: 0 }),
    ).toEqual({
      s: "ok",
      t: [60, 120, 180, 240, 300, 360],
      o: [7e-9, 3e-9, 4e-9, 4e-9, 4e-9, 1e-9],
      h: [7e-9, 5e-9, 4e-9, 4e-9, 4e-9, 1e-9],
      l: [7e-9, 2e-9, 4e-9, 4e-9, 1e-9, 1e-9],
      c: [7e-9, 4e-9, 4e-9, 4e-9, 1e-9, 1e-9],
      v: [0, 1, 0, 0, 2, 0],
    });
    // no earlier close: filling starts at the first bar; an unaligned from starts at the next bucket
    const r = toUdfHistory(candles, {
      sizeSec: 60,
      fromSec: 61,
      toSec: 200,
      fill: true,
      prevCloseE18: null,
      nextTimeSec: null,
    });
    expect(r).toMatchObject({ s: "ok", t: [120, 180], v: [1, 0] });
  });
  it("applies countback and reports no_data with nextTime", () => {
    expect(
      toUdfHistory(candles, {
        sizeSec: 60,
        fromSec: 0,
        toSec: 400,
        fill: false,
        prevCloseE18: null,
        countback: 1,
        nextTimeSec: null,
      }),
    ).toMatchObject({ t: [300] });
    expect(
      toUdfHistory([], { sizeSec: 60, fromSec: 600, toSec: 900, fill: false, prevCloseE18: null, nextTimeSec: 300 }),
    ).toEqual({ s: "no_data", nextTime: 300 });
    expect(
      toUdfHistory([], { sizeSec: 60, fromSec: 600, toSec: 900, fill: false, prevCloseE18: null, nextTimeSec: null }),
    ).toEqual({ s: "no_data" });
  });
});
