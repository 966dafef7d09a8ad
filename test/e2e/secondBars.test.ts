/**
 * End to end, second bars (docs/public.md "Second bars"): trades placed on bucket edges (anvil
 * `evm_setNextBlockTimestamp`) — several blocks within one second, several swaps in one block, the
 * last and first second of 15 s buckets and of a minute — then the served 1s and 15s bars equal an
 * independent recomputation from the pool's `Swap` logs (viem `getContractEvents`), wei for wei,
 * on the v1 and public candles endpoints; rolled up to a minute they equal the stored 1m candles
 * (every field, USD included); the UDF datafeed serves the same bars as 1S/15S. Then the head moves
 * 24 h on: a window entirely older answers 400 `out_of_retention`, a straddling one is clamped
 * (`X-Bars-From-Clamped`), and `nextTime` never points past the retention. On PostgreSQL, the
 * aggregation reads the `(token, timestamp_sec)` index of `trade`, not every trade.
 */
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { erc20Abi, formatEther, getAddress, maxUint256, parseEther, type Address, type Hash } from "viem";
import { swapRouterAbi } from "../../abis/SwapRouter";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool";
import * as schema from "../../ponder.schema";
import { buyParams, buyToken, launchToken } from "../../devnet/actions";
import type { MarketDb } from "../../market/db";
import { secondBarsQuery } from "../../market/secondBars";
import { startStack, until, type Stack } from "../helpers/harness";
import { postgresAvailable } from "../helpers/postgres";

const onPostgres = await postgresAvailable();

type Candle = {
  bucket_start_sec: number;
  open_wei: string;
  high_wei: string;
  low_wei: string;
  close_wei: string;
  volume_token: string;
  volume_wei: string;
  volume_buy_wei: string;
  volume_sell_wei: string;
  trade_count: number;
};
type UsdCandle = {
  bucket_start_sec: number;
  open_usd: string | null;
  high_usd: string | null;
  low_usd: string | null;
  close_usd: string | null;
  volume_token: string;
  volume_usd: string | null;
  trade_count: number;
};

let stack: Stack;
let token: Address;
let pool: Address;
let tokenIsToken0: boolean;
let launchBlock: bigint;
/** A minute edge after the setup trades: the placed trades sit around it. */
let t0 = 0;

const rpc = (method: string, params: unknown[]) =>
  stack.publicClient.request({ method: method as never, params: params as never });

async function indexedTo(block: bigint) {
  await until(
    "indexed head",
    async () => {
      const status = (await (await fetch(`${stack.service.url}/status`)).json()) as {
        evmchain?: { block?: { number: number } };
      };
      return (status.evmchain?.block?.number ?? 0) >= Number(block) ? true : undefined;
    },
    60_000,
  );
}

/** Mines one block at `timestampSec` holding the given transactions (each from its own wallet). */
async function block(timestampSec: number, sends: Array<() => Promise<Hash>>) {
  await rpc("evm_setAutomine", [false]);
  const hashes: Hash[] = [];
  try {
    for (const send of sends) hashes.push(await send());
    await rpc("evm_setNextBlockTimestamp", [timestampSec]);
    await rpc("evm_mine", []);
  } finally {
    await rpc("evm_setAutomine", [true]);
  }
  for (const hash of hashes)
    expect((await stack.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
}

const buy = (walletIndex: number, wei: bigint) => () => {
  const wallet = stack.wallet(walletIndex);
  return wallet.writeContract({
    chain: null,
    address: stack.manifest.contracts.swapRouter,
    abi: swapRouterAbi,
    functionName: "exactInputSingle",
    args: [buyParams(stack.manifest, token, wallet.account.address, wei, BigInt(t0 + 200_000))],
    value: wei,
    gas: 400_000n,
  });
};

const sell = (walletIndex: number, tokens: bigint) => () => {
  const wallet = stack.wallet(walletIndex);
  return wallet.writeContract({
    chain: null,
    address: stack.manifest.contracts.swapRouter,
    abi: swapRouterAbi,
    functionName: "exactInputSingle",
    args: [
      {
        tokenIn: token,
        tokenOut: stack.manifest.contracts.weth,
        fee: stack.manifest.launchFactory.poolFee,
        recipient: wallet.account.address,
        deadline: BigInt(t0 + 200_000),
        amountIn: tokens,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n,
      },
    ],
    gas: 400_000n,
  });
};

/** Wei per whole token from sqrtPriceX96 (token1/token0 = sqrtP² / 2^192), floored. */
function priceWeiOf(sqrtPriceX96: bigint): bigint {
  const squared = sqrtPriceX96 ** 2n;
  return tokenIsToken0 ? (squared * 10n ** 18n) >> 192n : ((1n << 192n) * 10n ** 18n) / squared;
}

/** OHLCV recomputed from the pool's Swap logs: bars of `sizeSec` with bucket starts in [from, to]. */
async function barsFromSwapLogs(sizeSec: number, fromSec: number, toSec: number): Promise<Candle[]> {
  const logs = await stack.publicClient.getContractEvents({
    address: pool,
    abi: uniswapV3PoolAbi,
    eventName: "Swap",
    fromBlock: launchBlock,
    toBlock: "latest",
  });
  const times = new Map<bigint, number>();
  for (const { blockNumber } of logs)
    if (!times.has(blockNumber))
      times.set(blockNumber, Number((await stack.publicClient.getBlock({ blockNumber })).timestamp));
  const sorted = [...logs].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
  const bars = new Map<number, Candle>();
  for (const log of sorted) {
    const timestampSec = times.get(log.blockNumber)!;
    const start = timestampSec - (timestampSec % sizeSec);
    if (start < fromSec || start > toSec) continue;
    const tokenDelta = tokenIsToken0 ? log.args.amount0! : log.args.amount1!;
    const wethDelta = tokenIsToken0 ? log.args.amount1! : log.args.amount0!;
    const isBuy = tokenDelta < 0n;
    const abs = (v: bigint) => (v < 0n ? -v : v);
    const price = priceWeiOf(log.args.sqrtPriceX96!);
    const bar = bars.get(start);
    if (!bar) {
      bars.set(start, {
        bucket_start_sec: start,
        open_wei: String(price),
        high_wei: String(price),
        low_wei: String(price),
        close_wei: String(price),
        volume_token: String(abs(tokenDelta)),
        volume_wei: String(abs(wethDelta)),
        volume_buy_wei: String(isBuy ? abs(wethDelta) : 0n),
        volume_sell_wei: String(isBuy ? 0n : abs(wethDelta)),
        trade_count: 1,
      });
      continue;
    }
    const big = (v: string) => BigInt(v);
    bar.high_wei = String(big(bar.high_wei) > price ? big(bar.high_wei) : price);
    bar.low_wei = String(big(bar.low_wei) < price ? big(bar.low_wei) : price);
    bar.close_wei = String(price);
    bar.volume_token = String(big(bar.volume_token) + abs(tokenDelta));
    bar.volume_wei = String(big(bar.volume_wei) + abs(wethDelta));
    if (isBuy) bar.volume_buy_wei = String(big(bar.volume_buy_wei) + abs(wethDelta));
    else bar.volume_sell_wei = String(big(bar.volume_sell_wei) + abs(wethDelta));
    bar.trade_count += 1;
  }
  return [...bars.values()].sort((a, b) => a.bucket_start_sec - b.bucket_start_sec);
}

/** A USD decimal string as 10^-18 USD (null stays null). */
const usdE18 = (usd: string | null) => {
  if (usd === null) return null;
  const [whole, frac = ""] = usd.split(".");
  return BigInt(whole!) * 10n ** 18n + BigInt(frac.padEnd(18, "0"));
};

/** Second bars (wei and USD) rolled up to minutes with the stored candles' rules. */
function rollUp(wei: Candle[], usd: UsdCandle[]) {
  const minutes = new Map<number, { wei: Candle[]; usd: UsdCandle[] }>();
  for (const [i, bar] of wei.entries()) {
    const m = bar.bucket_start_sec - (bar.bucket_start_sec % 60);
    const group = minutes.get(m) ?? { wei: [], usd: [] };
    group.wei.push(bar);
    group.usd.push(usd[i]!);
    minutes.set(m, group);
  }
  const sum = (xs: string[]) => String(xs.reduce((s, x) => s + BigInt(x), 0n));
  const known = (xs: Array<string | null>) => xs.map(usdE18).filter((x): x is bigint => x !== null);
  const max = (xs: bigint[]) => (xs.length ? xs.reduce((a, b) => (a > b ? a : b)) : null);
  const min = (xs: bigint[]) => (xs.length ? xs.reduce((a, b) => (a < b ? a : b)) : null);
  return [...minutes.entries()].map(([m, { wei: w, usd: u }]) => ({
    bucket_start_sec: m,
    open_wei: w[0]!.open_wei,
    high_wei: String(max(w.map((b) => BigInt(b.high_wei)))),
    low_wei: String(min(w.map((b) => BigInt(b.low_wei)))),
    close_wei: w.at(-1)!.close_wei,
    volume_token: sum(w.map((b) => b.volume_token)),
    volume_wei: sum(w.map((b) => b.volume_wei)),
    volume_buy_wei: sum(w.map((b) => b.volume_buy_wei)),
    volume_sell_wei: sum(w.map((b) => b.volume_sell_wei)),
    trade_count: w.reduce((s, b) => s + b.trade_count, 0),
    open_usd: known(u.map((b) => b.open_usd))[0] ?? null,
    high_usd: max(known(u.map((b) => b.high_usd))),
    low_usd: min(known(u.map((b) => b.low_usd))),
    close_usd: known(u.map((b) => b.close_usd)).at(-1) ?? null,
    volume_usd: known(u.map((b) => b.volume_usd)).length
      ? known(u.map((b) => b.volume_usd)).reduce((a, b) => a + b)
      : null,
  }));
}

beforeAll(async () => {
  stack = await startStack({ schema: "e2e_second_bars", env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" } });
  const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
    name: "Second Hand",
    symbol: "SECS",
    firstBuyWei: parseEther("0.02"),
  });
  token = getAddress(launched.event.token);
  pool = getAddress(launched.event.pool);
  launchBlock = launched.receipt.blockNumber;
  tokenIsToken0 = token.toLowerCase() < stack.manifest.contracts.weth.toLowerCase();
  // Sellers: wallets 6 and 7 hold tokens and have approved the router once.
  for (const i of [6, 7]) {
    await buyToken(stack.wallet(i), stack.publicClient, stack.manifest, token, parseEther("0.05"));
    await stack.wallet(i).writeContract({
      chain: null,
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [stack.manifest.contracts.swapRouter, maxUint256],
    });
  }
  const balance = await stack.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [stack.wallet(6).account.address],
  });
  const head = await stack.publicClient.getBlock({ blockTag: "latest" });
  t0 = Math.ceil((Number(head.timestamp) + 30) / 60) * 60;
  const lot = balance / 4n;
  await block(t0 - 1, [buy(2, parseEther("0.001"))]); // last second of a minute and of a 15 s bucket
  await block(t0, [buy(2, parseEther("0.002")), sell(6, lot), buy(3, parseEther("0.003"))]); // 3 swaps, 1 block
  await block(t0, [buy(4, parseEther("0.004"))]); // same second, next block
  await block(t0, [sell(7, lot)]); // same second, third block
  await block(t0 + 14, [buy(2, parseEther("0.005"))]); // last second of the 15 s bucket
  await block(t0 + 15, [buy(3, parseEther("0.006")), buy(4, parseEther("0.007"))]); // first second of the next
  await block(t0 + 29, [sell(6, lot)]);
  await block(t0 + 61, [buy(5, parseEther("0.008"))]); // the next minute
  await indexedTo(await stack.publicClient.getBlockNumber({ cacheTime: 0 }));
});

afterAll(async () => {
  await stack?.stop();
});

describe("second bars", () => {
  it("equal OHLCV recomputed from the Swap logs, wei for wei, on both surfaces", async () => {
    for (const [resolution, size, from, to] of [
      ["1s", 1, t0 - 600, t0 + 600],
      ["15s", 15, t0 - 3_600, t0 + 3_600],
    ] as const) {
      const expected = await barsFromSwapLogs(size, from, to);
      expect(expected.reduce((n, b) => n + b.trade_count, 0)).toBeGreaterThanOrEqual(14);
      for (const path of [`/api/public/token/${token}/candles`, `/api/v1/evmchain/tokens/${token}/candles`]) {
        const res = await stack.request(`${path}?resolution=${resolution}&from=${from}&to=${to}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toEqual({ ok: true, token, resolution, from_sec: from, to_sec: to, candles: expected });
        // Within the retention: nothing clamped, the retention start stated.
        expect(res.headers.get("x-bars-from-clamped")).toBeNull();
        expect(Number(res.headers.get("x-bars-retention-start-sec"))).toBeLessThanOrEqual(from);
      }
    }
    // The edges as placed: three blocks in second t0 make one 1s bar of 5 swaps, opened by the
    // first swap of the first block and closed by the sell of the third.
    const at = (await barsFromSwapLogs(1, t0, t0))[0]!;
    expect(at.trade_count).toBe(5);
    const fifteen = await barsFromSwapLogs(15, t0 - 15, t0 + 15);
    expect(fifteen.map((b) => [b.bucket_start_sec, b.trade_count])).toEqual([
      [t0 - 15, 1],
      [t0, 6],
      [t0 + 15, 3],
    ]);
  });

  it("roll up to the stored 1m candles exactly, in wei and in USD", async () => {
    const q = `from=${t0 - 600}&to=${t0 + 600}`;
    const wei = (await stack.request(`/api/public/token/${token}/candles?resolution=1s&${q}`)).body.candles;
    const usd = (await stack.request(`/api/public/token/${token}/candles?resolution=1s&${q}&currency=usd`)).body
      .candles;
    const minuteQ = `from=${t0 - 600}&to=${t0 + 540}`;
    const storedWei = (await stack.request(`/api/public/token/${token}/candles?resolution=1m&${minuteQ}`)).body
      .candles as Candle[];
    const storedUsd = (await stack.request(`/api/public/token/${token}/candles?resolution=1m&${minuteQ}&currency=usd`))
      .body.candles as UsdCandle[];
    expect(storedWei.length).toBeGreaterThanOrEqual(3);
    expect(usd.every((k: UsdCandle) => k.open_usd !== null)).toBe(true); // the devnet has an ETH/USD pool
    expect(rollUp(wei, usd)).toEqual(
      storedWei.map((k, i) => ({
        ...k,
        open_usd: usdE18(storedUsd[i]!.open_usd),
        high_usd: usdE18(storedUsd[i]!.high_usd),
        low_usd: usdE18(storedUsd[i]!.low_usd),
        close_usd: usdE18(storedUsd[i]!.close_usd),
        volume_usd: usdE18(storedUsd[i]!.volume_usd),
      })),
    );
  });

  it("are the UDF datafeed's 1S and 15S bars, with countback and gap filling as the stored ones", async () => {
    const info = (await stack.request(`/api/public/udf/symbols?symbol=${token}`)).body;
    expect({ has_seconds: info.has_seconds, seconds_multipliers: info.seconds_multipliers }).toEqual({
      has_seconds: true,
      seconds_multipliers: ["1", "15"],
    });
    const eth = (wei: string) => Number(formatEther(BigInt(wei)));
    for (const [r, size] of [
      ["1S", 1],
      ["15S", 15],
    ] as const) {
      const expected = await barsFromSwapLogs(size, t0 - 600, t0 + 599);
      const bars = (
        await stack.request(`/api/public/udf/history?symbol=${token}&resolution=${r}&from=${t0 - 600}&to=${t0 + 600}`)
      ).body;
      expect(bars).toEqual({
        s: "ok",
        t: expected.map((k) => k.bucket_start_sec),
        o: expected.map((k) => eth(k.open_wei)),
        h: expected.map((k) => eth(k.high_wei)),
        l: expected.map((k) => eth(k.low_wei)),
        c: expected.map((k) => eth(k.close_wei)),
        v: expected.map((k) => eth(k.volume_wei)),
      });
      // countback: the last 2 buckets ending before `to` (here: empty ones are not bars).
      const back = await stack.request(
        `/api/public/udf/history?symbol=${token}&resolution=${r}&to=${t0 + 16}&countback=2`,
      );
      expect(back.body.t).toEqual(size === 1 ? [t0 + 14, t0 + 15] : [t0, t0 + 15]);
    }
    // fill=1 on the candles endpoint: every 1 s bucket from t0 to t0 + 14, empty ones at the previous close.
    const filled = (
      await stack.request(`/api/public/token/${token}/candles?resolution=1s&from=${t0}&to=${t0 + 14}&format=udf&fill=1`)
    ).body;
    expect(filled.t).toEqual(Array.from({ length: 15 }, (_, i) => t0 + i));
    for (let i = 1; i < 14; i++) {
      expect([filled.o[i], filled.h[i], filled.l[i], filled.c[i], filled.v[i]]).toEqual([
        filled.c[0],
        filled.c[0],
        filled.c[0],
        filled.c[0],
        0,
      ]);
    }
  });

  it.skipIf(!onPostgres)(
    "aggregate through the (token, timestamp_sec) index of trade, not a scan of all trades",
    async () => {
      const client = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
      await client.connect();
      try {
        for (const off of ["enable_seqscan", "enable_bitmapscan"]) await client.query(`set ${off} = off`);
        await client.query(`set search_path = "${stack.schema}"`);
        const { rows } = await client.query(
          "select indexdef from pg_indexes where schemaname = $1 and indexname = $2",
          [stack.schema, "trade_token_time_idx"],
        );
        expect(rows[0]?.indexdef).toMatch(/\(token, timestamp_sec\)/);
        const db = drizzle(client, { schema }) as unknown as MarketDb;
        for (const resolution of ["1s", "15s"] as const) {
          // The service's own statement (market/secondBars.ts), as drizzle renders it.
          const query = secondBarsQuery(db, token, resolution, BigInt(t0 - 600), BigInt(t0 + 600)).toSQL();
          const plan = (await client.query(`explain ${query.sql}`, query.params)).rows
            .map((r) => r["QUERY PLAN"])
            .join("\n");
          expect(plan).toContain("trade_token_time_idx");
          expect(plan).not.toMatch(/Seq Scan/);
        }
      } finally {
        await client.end();
      }
    },
  );
});

describe("second-bar retention: 24 h before the indexed head", () => {
  let retention1s = 0;
  let retention15s = 0;

  beforeAll(async () => {
    // The head moves a day on (a trade indexed at t0 + 86,500).
    await block(t0 + 86_500, [buy(5, parseEther("0.001"))]);
    await indexedTo(await stack.publicClient.getBlockNumber({ cacheTime: 0 }));
    retention1s = t0 + 100;
    retention15s = t0 + 105; // t0 + 100 rounded up to a 15 s edge (t0 is a minute edge)
  });

  it("refuses a window entirely older with out_of_retention, naming the retention", async () => {
    for (const [path, resolution, start] of [
      [`/api/public/token/${token}/candles?resolution=1s&from=${t0 - 600}&to=${t0 + 60}`, "1s", retention1s],
      [`/api/v1/evmchain/tokens/${token}/candles?resolution=15s&from=${t0 - 600}&to=${t0 + 60}`, "15s", retention15s],
    ] as const) {
      const res = await stack.request(path);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: {
          ok: false,
          error: "out_of_retention",
          message: `${resolution} bars are kept for 24 h (86400 s) before the indexed head's block time: the oldest is ${start}; ask for to >= ${start} or use 1m or longer`,
          ...(res.body.request_id ? { request_id: res.body.request_id } : {}),
        },
      });
    }
    const udf = await stack.request(`/api/public/udf/history?symbol=${token}&resolution=1S&from=${t0}&to=${t0 + 60}`);
    expect({ status: udf.status, s: udf.body.s, error: udf.body.error }).toEqual({
      status: 400,
      s: "error",
      error: "out_of_retention",
    });
    expect(udf.body.errmsg).toContain("kept for 24 h");
    // The stored resolutions keep everything.
    const minute = await stack.request(
      `/api/public/token/${token}/candles?resolution=1m&from=${t0 - 600}&to=${t0 + 60}`,
    );
    expect(minute.body.candles.length).toBeGreaterThan(0);
  });

  it("clamps a window straddling the edge and says so", async () => {
    const from = t0 - 50;
    const res = await stack.request(`/api/public/token/${token}/candles?resolution=15s&from=${from}&to=${t0 + 3_000}`);
    expect(res.status).toBe(200);
    expect({ from_sec: res.body.from_sec, to_sec: res.body.to_sec, candles: res.body.candles }).toEqual({
      from_sec: retention15s,
      to_sec: t0 + 3_000,
      candles: [],
    });
    expect(res.headers.get("x-bars-from-clamped")).toBe(String(from));
    expect(res.headers.get("x-bars-retention-start-sec")).toBe(String(retention15s));
    // The newest bar is served; nextTime never sends a chart past the retention (the stored 1m does).
    const recent = await stack.request(
      `/api/public/token/${token}/candles?resolution=1s&from=${t0 + 86_000}&to=${t0 + 87_000}`,
    );
    expect(recent.body.candles.map((k: Candle) => [k.bucket_start_sec, k.trade_count])).toEqual([[t0 + 86_500, 1]]);
    const empty = await stack.request(
      `/api/public/udf/history?symbol=${token}&resolution=1S&from=${t0 + 200}&to=${t0 + 300}`,
    );
    expect(empty.body).toEqual({ s: "no_data" });
    const minute = await stack.request(
      `/api/public/udf/history?symbol=${token}&resolution=1&from=${t0 + 200}&to=${t0 + 300}`,
    );
    expect(minute.body).toEqual({ s: "no_data", nextTime: t0 + 60 });
    // The empty range [to, to) too.
    const same = (r: string) =>
      `/api/public/udf/history?symbol=${token}&resolution=${r}&from=${t0 + 300}&to=${t0 + 300}`;
    expect((await stack.request(same("1S"))).body).toEqual({ s: "no_data" });
    expect((await stack.request(same("1"))).body).toEqual({ s: "no_data", nextTime: t0 + 60 });
  });
});
