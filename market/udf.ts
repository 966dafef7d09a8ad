/**
 * TradingView UDF `/history` shaping (TradingView Charting Library, UDF adapter: "Bars" —
 * `s: "ok" | "no_data"`, parallel arrays `t,o,h,l,c,v`, `nextTime` with `no_data`). Pure.
 *
 * Units: `t` unix seconds (bucket start), `o/h/l/c` ETH per whole token and `v` ETH volume, as JSON
 * numbers (UDF carries floats; exact wei values stay on the JSON format of the same endpoint).
 */
import { formatEther } from "viem";

/**
 * UDF resolution names accepted besides ours: 1, 5, 15, 60, 240 (minutes), 1D (D), and the
 * second bars 1S, 15S (TradingView's `xS` format).
 */
export const UDF_RESOLUTIONS = {
  "1": "1m",
  "5": "5m",
  "15": "15m",
  "60": "1h",
  "240": "4h",
  "1D": "1d",
  D: "1d",
  "1S": "1s",
  "15S": "15s",
} as const;

/**
 * A bar as the shaper reads it, in 18-decimal fixed point: wei per whole token and wei of volume
 * for ETH bars, USD x 10^18 per whole token and of volume for USD bars (both have the decimals of
 * wei, so one `formatEther` renders either).
 */
export type CandleIn = {
  bucketStartSec: bigint;
  openE18: bigint;
  highE18: bigint;
  lowE18: bigint;
  closeE18: bigint;
  volumeE18: bigint;
};

/**
 * A stored ETH candle as a shaper bar.
 * @example ethBar({ bucketStartSec: 60n, openWei: 1n, highWei: 2n, lowWei: 1n, closeWei: 2n, volumeWei: 5n }).closeE18 // 2n
 */
export function ethBar(row: {
  bucketStartSec: bigint;
  openWei: bigint;
  highWei: bigint;
  lowWei: bigint;
  closeWei: bigint;
  volumeWei: bigint;
}): CandleIn {
  return {
    bucketStartSec: row.bucketStartSec,
    openE18: row.openWei,
    highE18: row.highWei,
    lowE18: row.lowWei,
    closeE18: row.closeWei,
    volumeE18: row.volumeWei,
  };
}

/** UDF history response. */
export type UdfHistory =
  | { s: "ok"; t: number[]; o: number[]; h: number[]; l: number[]; c: number[]; v: number[] }
  | { s: "no_data"; nextTime?: number };

const eth = (wei: bigint) => Number(formatEther(wei));

/**
 * Shapes candles (oldest first, bucket starts within [fromSec, toSec]) as a UDF history answer.
 * @param candles - stored candles of one resolution
 * @param opts.sizeSec - bucket length
 * @param opts.fromSec / opts.toSec - requested range (bucket starts, inclusive)
 * @param opts.fill - emit empty buckets: open = high = low = close = previous close, volume 0,
 *   from the first bucket with a known close (`prevCloseE18` or the first candle) up to `toSec`
 * @param opts.prevCloseE18 - close of the last candle before `fromSec` (null if none)
 * @param opts.countback - keep only the last `countback` bars
 * @param opts.nextTimeSec - bucket start of the last candle before `fromSec` (for `no_data`)
 * @example toUdfHistory([], { sizeSec: 60, fromSec: 0, toSec: 60, fill: false, prevCloseE18: null, nextTimeSec: null }) // { s: "no_data" }
 */
export function toUdfHistory(
  candles: readonly CandleIn[],
  opts: {
    sizeSec: number;
    fromSec: number;
    toSec: number;
    fill: boolean;
    prevCloseE18: bigint | null;
    countback?: number;
    nextTimeSec: number | null;
  },
): UdfHistory {
  const bars: Array<{ t: number; o: bigint; h: bigint; l: bigint; c: bigint; v: bigint }> = candles.map((k) => ({
    t: Number(k.bucketStartSec),
    o: k.openE18,
    h: k.highE18,
    l: k.lowE18,
    c: k.closeE18,
    v: k.volumeE18,
  }));
  let out = bars;
  if (opts.fill) {
    out = [];
    const byT = new Map(bars.map((b) => [b.t, b]));
    const firstStart = opts.fromSec - (opts.fromSec % opts.sizeSec);
    let prev = opts.prevCloseE18;
    for (
      let t = firstStart < opts.fromSec ? firstStart + opts.sizeSec : firstStart;
      t <= opts.toSec;
      t += opts.sizeSec
    ) {
      const bar = byT.get(t);
      if (bar) {
        out.push(bar);
        prev = bar.c;
      } else if (prev !== null) out.push({ t, o: prev, h: prev, l: prev, c: prev, v: 0n });
    }
  }
  if (opts.countback !== undefined) out = out.slice(-opts.countback);
  if (out.length === 0)
    return opts.nextTimeSec === null ? { s: "no_data" } : { s: "no_data", nextTime: opts.nextTimeSec };
  return {
    s: "ok",
    t: out.map((b) => b.t),
    o: out.map((b) => eth(b.o)),
    h: out.map((b) => eth(b.h)),
    l: out.map((b) => eth(b.l)),
    c: out.map((b) => eth(b.c)),
    v: out.map((b) => eth(b.v)),
  };
}
