/**
 * End to end, the TradingView UDF datafeed at `/api/public/udf`, driven the way TradingView's UDF
 * adapter drives a datafeed URL: `/config` first, then `/time`, `/search` for the user's text,
 * `/symbols` for the chosen ticker, and `/history` per resolution the symbol supports — with
 * `countback`, an empty range (`no_data` + `nextTime`) and errors (`s: "error"`, `errmsg`). Bars
 * are compared with the exact JSON candles of the same token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatEther, getAddress, parseEther, type Address } from "viem";
import { buyToken, launchToken, sellToken } from "../../devnet/actions";
import { startStack, until, type Stack } from "../helpers/harness";

const BASE = "/api/public/udf";
let stack: Stack;
let token: Address;
let lastTradeSec = 0;

beforeAll(async () => {
  stack = await startStack({ schema: "e2e_udf", env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" } });
  const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
    name: "Chart Me",
    symbol: "CHRT",
    firstBuyWei: parseEther("0.02"),
  });
  token = getAddress(launched.event.token);
  await launchToken(stack.wallet(2), stack.publicClient, stack.manifest, { name: "Other Coin", symbol: "OTHR" });
  // Trades a few minutes apart so 1m and 5m bars differ.
  for (const [i, gapSec] of [70, 130, 45, 400].entries()) {
    await stack.publicClient.request({ method: "evm_increaseTime" as never, params: [gapSec] as never });
    if (i === 2) await sellToken(stack.wallet(3), stack.publicClient, stack.manifest, token, parseEther("1000"));
    else await buyToken(stack.wallet(3), stack.publicClient, stack.manifest, token, parseEther("0.01") * BigInt(i + 1));
  }
  const head = await stack.publicClient.getBlock({ blockTag: "latest" });
  lastTradeSec = Number(head.timestamp);
  await until(
    "trades indexed",
    async () => {
      const { body } = await stack.request(`/api/public/token/${token}/trades?limit=200`);
      return body.ok && body.trades.length === 5 ? true : undefined;
    },
    60_000,
  );
});

afterAll(async () => {
  await stack?.stop();
});

describe("UDF datafeed, step by step as a chart does", () => {
  it("configures, finds the symbol, resolves it and loads bars for every supported resolution", async () => {
    // 1. /config
    const config = await stack.request(`${BASE}/config`);
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      supports_search: true,
      supports_time: true,
      supports_group_request: false,
      supports_marks: false,
      supports_timescale_marks: false,
    });
    expect(config.body.supported_resolutions).toEqual(["1S", "15S", "1", "5", "15", "60", "240", "1D"]);
    expect(config.body.ok).toBeUndefined();

    // 2. /time (supports_time): plain unix seconds.
    const time = await stack.request(`${BASE}/time`);
    expect(time.status).toBe(200);
    expect(String(time.body)).toMatch(/^\d+$/);
    expect(Math.abs(Number(time.body) - Date.now() / 1000)).toBeLessThan(60);

    // 3. /search (supports_search): the user types part of the symbol, then part of the address.
    const found = await stack.request(`${BASE}/search?query=chr&type=&exchange=&limit=30`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual([
      {
        symbol: "CHRT",
        full_name: `evmchain:${token}`,
        description: "Chart Me / WETH",
        exchange: "evmchain",
        ticker: token,
        type: "crypto",
      },
    ]);
    expect(
      (await stack.request(`${BASE}/search?query=${token.slice(0, 8).toLowerCase()}`)).body.map(
        (r: { ticker: string }) => r.ticker,
      ),
    ).toContain(token);
    expect((await stack.request(`${BASE}/search?query=coin`)).body.map((r: { symbol: string }) => r.symbol)).toEqual([
      "OTHR",
    ]);
    expect((await stack.request(`${BASE}/search?query=${encodeURIComponent("%")}`)).body).toEqual([]);
    const ticker = found.body[0].ticker as string;

    // 4. /symbols for the chosen ticker (also by full name and slug).
    const info = await stack.request(`${BASE}/symbols?symbol=${ticker}`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      name: "CHRT",
      ticker: token,
      session: "24x7",
      timezone: "Etc/UTC",
      minmov: 1,
      has_intraday: true,
      has_seconds: true,
      seconds_multipliers: ["1", "15"],
      type: "crypto",
      exchange: "evmchain",
    });
    expect(Number.isInteger(Math.log10(info.body.pricescale))).toBe(true);
    for (const r of info.body.supported_resolutions) expect(config.body.supported_resolutions).toContain(r);
    expect((await stack.request(`${BASE}/symbols?symbol=evmchain:${ticker}`)).body.ticker).toBe(token);
    expect((await stack.request(`${BASE}/symbols?symbol=${info.body.slug}`)).body.ticker).toBe(token);
    // A symbol as /search returned it, and as a user types it (any case), resolves too.
    for (const typed of [found.body[0].symbol, String(found.body[0].symbol).toLowerCase()])
      expect((await stack.request(`${BASE}/symbols?symbol=${typed}`)).body.ticker).toBe(token);

    // 5. /history for every resolution the symbol supports: bars equal the exact JSON candles.
    const to = lastTradeSec + 60;
    // [from, to) with from = to is empty (UDF's `to` is exclusive): no_data, nextTime = the last bar.
    const empty = await stack.request(`${BASE}/history?symbol=${ticker}&resolution=1&from=${to}&to=${to}`);
    expect({ status: empty.status, body: empty.body }).toEqual({
      status: 200,
      body: { s: "no_data", nextTime: lastTradeSec - (lastTradeSec % 60) },
    });
    // One day back, except for daily bars: a last trade in the final minute of a UTC day has its
    // day's bar start more than a day before `to`, so they look two days back (1m allows one day).
    // Second bars: as far back as 1,440 buckets allow (24 min of 1S, 6 h of 15S; every trade is in both).
    const fromFor = (r: string) => to - (r === "1S" ? 1_440 : r === "15S" ? 21_600 : r === "1D" ? 2 * 86_400 : 86_400);
    const ours: Record<string, string> = {
      "1S": "1s",
      "15S": "15s",
      "1": "1m",
      "5": "5m",
      "15": "15m",
      "60": "1h",
      "240": "4h",
      "1D": "1d",
    };
    for (const r of info.body.supported_resolutions as string[]) {
      const bars = await stack.request(`${BASE}/history?symbol=${ticker}&resolution=${r}&from=${fromFor(r)}&to=${to}`);
      expect(bars.status).toBe(200);
      expect(bars.body.s).toBe("ok");
      const candles = (
        await stack.request(`/api/public/token/${token}/candles?resolution=${ours[r]}&from=${fromFor(r)}&to=${to - 1}`)
      ).body.candles as Array<{
        bucket_start_sec: number;
        open_wei: string;
        high_wei: string;
        low_wei: string;
        close_wei: string;
        volume_wei: string;
      }>;
      expect(candles.length).toBeGreaterThan(0);
      const eth = (wei: string) => Number(formatEther(BigInt(wei)));
      expect({ r, ...bars.body }).toEqual({
        r,
        s: "ok",
        t: candles.map((k) => k.bucket_start_sec),
        o: candles.map((k) => eth(k.open_wei)),
        h: candles.map((k) => eth(k.high_wei)),
        l: candles.map((k) => eth(k.low_wei)),
        c: candles.map((k) => eth(k.close_wei)),
        v: candles.map((k) => eth(k.volume_wei)),
      });
      for (const t of bars.body.t) expect(t >= fromFor(r) && t < to).toBe(true);
    }
    const minuteBars = (
      await stack.request(`${BASE}/history?symbol=${ticker}&resolution=1&from=${fromFor("1")}&to=${to}`)
    ).body;
    expect(minuteBars.t.length).toBeGreaterThanOrEqual(4);

    // countback takes priority over from: the last 2 one-minute buckets before `to`.
    const lastBarSec = minuteBars.t.at(-1) as number;
    const back = await stack.request(
      `${BASE}/history?symbol=${ticker}&resolution=1&from=${to - 60}&to=${lastBarSec + 60}&countback=2`,
    );
    expect(back.body.t.at(-1)).toBe(lastBarSec);
    expect(back.body.t.every((t: number) => t >= lastBarSec - 60)).toBe(true);
    // `to` is exclusive: a bar starting at `to` is not served.
    const exclusive = await stack.request(
      `${BASE}/history?symbol=${ticker}&resolution=1&from=${lastBarSec - 3_600}&to=${lastBarSec}`,
    );
    expect(exclusive.body.t ?? []).not.toContain(lastBarSec);

    // 6. Scrolling past the data: no_data, with nextTime = the last bar before the range.
    const later = await stack.request(
      `${BASE}/history?symbol=${ticker}&resolution=1&from=${lastBarSec + 600}&to=${lastBarSec + 1_200}`,
    );
    expect(later.body).toEqual({ s: "no_data", nextTime: lastBarSec });
    const before = await stack.request(`${BASE}/history?symbol=${ticker}&resolution=1&from=1000&to=2000`);
    expect(before.body).toEqual({ s: "no_data" });
  });

  it("answers errors as UDF s:error with errmsg, plus the catalogue body", async () => {
    const cases: Array<[string, number, string, string]> = [
      [
        `/symbols?symbol=0x000000000000000000000000000000000000dEaD`,
        404,
        "token_not_found",
        'unknown_symbol: no launched token for "0x000000000000000000000000000000000000dEaD"',
      ],
      [`/symbols`, 400, "invalid_request", "symbol: missing (required)"],
      [
        `/history?symbol=${token}&resolution=2h&from=0&to=100`,
        400,
        "invalid_resolution",
        "resolution must be one of 1s, 15s, 1m, 5m, 15m, 1h, 4h, 1d (or UDF 1, 5, 15, 60, 240, 1D, D, 1S, 15S)",
      ],
      [`/history?symbol=${token}&resolution=1&from=0`, 400, "invalid_request", "to: missing (required)"],
      [
        `/history?symbol=${token}&resolution=1&to=100000`,
        400,
        "invalid_request",
        "from: missing (required without countback)",
      ],
      [
        `/history?symbol=${token}&resolution=1&from=0&to=100000000`,
        400,
        "invalid_range",
        "from and to may be at most 1440 1m buckets apart (86400 s; bounds inclusive)",
      ],
      [
        `/history?symbol=${token}&resolution=1&to=100000&countback=2000`,
        400,
        "invalid_request",
        "countback must be an integer from 1 to 1440",
      ],
      [
        `/history?symbol=nope!&resolution=1&from=0&to=10`,
        404,
        "token_not_found",
        'unknown_symbol: no launched token for "nope!"',
      ],
      [`/search?limit=0`, 400, "invalid_request", "limit must be an integer from 1 to 100"],
    ];
    for (const [path, status, error, message] of cases) {
      const res = await stack.request(`${BASE}${path}`);
      expect({
        path,
        status: res.status,
        s: res.body.s,
        errmsg: res.body.errmsg,
        ok: res.body.ok,
        error: res.body.error,
        message: res.body.message,
      }).toEqual({ path, status, s: "error", errmsg: message, ok: false, error, message });
    }
  });

  it("is described in the OpenAPI document with every accepted resolution", async () => {
    const { body: doc } = await stack.request("/api/openapi.json");
    for (const p of ["config", "time", "search", "symbols", "history"])
      expect(doc.paths[`${BASE}/${p}`]?.get, p).toBeDefined();
    const resolution = doc.paths[`${BASE}/history`].get.parameters.find(
      (x: { name: string }) => x.name === "resolution",
    );
    expect(resolution.schema.enum).toEqual([
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
    const v1 = doc.paths["/api/v1/evmchain/tokens/{address}/candles"].get.parameters.find(
      (x: { name: string }) => x.name === "resolution",
    );
    expect(v1.schema.enum).toEqual(resolution.schema.enum);
  });
});
