/**
 * End to end: anvil + real Uniswap V3 + our contracts, the real service (Ponder + Hono) on PGlite in
 * a temporary folder. A wallet launches a token with a first buy, others buy and sell, and the
 * token, trades and candles served over HTTP must equal values recomputed here from the receipts
 * alone (decoded with viem, price math written out independently of `src/domain`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeEventLog, getAddress, parseEther, type Address, type PublicClient, type TransactionReceipt } from "viem";
import { launchFactoryAbi } from "../../abis/LaunchFactory";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool";
import { buyToken, launchToken, sellToken } from "../../devnet/actions";
import type { DeploymentManifest } from "../../devnet/manifest";
import { startStack, until, type Stack } from "../helpers/harness";
import { postgresAvailable } from "../helpers/postgres";

type ExpectedTrade = {
  id: string;
  side: "buy" | "sell";
  tokenAmount: bigint;
  ethAmountWei: bigint;
  priceWei: bigint;
  sqrtPriceX96: bigint;
  blockNumber: bigint;
  timestampSec: bigint;
  trader: Address;
};

let stack: Stack;
let manifest: DeploymentManifest;
let publicClient: PublicClient;

/** One launched token and every trade expected for it, recomputed from receipts. */
type Scenario = {
  tokenAddress: Address;
  pool: Address;
  tokenIsToken0: boolean;
  totalSupply: bigint;
  creator: Address;
  name: string;
  symbol: string;
  trades: ExpectedTrade[];
};
const scenarios: Scenario[] = [];

/** Independent price: wei per whole token from sqrtPriceX96 (token1/token0 = sqrtP^2 / 2^192). */
function expectedPriceWei(sqrtPriceX96: bigint, isToken0: boolean): bigint {
  const squared = sqrtPriceX96 ** 2n;
  return isToken0 ? (squared * 10n ** 18n) >> 192n : ((1n << 192n) * 10n ** 18n) / squared;
}

async function collectSwaps(scenario: Scenario, receipt: TransactionReceipt, trader: Address) {
  const { pool, tokenIsToken0 } = scenario;
  const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber });
  for (const log of receipt.logs) {
    if (getAddress(log.address) !== pool) continue;
    let decoded;
    try {
      decoded = decodeEventLog({ abi: uniswapV3PoolAbi, data: log.data, topics: log.topics });
    } catch {
      continue;
    }
    if (decoded.eventName !== "Swap") continue;
    const { amount0, amount1, sqrtPriceX96 } = decoded.args;
    const tokenDelta = tokenIsToken0 ? amount0 : amount1;
    const wethDelta = tokenIsToken0 ? amount1 : amount0;
    scenario.trades.push({
      id: `${receipt.transactionHash}-${log.logIndex}`,
      side: tokenDelta < 0n ? "buy" : "sell",
      tokenAmount: tokenDelta < 0n ? -tokenDelta : tokenDelta,
      ethAmountWei: wethDelta < 0n ? -wethDelta : wethDelta,
      priceWei: expectedPriceWei(sqrtPriceX96, tokenIsToken0),
      sqrtPriceX96,
      blockNumber: receipt.blockNumber,
      timestampSec: block.timestamp,
      trader,
    });
  }
}

async function getJson(path: string): Promise<{ status: number; body: any }> {
  return stack.request(path);
}

/**
 * A name whose predicted token address sorts before WETH (token0) or after it (token1), so both
 * pool orientations are exercised on every run.
 */
async function nameForOrientation(creator: Address, wantToken0: boolean): Promise<string> {
  for (let i = 0; i < 64; i++) {
    const name = `End To End ${wantToken0 ? "Zero" : "One"} ${i}`;
    const predicted = await publicClient.readContract({
      address: manifest.contracts.launchFactory,
      abi: launchFactoryAbi,
      functionName: "predictTokenAddress",
      args: [creator, name, "E2E"],
    });
    if (predicted.toLowerCase() < manifest.contracts.weth.toLowerCase() === wantToken0) return name;
  }
  throw new Error("no name found for the wanted orientation");
}

async function runScenario(wantToken0: boolean): Promise<Scenario> {
  const creator = stack.wallet(1);
  const name = await nameForOrientation(creator.account.address, wantToken0);
  const launched = await launchToken(creator, publicClient, manifest, {
    name,
    symbol: "E2E",
    firstBuyWei: parseEther("0.2"),
  });
  const scenario: Scenario = {
    tokenAddress: getAddress(launched.event.token),
    pool: getAddress(launched.event.pool),
    tokenIsToken0: getAddress(launched.event.token).toLowerCase() < manifest.contracts.weth.toLowerCase(),
    totalSupply: launched.event.totalSupply,
    creator: creator.account.address,
    name,
    symbol: "E2E",
    trades: [],
  };
  expect(scenario.tokenIsToken0).toBe(wantToken0);
  await collectSwaps(scenario, launched.receipt, creator.account.address);
  expect(scenario.trades).toHaveLength(1);

  const buyer = stack.wallet(2);
  const other = stack.wallet(3);
  for (const amount of ["0.05", "0.3", "0.01"]) {
    const { receipt } = await buyToken(buyer, publicClient, manifest, scenario.tokenAddress, parseEther(amount));
    await collectSwaps(scenario, receipt, buyer.account.address);
  }
  const sold = await sellToken(
    buyer,
    publicClient,
    manifest,
    scenario.tokenAddress,
    scenario.trades[1]!.tokenAmount / 2n,
  );
  await collectSwaps(scenario, sold.receipt, buyer.account.address);
  const { receipt } = await buyToken(other, publicClient, manifest, scenario.tokenAddress, parseEther("0.02"));
  await collectSwaps(scenario, receipt, other.account.address);
  expect(scenario.trades.map((t) => t.side)).toEqual(["buy", "buy", "buy", "buy", "sell", "buy"]);
  return scenario;
}

const modes = [
  { database: "pglite" as const, available: true },
  { database: "postgres" as const, available: await postgresAvailable() },
];

describe.each(modes)("market data over HTTP equals the receipts ($database)", ({ database, available }) => {
  if (!available) {
    it.skip("PostgreSQL at TEST_DATABASE_URL is not reachable", () => undefined);
    return;
  }
  beforeAll(async () => {
    scenarios.length = 0;
    stack = await startStack({ schema: "e2e_market", database });
    manifest = stack.manifest;
    publicClient = stack.publicClient;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("indexes launches with a first buy, then buys and sells, in both pool orientations", async () => {
    scenarios.push(await runScenario(true), await runScenario(false));
    for (const s of scenarios) {
      const served = await until("all trades indexed", async () => {
        const { body } = await getJson(`/api/v1/evmchain/tokens/${s.tokenAddress}/trades?limit=200`);
        return body.ok && body.trades.length === s.trades.length ? body : undefined;
      });
      expect(served.trades).toEqual(
        [...s.trades].reverse().map((t) => ({
          id: t.id,
          token: s.tokenAddress,
          pool: s.pool,
          side: t.side,
          trader: t.trader,
          recipient: expect.any(String),
          token_amount: t.tokenAmount.toString(),
          eth_amount_wei: t.ethAmountWei.toString(),
          price_wei: t.priceWei.toString(),
          market_cap_wei: ((t.priceWei * s.totalSupply) / 10n ** 18n).toString(),
          sqrt_price_x96: t.sqrtPriceX96.toString(),
          tick: expect.any(Number),
          block_number: Number(t.blockNumber),
          log_index: Number(t.id.split("-")[1]),
          timestamp_sec: Number(t.timestampSec),
          tx_hash: t.id.split("-")[0],
          // The devnet has an ETH/USD reference pool: each trade carries its USD values, recomputed
          // exactly from the reference pool's Swap logs in test/e2e/usd.test.ts.
          eth_price_usd: expect.any(String),
          eth_amount_usd: expect.any(String),
          price_usd: expect.any(String),
          market_cap_usd: expect.any(String),
        })),
      );
    }
  });

  it("serves token records with totals recomputed from the receipts", async () => {
    for (const s of scenarios) {
      const { status, body } = await getJson(`/api/v1/evmchain/tokens/${s.tokenAddress.toLowerCase()}`);
      expect(status).toBe(200);
      const last = s.trades.at(-1)!;
      const sum = (pick: (t: ExpectedTrade) => bigint) => s.trades.reduce((acc, t) => acc + pick(t), 0n);
      expect(body.ok).toBe(true);
      expect(body.token).toMatchObject({
        address: s.tokenAddress,
        name: s.name,
        symbol: s.symbol,
        decimals: 18,
        total_supply: (10n ** 27n).toString(),
        creator: s.creator,
        factory: manifest.contracts.launchFactory,
        pool: s.pool,
        token0: s.tokenIsToken0 ? s.tokenAddress : manifest.contracts.weth,
        token1: s.tokenIsToken0 ? manifest.contracts.weth : s.tokenAddress,
        price_wei: last.priceWei.toString(),
        sqrt_price_x96: last.sqrtPriceX96.toString(),
        market_cap_wei: ((last.priceWei * s.totalSupply) / 10n ** 18n).toString(),
        volume_wei: sum((t) => t.ethAmountWei).toString(),
        volume_token: sum((t) => t.tokenAmount).toString(),
        trade_count: 6,
        buy_count: 5,
        sell_count: 1,
        first_buy_wei: parseEther("0.2").toString(),
        first_buy_tokens_out: s.trades[0]!.tokenAmount.toString(),
      });
      const publicToken = await getJson(`/api/public/token/${s.tokenAddress}`);
      expect(publicToken.body.token).toEqual(body.token);
    }
    const listed = await getJson(`/api/public/tokens/new?limit=5`);
    expect(listed.body.tokens.map((t: { address: string }) => t.address)).toEqual(
      [...scenarios].reverse().map((s) => s.tokenAddress),
    );
    const recent = await getJson(`/api/public/trades/recent?limit=2`);
    expect(recent.body.trades.map((t: { id: string }) => t.id)).toEqual(
      [...scenarios.at(-1)!.trades]
        .reverse()
        .slice(0, 2)
        .map((t) => t.id),
    );
  });

  it("serves candles equal to OHLCV bucketed from the receipts, for every resolution", async () => {
    const sizes = { "1m": 60n, "5m": 300n, "15m": 900n, "1h": 3600n, "4h": 14_400n, "1d": 86_400n } as const;
    for (const s of scenarios) {
      for (const [resolution, size] of Object.entries(sizes)) {
        const buckets = new Map<
          bigint,
          { o: bigint; h: bigint; l: bigint; c: bigint; vt: bigint; vw: bigint; vb: bigint; vs: bigint; n: number }
        >();
        for (const t of s.trades) {
          const start = (t.timestampSec / size) * size;
          const b = buckets.get(start);
          if (!b)
            buckets.set(start, {
              o: t.priceWei,
              h: t.priceWei,
              l: t.priceWei,
              c: t.priceWei,
              vt: t.tokenAmount,
              vw: t.ethAmountWei,
              vb: t.side === "buy" ? t.ethAmountWei : 0n,
              vs: t.side === "sell" ? t.ethAmountWei : 0n,
              n: 1,
            });
          else {
            b.h = t.priceWei > b.h ? t.priceWei : b.h;
            b.l = t.priceWei < b.l ? t.priceWei : b.l;
            b.c = t.priceWei;
            b.vt += t.tokenAmount;
            b.vw += t.ethAmountWei;
            if (t.side === "buy") b.vb += t.ethAmountWei;
            else b.vs += t.ethAmountWei;
            b.n += 1;
          }
        }
        const from = Number(s.trades[0]!.timestampSec - size);
        const to = Number(s.trades.at(-1)!.timestampSec + size);
        const { status, body } = await getJson(
          `/api/v1/evmchain/tokens/${s.tokenAddress}/candles?resolution=${resolution}&from=${from}&to=${to}`,
        );
        expect(status).toBe(200);
        expect(body.candles).toEqual(
          [...buckets.entries()].map(([start, b]) => ({
            bucket_start_sec: Number(start),
            open_wei: b.o.toString(),
            high_wei: b.h.toString(),
            low_wei: b.l.toString(),
            close_wei: b.c.toString(),
            volume_token: b.vt.toString(),
            volume_wei: b.vw.toString(),
            volume_buy_wei: b.vb.toString(),
            volume_sell_wei: b.vs.toString(),
            trade_count: b.n,
          })),
        );
      }
    }
  });

  it("pages v1 trades with the public trade lists' cursor and with before_timestamp", async () => {
    const s = scenarios[0]!;
    const base = `/api/v1/evmchain/tokens/${s.tokenAddress}/trades`;
    const all = (await getJson(`${base}?limit=200`)).body;
    expect(all.trades.length).toBeGreaterThan(3);
    expect(all.next_cursor).toBeNull();
    const paged: unknown[] = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await getJson(`${base}?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(status).toBe(200);
      expect(body.trades.length).toBeLessThanOrEqual(2);
      paged.push(...body.trades);
      cursor = body.next_cursor;
    } while (cursor);
    expect(paged).toEqual(all.trades);
    // The same cursor as the public token trades: each surface accepts the other's.
    const pub = (await getJson(`/api/public/token/${s.tokenAddress}/trades?limit=2`)).body;
    const v1 = (await getJson(`${base}?limit=2`)).body;
    expect(v1.next_cursor).toBe(pub.next_cursor);
    expect((await getJson(`${base}?limit=2&cursor=${pub.next_cursor}`)).body.trades).toEqual(all.trades.slice(2, 4));
    // before_timestamp keeps trades with an earlier block time (strictly), combinable with limit.
    const times = [...new Set(all.trades.map((t: { timestamp_sec: number }) => t.timestamp_sec))] as number[];
    for (const before of [...times, Math.max(...times) + 1, Math.min(...times) - 1]) {
      const older = (await getJson(`${base}?limit=200&before_timestamp=${before}`)).body;
      expect(older.trades).toEqual(all.trades.filter((t: { timestamp_sec: number }) => t.timestamp_sec < before));
    }
    const newest = Math.max(...times) + 1;
    expect((await getJson(`${base}?limit=1&before_timestamp=${newest}`)).body.trades).toEqual(all.trades.slice(0, 1));
    // Anything but an issued cursor is 400 invalid_cursor; a bad before_timestamp invalid_request.
    const forged = Buffer.from(JSON.stringify({ s: 1 })).toString("base64url");
    for (const bad of ["garbage", "not*base64", forged, "x".repeat(401)]) {
      const { status, body } = await getJson(`${base}?cursor=${bad}`);
      expect({ bad, status, error: body.error }).toEqual({ bad, status: 400, error: "invalid_cursor" });
    }
    for (const bad of ["-1", "1.5", "soon"]) {
      const { status, body } = await getJson(`${base}?before_timestamp=${bad}`);
      expect({ status, ok: body.ok, error: body.error, message: body.message }).toEqual({
        status: 400,
        ok: false,
        error: "invalid_request",
        message: "before_timestamp must be unix seconds (a non-negative integer)",
      });
    }
  });

  it("answers bad input with 400 and the error body, unknown tokens with 404", async () => {
    const tokenAddress = scenarios[0]!.tokenAddress;
    const cases: Array<[string, number, string]> = [
      ["/api/v1/evmchain/tokens/0x123", 400, "invalid_address"],
      ["/api/v1/evmchain/tokens/not-an-address/trades", 400, "invalid_address"],
      [`/api/v1/evmchain/tokens/${tokenAddress}/trades?limit=0`, 400, "invalid_request"],
      [`/api/v1/evmchain/tokens/${tokenAddress}/trades?limit=201`, 400, "invalid_request"],
      [`/api/v1/evmchain/tokens/${tokenAddress}/trades?limit=abc`, 400, "invalid_request"],
      [`/api/v1/evmchain/tokens/${tokenAddress}/candles?resolution=2m`, 400, "invalid_resolution"],
      [`/api/v1/evmchain/tokens/${tokenAddress}/candles?resolution=2h`, 400, "invalid_resolution"],
      [`/api/v1/evmchain/tokens/${tokenAddress}/candles`, 400, "invalid_request"],
      [
        `/api/v1/evmchain/tokens/${tokenAddress}/candles?resolution=1&format=udf&countback=2000`,
        400,
        "invalid_request",
      ],
      [`/api/v1/evmchain/tokens/${tokenAddress}/trades?cursor=garbage`, 400, "invalid_cursor"],
      [`/api/v1/evmchain/tokens/${tokenAddress}/candles?resolution=1m&from=200&to=100`, 400, "invalid_range"],
      [`/api/v1/evmchain/tokens/${tokenAddress}/candles?resolution=1m&from=0&to=6000000`, 400, "invalid_range"],
      [`/api/v1/evmchain/tokens/${tokenAddress}/candles?resolution=1m&from=-5`, 400, "invalid_request"],
      ["/api/public/tokens/new?limit=101", 400, "invalid_request"],
      ["/api/public/trades/recent?limit=1.5", 400, "invalid_request"],
      ["/api/v1/evmchain/tokens/0x000000000000000000000000000000000000dEaD", 404, "token_not_found"],
      ["/api/public/token/0x000000000000000000000000000000000000dEaD", 404, "token_not_found"],
      ["/api/public/token/no-such-slug/trades", 404, "token_not_found"],
    ];
    for (const [path, status, error] of cases) {
      const res = await getJson(path);
      expect({ path, status: res.status, ok: res.body.ok, error: res.body.error }).toEqual({
        path,
        status,
        ok: false,
        error,
      });
      expect(typeof res.body.message).toBe("string");
    }
    // The catalogue's wording through the real service, not the schema library's.
    const message = async (path: string) => (await getJson(path)).body.message;
    expect(await message(`/api/v1/evmchain/tokens/${tokenAddress}/candles`)).toBe("resolution: missing (required)");
    expect(await message(`/api/v1/evmchain/tokens/${tokenAddress}/candles?resolution=2h`)).toBe(
      "resolution must be one of 1s, 15s, 1m, 5m, 15m, 1h, 4h, 1d (or UDF 1, 5, 15, 60, 240, 1D, D, 1S, 15S)",
    );
    expect(
      await message(`/api/v1/evmchain/tokens/${tokenAddress}/candles?resolution=1&format=udf&countback=2000`),
    ).toBe("countback must be an integer from 1 to 1440");
    expect(await message("/api/public/integrations/evmchain/token-metadata")).toBe("address: missing (required)");
    // "A day of 1m candles": from = to − 86,400 (1,441 inclusive bucket starts) is served; one
    // second more is refused.
    const to = Math.floor(Date.now() / 1000);
    const day = await getJson(
      `/api/v1/evmchain/tokens/${tokenAddress}/candles?resolution=1m&from=${to - 86_400}&to=${to}`,
    );
    expect([day.status, day.body.ok, day.body.from_sec, day.body.to_sec]).toEqual([200, true, to - 86_400, to]);
    const more = await getJson(
      `/api/v1/evmchain/tokens/${tokenAddress}/candles?resolution=1m&from=${to - 86_401}&to=${to}`,
    );
    expect([more.status, more.body.error]).toEqual([400, "invalid_range"]);
  });
});
