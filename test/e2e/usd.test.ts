/**
 * USD figures (docs/public.md "USD values"), recomputed independently from the chain: the
 * reference pool's Initialize and Swap logs read with viem `getContractEvents`, its orientation
 * read with `readContract`, and the documented rule — a trade is converted at the reference pool's
 * last price at or before its (block, log index); usd = floor(wei × price × 10^18) in 10^-18 USD,
 * served with 18 decimals and trailing zeros dropped. A second stack without a reference pool
 * must serve null in every USD field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { erc20Abi, formatUnits, parseEther, type Address } from "viem";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool";
import { buyToken, launchToken } from "../../devnet/actions";
import { seedDemo } from "../../devnet/seed";
import { startStack, until, type Stack } from "../helpers/harness";

const Q192 = 1n << 192n;
let stack: Stack;
let bare: Stack;

type Served = { id: string; token: string; block_number: number; log_index: number; timestamp_sec: number } & Record<
  string,
  string | number | null
>;

async function waitIndexed(s: Stack): Promise<void> {
  const head = Number(await s.publicClient.getBlockNumber({ cacheTime: 0 }));
  await until("indexed head", async () => {
    const status = (await (await fetch(`${s.service.url}/status`)).json()) as {
      evmchain?: { block?: { number: number } };
    };
    return (status.evmchain?.block?.number ?? 0) >= head ? true : undefined;
  });
}

describe("USD from the reference pool", () => {
  beforeAll(async () => {
    stack = await startStack({ schema: "e2e_usd", env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" } });
    await seedDemo(stack.manifest, { trades: 12 });
    await waitIndexed(stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("serves every trade's and every candle's USD exactly as recomputed from the pool's Swap logs", async () => {
    const pool = stack.manifest.ethUsdPool as Address;
    const client = stack.publicClient;
    const [token0, stable] = await Promise.all([
      client.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: "token0" }),
      Promise.resolve(stack.manifest.contracts.stablecoin as Address),
    ]);
    const wethIsToken0 = token0.toLowerCase() === stack.manifest.contracts.weth.toLowerCase();
    const decimals = await client.readContract({ address: stable, abi: erc20Abi, functionName: "decimals" });
    expect(decimals).toBe(6);
    const logs = await client.getContractEvents({
      address: pool,
      abi: uniswapV3PoolAbi,
      fromBlock: BigInt(stack.manifest.startBlock),
    });
    const prices = logs
      .filter((l) => l.eventName === "Initialize" || l.eventName === "Swap")
      .map((l) => ({
        block: Number(l.blockNumber),
        logIndex: l.logIndex,
        sqrt: (l.args as { sqrtPriceX96: bigint }).sqrtPriceX96,
      }));
    expect(prices.filter((p, i) => i > 0 && p.sqrt !== prices[i - 1]!.sqrt).length).toBeGreaterThanOrEqual(3);
    const unit = 10n ** BigInt(decimals);
    const usdE18 = (wei: bigint, sqrt: bigint) =>
      wethIsToken0
        ? (wei * sqrt * sqrt * 10n ** 18n) / (Q192 * unit)
        : (wei * Q192 * 10n ** 18n) / (sqrt * sqrt * unit);
    const fmt = (v: bigint) => formatUnits(v, 18);
    const priceAt = (block: number, logIndex: number) =>
      prices.filter((p) => p.block < block || (p.block === block && p.logIndex <= logIndex)).at(-1)?.sqrt;

    const { body } = await stack.request("/api/public/trades/recent?limit=100");
    const trades = body.trades as Served[];
    expect(trades.length).toBeGreaterThanOrEqual(12);
    const distinctRates = new Set<string>();
    for (const t of trades) {
      const sqrt = priceAt(t.block_number, t.log_index);
      expect(sqrt, `trade ${t.id} has a reference price`).toBeDefined();
      expect(t.eth_price_usd).toBe(fmt(usdE18(10n ** 18n, sqrt!)));
      expect(t.eth_amount_usd).toBe(fmt(usdE18(BigInt(t.eth_amount_wei as string), sqrt!)));
      expect(t.price_usd).toBe(fmt(usdE18(BigInt(t.price_wei as string), sqrt!)));
      expect(t.market_cap_usd).toBe(fmt(usdE18(BigInt(t.market_cap_wei as string), sqrt!)));
      distinctRates.add(t.eth_price_usd as string);
    }
    expect(distinctRates.size).toBeGreaterThanOrEqual(3);

    // Candles: per token, 1m buckets recomputed from the trades, oldest first.
    const byToken = new Map<string, Served[]>();
    for (const t of [...trades].reverse()) byToken.set(t.token, [...(byToken.get(t.token) ?? []), t]);
    for (const [token, list] of byToken) {
      const buckets = new Map<number, { o: bigint; h: bigint; l: bigint; c: bigint; v: bigint; n: number }>();
      for (const t of list) {
        const sqrt = priceAt(t.block_number, t.log_index)!;
        const p = usdE18(BigInt(t.price_wei as string), sqrt);
        const v = usdE18(BigInt(t.eth_amount_wei as string), sqrt);
        const start = t.timestamp_sec - (t.timestamp_sec % 60);
        const b = buckets.get(start);
        if (!b) buckets.set(start, { o: p, h: p, l: p, c: p, v, n: 1 });
        else buckets.set(start, { o: b.o, h: p > b.h ? p : b.h, l: p < b.l ? p : b.l, c: p, v: b.v + v, n: b.n + 1 });
      }
      const from = Math.min(...buckets.keys());
      const to = Math.max(...buckets.keys());
      const served = await stack.request(
        `/api/v1/evmchain/tokens/${token}/candles?resolution=1m&from=${from}&to=${to}&currency=usd`,
      );
      expect(served.status).toBe(200);
      expect(served.body.currency).toBe("usd");
      expect(served.body.candles).toEqual(
        [...buckets].map(([start, b]) => ({
          bucket_start_sec: start,
          open_usd: fmt(b.o),
          high_usd: fmt(b.h),
          low_usd: fmt(b.l),
          close_usd: fmt(b.c),
          volume_token: expect.any(String),
          volume_usd: fmt(b.v),
          trade_count: b.n,
        })),
      );
      // Token record: current ETH/USD (the newest reference price) and the summed trade values.
      const record = (await stack.request(`/api/public/token/${token}`)).body.token;
      const now = prices.at(-1)!.sqrt;
      expect(record.eth_price_usd).toBe(fmt(usdE18(10n ** 18n, now)));
      expect(record.price_usd).toBe(fmt(usdE18(BigInt(record.price_wei), now)));
      expect(record.market_cap_usd).toBe(fmt(usdE18(BigInt(record.market_cap_wei), now)));
      expect(record.liquidity.total_value_usd).toBe(fmt(usdE18(BigInt(record.liquidity.total_value_wei), now)));
      const all = list.reduce(
        (sum, t) => sum + usdE18(BigInt(t.eth_amount_wei as string), priceAt(t.block_number, t.log_index)!),
        0n,
      );
      expect(record.volume_usd).toBe(fmt(all));
    }
  });
});

describe("without a reference pool", () => {
  beforeAll(async () => {
    bare = await startStack({ schema: "e2e_usd_none", ethUsdReference: false });
    const { event } = await launchToken(bare.wallet(1), bare.publicClient, bare.manifest, {
      name: "Plain",
      symbol: "PLN",
      firstBuyWei: parseEther("0.01"),
    });
    await buyToken(bare.wallet(2), bare.publicClient, bare.manifest, event.token, parseEther("0.02"));
    await waitIndexed(bare);
  });
  afterAll(async () => {
    await bare?.stop();
  });

  it("serves null in every USD field, never 0", async () => {
    expect(bare.manifest.ethUsdPool).toBeUndefined();
    const trades = (await bare.request("/api/public/trades/recent?limit=10")).body.trades as Served[];
    expect(trades.length).toBe(2);
    for (const t of trades)
      for (const field of ["eth_price_usd", "eth_amount_usd", "price_usd", "market_cap_usd"])
        expect(t[field]).toBeNull();
    const token = trades[0]!.token;
    const record = (await bare.request(`/api/public/token/${token}`)).body.token;
    for (const field of [
      "eth_price_usd",
      "price_usd",
      "market_cap_usd",
      "volume_usd",
      "volume_24h_usd",
      "graduation_threshold_usd",
    ])
      expect(record[field], field).toBeNull();
    expect(record.liquidity.total_value_usd).toBeNull();
    const candles = await bare.request(`/api/public/token/${token}/candles?resolution=1m&currency=usd`);
    expect(candles.status).toBe(200);
    expect(candles.body.candles.length).toBeGreaterThan(0);
    for (const k of candles.body.candles)
      for (const field of ["open_usd", "high_usd", "low_usd", "close_usd", "volume_usd"]) expect(k[field]).toBeNull();
    const udf = await bare.request(
      `/api/v1/evmchain/tokens/${token}/candles?resolution=1m&format=udf&currency=usd&countback=10`,
    );
    expect(udf.body.s).toBe("no_data");
  });
});
