/**
 * Activity windows (docs/public.md "Activity windows") and batch reads ("Batch reads") on the real
 * service over PostgreSQL. The chain's clock starts a day and an hour behind the wall clock, and
 * trades are placed (anvil `evm_setNextBlockTimestamp`) so each window's edge separates them:
 * before the 24 h cutoff, inside h24 only, inside h6 only, inside h1 only, and a burst of buys and
 * sells by three wallets just ahead of the wall clock (inside every window, m5 included). Every
 * trade is at least 600 s from any edge a request inside the test's 15-minute horizon can see,
 * so the expected figures do not depend on the second the service reads its clock.
 *
 * The expected figures are recomputed from the receipts' pool Swap logs (side, WETH amount and
 * price from the log, trader = the receipt's sender, time = the block's timestamp), with the price
 * formula written out here; only the USD volume is summed from the served trades' `eth_amount_usd`
 * (each recomputed from the reference pool in `test/e2e/usd.test.ts`).
 */
import pg from "pg";
import { sql } from "ponder";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeEventLog, getAddress, parseEther, type Address, type TransactionReceipt } from "viem";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool";
import { buyToken, launchToken, sellToken } from "../../devnet/actions";
import * as schema from "../../ponder.schema";
import type { MarketDb } from "../../market/db";
import { activityWindows } from "../../market/tokenWindows";
import { windowRecord } from "../../src/domain/activityWindows";
import { jsonValue } from "../../src/domain/json";
import { topTokens, trendingTokens, windowTotals } from "../../market/tokenRankings";
import { startStack, until, type Stack } from "../helpers/harness";
import { postgresAvailable } from "../helpers/postgres";

const available = await postgresAvailable();
const WINDOWS = { m5: 300, h1: 3_600, h6: 21_600, h24: 86_400 } as const;
type Name = keyof typeof WINDOWS;

type ChainTrade = {
  side: "buy" | "sell";
  trader: string;
  ethAmountWei: bigint;
  priceWei: bigint;
  blockNumber: bigint;
  logIndex: number;
  timestampSec: bigint;
};

/** Wei per whole token from sqrtPriceX96 (token1/token0 = sqrtP² / 2^192), floored. */
function priceWeiOf(sqrtPriceX96: bigint, tokenIsToken0: boolean): bigint {
  const squared = sqrtPriceX96 ** 2n;
  return tokenIsToken0 ? (squared * 10n ** 18n) >> 192n : ((1n << 192n) * 10n ** 18n) / squared;
}

/** The USD decimal string as 10^-18 USD. */
function usdE18(usd: string | null): bigint {
  if (usd === null) return 0n;
  const [whole, frac = ""] = usd.split(".");
  return BigInt(whole!) * 10n ** 18n + BigInt(frac.padEnd(18, "0"));
}

describe.skipIf(!available)("activity windows and batch reads", () => {
  const startedSec = Math.floor(Date.now() / 1000);
  /** Requests must be made before this for the windows' contents to stay fixed. */
  const horizonSec = startedSec + 900;
  let stack: Stack;
  let token: Address;
  let pool: Address;
  let launchPriceWei: bigint;
  /** The windows' token's chain trades. */
  let trades: ChainTrade[] = [];
  let quiet: Address;
  let alpha: Address;
  let beta: Address;

  const rpc = (method: string, params: unknown[]) =>
    stack.publicClient.request({ method: method as never, params: params as never });
  /** Mines an empty block at `timestampSec`, so the next transaction's deadline is computed from there. */
  const moveTo = async (timestampSec: number) => {
    await rpc("evm_setNextBlockTimestamp", [timestampSec]);
    await rpc("evm_mine", []);
  };
  /** The launched pools (the windows' token and the ranked ones), each with its chain trades. */
  const pools = new Map<Address, { token: Address; tokenIsToken0: boolean; trades: ChainTrade[] }>();
  const collect = async (receipt: TransactionReceipt) => {
    const block = await stack.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    for (const log of receipt.logs) {
      const launched = pools.get(getAddress(log.address));
      if (!launched) continue;
      let decoded;
      try {
        decoded = decodeEventLog({ abi: uniswapV3PoolAbi, data: log.data, topics: log.topics });
      } catch {
        continue;
      }
      if (decoded.eventName !== "Swap") continue;
      const { amount0, amount1, sqrtPriceX96 } = decoded.args;
      const tokenDelta = launched.tokenIsToken0 ? amount0 : amount1;
      const wethDelta = launched.tokenIsToken0 ? amount1 : amount0;
      launched.trades.push({
        side: tokenDelta < 0n || (tokenDelta === 0n && wethDelta > 0n) ? "buy" : "sell",
        trader: receipt.from.toLowerCase(),
        ethAmountWei: wethDelta < 0n ? -wethDelta : wethDelta,
        priceWei: priceWeiOf(sqrtPriceX96, launched.tokenIsToken0),
        blockNumber: receipt.blockNumber,
        logIndex: log.logIndex,
        timestampSec: block.timestamp,
      });
    }
  };

  /**
   * The definition of docs/public.md over a token's chain trades (default: the windows' token) at
   * `nowSec`, without the USD volume.
   */
  function expected(nowSec: number, of: ChainTrade[] = trades, launchPrice = launchPriceWei) {
    const priceNow = of.at(-1)!.priceWei;
    return Object.fromEntries(
      (Object.keys(WINDOWS) as Name[]).map((w) => {
        const cutoff = BigInt(nowSec - WINDOWS[w]);
        const inside = of.filter((t) => t.timestampSec > cutoff);
        const then = of.filter((t) => t.timestampSec <= cutoff).at(-1)?.priceWei ?? launchPrice;
        const buys = inside.filter((t) => t.side === "buy");
        const sells = inside.filter((t) => t.side === "sell");
        return [
          w,
          {
            price_then_wei: then.toString(),
            price_change_bps: Number(((priceNow - then) * 10_000n) / then),
            volume_wei: inside.reduce((s, t) => s + t.ethAmountWei, 0n).toString(),
            buys: buys.length,
            sells: sells.length,
            unique_buyers: new Set(buys.map((t) => t.trader)).size,
            unique_sellers: new Set(sells.map((t) => t.trader)).size,
          },
        ];
      }),
    );
  }

  beforeAll(async () => {
    stack = await startStack({
      schema: "e2e_windows",
      database: "postgres",
      anvil: { genesisTimestampSec: startedSec - 86_400 - 3_600 },
      env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" },
    });
    const [creator, a, b, c] = [stack.wallet(1), stack.wallet(2), stack.wallet(3), stack.wallet(4)];
    const [otherCreator, d, e] = [stack.wallet(5), stack.wallet(6), stack.wallet(7)];
    const { publicClient, manifest } = stack;
    await moveTo(startedSec - 86_400 - 1_800);
    /** Launches a token with a first buy and records its pool; the windows' token is launched last (newest). */
    const launch = async (wallet: typeof a, name: string, symbol: string) => {
      const launched = await launchToken(wallet, publicClient, manifest, {
        name,
        symbol,
        firstBuyWei: parseEther("0.01"),
      });
      const address = getAddress(launched.event.token);
      pools.set(getAddress(launched.event.pool), {
        token: address,
        tokenIsToken0: address.toLowerCase() < manifest.contracts.weth.toLowerCase(),
        trades: [],
      });
      await collect(launched.receipt);
      return { address, pool: getAddress(launched.event.pool) };
    };
    // Ranked beside the windows' token: quiet (no trade in 24 h), alpha (a large buy 1.5 h into
    // h6, a sell in m5) and beta (a buy in h1, a small buy in m5), launched before it.
    quiet = (await launch(otherCreator, "Quiet", "QUI")).address;
    alpha = (await launch(otherCreator, "Alpha", "ALF")).address;
    beta = (await launch(otherCreator, "Beta", "BET")).address;
    const launched = await launch(creator, "Windows", "WIN");
    token = launched.address;
    pool = launched.pool;
    trades = pools.get(pool)!.trades;
    const buy = async (wallet: typeof a, eth: string, of = token) =>
      collect((await buyToken(wallet, publicClient, manifest, of, parseEther(eth))).receipt);
    const sell = async (wallet: typeof a, tokens: string, of = token) =>
      collect((await sellToken(wallet, publicClient, manifest, of, parseEther(tokens))).receipt);
    await buy(a, "0.02"); // before the 24 h cutoff: the h24 price then
    await moveTo(startedSec - 86_400 + 1_500); // h24 only
    await buy(b, "0.03");
    await sell(a, "50000");
    await moveTo(startedSec - 21_600 + 1_500); // h6, not h1
    await buy(c, "0.015");
    await buy(d, "0.2", alpha);
    await moveTo(startedSec - 3_600 + 1_500); // h1, not m5
    await sell(b, "20000");
    await buy(e, "0.05", beta);
    await moveTo(horizonSec + 600); // inside every window until the horizon
    await buy(a, "0.004");
    await buy(b, "0.006");
    await buy(a, "0.008");
    await sell(c, "10000");
    await sell(a, "1000");
    await sell(d, "30000", alpha);
    await buy(e, "0.001", beta);
    const head = await publicClient.getBlockNumber({ cacheTime: 0 });
    await until(
      "indexed head",
      async () => {
        const status = (await (await fetch(`${stack.service.url}/status`)).json()) as {
          evmchain?: { block?: { number: number } };
        };
        return (status.evmchain?.block?.number ?? 0) >= Number(head) ? true : undefined;
      },
      60_000,
    );
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("serve each window's price change, volumes, buys, sells and unique traders as recomputed from the chain", async () => {
    const { body: detail, status } = await stack.request(`/api/public/token/${token}`);
    expect(status, JSON.stringify(detail)).toBe(200);
    launchPriceWei = BigInt(detail.token.launch_price_wei);
    const nowBefore = Math.floor(Date.now() / 1000);
    const reads = [
      (await stack.request(`/api/public/token/${token}`)).body.token,
      (await stack.request(`/api/v1/evmchain/tokens/${token}`)).body.token,
      (await stack.request("/api/public/tokens/new?limit=5")).body.tokens[0],
      (await stack.request(`/api/public/tokens?addresses=${token}`)).body.tokens[0].token,
      (await stack.request(`/api/v1/evmchain/tokens?addresses=${token}`)).body.tokens[0].token,
    ];
    const nowAfter = Math.floor(Date.now() / 1000);
    expect(nowAfter).toBeLessThan(horizonSec);
    // The windows' contents are the same at every second the service can have read.
    expect(expected(nowAfter)).toEqual(expected(nowBefore));
    const want = expected(nowBefore);
    // Every window holds a different set of trades, and each has trades outside it.
    expect(new Set(Object.values(want).map((w) => w.buys + w.sells)).size).toBe(4);
    expect(want.h24!.buys + want.h24!.sells).toBeLessThan(trades.length);
    expect(want.m5!.unique_buyers).toBe(2);
    expect(want.m5!.unique_sellers).toBe(2);
    const { body: tradePage } = await stack.request(`/api/public/token/${token}/trades?limit=200`);
    expect(tradePage.trades).toHaveLength(trades.length);
    for (const record of reads) {
      expect(record.address).toBe(token);
      // The reference pool was last priced at deployment, a day before the wall clock: the USD
      // figures are served, flagged stale with their age (docs/public.md "USD values").
      expect(record.usd_stale).toBe(true);
      expect(record.usd_source_age_sec).toBeGreaterThanOrEqual(86_400);
      expect(Number(record.price_usd)).toBeGreaterThan(0);
      const served = record.windows as Record<Name, Record<string, unknown>>;
      for (const w of Object.keys(WINDOWS) as Name[]) {
        const { volume_usd, ...rest } = served[w];
        expect({ w, ...rest }).toEqual({ w, ...want[w] });
        const cutoff = nowBefore - WINDOWS[w];
        const usd = (tradePage.trades as Array<{ timestamp_sec: number; eth_amount_usd: string | null }>)
          .filter((t) => t.timestamp_sec > cutoff)
          .reduce((s, t) => s + usdE18(t.eth_amount_usd), 0n);
        expect(volume_usd === null ? null : usdE18(volume_usd as string)).toBe(usd);
      }
      // The h24 window and the 24 h figures are the same trades.
      expect(served.h24.volume_wei).toBe(record.volume_24h_wei);
      expect(served.h24.price_then_wei).toBe(record.price_24h_ago_wei);
      expect(served.h24.price_change_bps).toBe(record.price_change_24h_bps);
    }
  });

  it("answer a batch in the order asked, unknown addresses as found: false, cached with an ETag", async () => {
    const unknown = "0x00000000000000000000000000000000000000aa";
    const path = `/api/public/tokens?addresses=${unknown},${token.toLowerCase()}`;
    const first = await stack.request(path);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.tokens.map((t: { address: string; found: boolean }) => [t.address, t.found])).toEqual([
      [getAddress(unknown), false],
      [token, true],
    ]);
    expect(first.body.tokens[0].token).toBeNull();
    const { body: single } = await stack.request(`/api/public/token/${token}`);
    // The detail adds its top holders and launch integrity to the list record.
    const { top_holders: _top, integrity: _integrity, ...record } = single.token;
    expect(first.body.tokens[1].token).toEqual(record);
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await stack.request(path, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    // The key-authenticated surface serves the same answer (without validators: no-store).
    const v1 = await stack.request(`/api/v1/evmchain/tokens?addresses=${unknown},${token.toLowerCase()}`);
    expect(v1.status, JSON.stringify(v1.body)).toBe(200);
    expect(v1.body).toEqual(first.body);
  });

  it("refuse 31 addresses, a malformed address, a repeated address and an empty list with 400", async () => {
    const many = Array.from({ length: 31 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
    const thirty = await stack.request(`/api/public/tokens?addresses=${many.slice(0, 30).join(",")}`);
    expect(thirty.status).toBe(200);
    expect(thirty.body.tokens).toHaveLength(30);
    for (const [query, code] of [
      [`addresses=${many.join(",")}`, "invalid_request"],
      [`addresses=${token},0x1234`, "invalid_address"],
      [`addresses=${token},${token.toLowerCase()}`, "invalid_request"],
      ["addresses=", "invalid_address"],
      ["", "invalid_request"],
    ] as const) {
      const { status, body } = await stack.request(`/api/public/tokens?${query}`);
      expect({ query, status, ok: body.ok, error: body.error }).toEqual({ query, status: 400, ok: false, error: code });
    }
  });

  type Statement = Parameters<MarketDb["execute"]>[0];
  type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };
  /** Rows a scan node read: actual rows times loops. */
  const rowsRead = (scan: PlanNode) => Number(scan["Actual Rows"]) * Number(scan["Actual Loops"]);

  /**
   * Runs `use` against the stack's PostgreSQL with scans other than index scans priced out (the
   * tables are small here, and the plan must be the one the indexes allow at any size). It gets
   * `capturing`, a handle that records every statement it executes into `statements`, and `scansOf`:
   * a statement run again under EXPLAIN ANALYZE, its scan nodes on `relations`.
   */
  async function withPlans(
    use: (h: {
      client: pg.Client;
      capturing: MarketDb;
      statements: Statement[];
      scansOf: (statement: Statement, relations: string[]) => Promise<PlanNode[]>;
    }) => Promise<void>,
  ) {
    const client = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
    await client.connect();
    try {
      for (const off of ["enable_seqscan", "enable_bitmapscan"]) await client.query(`set ${off} = off`);
      await client.query(`set search_path = "${stack.schema}"`);
      const db = drizzle(client, { schema }) as unknown as MarketDb;
      const statements: Statement[] = [];
      const capturing = new Proxy(db, {
        get(target, prop) {
          if (prop === "execute")
            return (q: Statement) => {
              statements.push(q);
              return target.execute(q);
            };
          const value = Reflect.get(target, prop);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const scansOf = async (statement: Statement, relations: string[]) => {
        const result = await db.execute(sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
        const plan = (result as unknown as { rows: Array<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }> }).rows[0]![
          "QUERY PLAN"
        ];
        const scans: PlanNode[] = [];
        const walk = (node: PlanNode) => {
          if (relations.includes(String(node["Relation Name"]))) scans.push(node);
          for (const child of node.Plans ?? []) walk(child);
        };
        walk(plan[0]!.Plan);
        return scans;
      };
      await use({ client, capturing, statements, scansOf });
    } finally {
      await client.end();
    }
  }

  it("read the windows of a page from indexes without reading the window's trades: pieces, one row per wallet, one descent per window", async () => {
    await withPlans(async ({ capturing, statements, scansOf }) => {
      // The statement the service runs, captured and run again under EXPLAIN ANALYZE.
      const nowSec = Math.floor(Date.now() / 1000);
      expect(nowSec).toBeLessThan(horizonSec);
      const served = await activityWindows(capturing, new Map([[token.toLowerCase(), launchPriceWei]]), nowSec);
      expect(served.get(token.toLowerCase())!.h24.buys).toBe(expected(nowSec).h24!.buys);
      expect(statements).toHaveLength(1);
      const scans = await scansOf(statements[0]!, ["trade", "candle", "token_trader"]);
      const shown = JSON.stringify(
        scans.map((n) => [n["Relation Name"], n["Index Name"], n["Index Cond"], n["Actual Rows"], n["Actual Loops"]]),
      );
      for (const scan of scans) expect(scan["Node Type"], shown).toMatch(/^Index( Only)? Scan$/);
      const h24 = trades.filter((t) => t.timestampSec > BigInt(nowSec - 86_400));
      expect(h24.length).toBeGreaterThan(5);
      // Trades: the windows' first partial minutes (empty here: every trade is minutes from an
      // edge), the first block after each cutoff (one descent, then that second's trades of every
      // token) and the price then (one descent).
      const perSecond = new Map<bigint, number>();
      for (const p of pools.values())
        for (const t of p.trades) perSecond.set(t.timestampSec, (perSecond.get(t.timestampSec) ?? 0) + 1);
      const busiestSecond = Math.max(...perSecond.values());
      const tradeScans = scans.filter((n) => n["Relation Name"] === "trade");
      expect(tradeScans.length, shown).toBeGreaterThan(0);
      for (const scan of tradeScans)
        expect(rowsRead(scan), shown).toBeLessThanOrEqual(
          /timestamp_sec = /.test(String(scan["Index Cond"])) ? busiestSecond : 1,
        );
      // One row per wallet and side active in the last 24 h.
      const wallets = new Set(h24.map((t) => `${t.side} ${t.trader}`)).size;
      const traderScans = scans.filter((n) => n["Relation Name"] === "token_trader");
      expect(traderScans, shown).toHaveLength(1);
      expect(rowsRead(traderScans[0]!), shown).toBe(wallets);
      // Candles of the page's token only, at most 59 minutes and 24 hours per window.
      const candleScans = scans.filter((n) => n["Relation Name"] === "candle");
      expect(candleScans.length, shown).toBeGreaterThan(0);
      for (const scan of candleScans) expect(rowsRead(scan), shown).toBeLessThanOrEqual(59);
    });
  });

  /** A token's trending score recomputed from its chain trades (docs/public.md "Trending"). */
  function trendingScoreFromChain(of: ChainTrade[], nowSec: number): bigint {
    let score = 0n;
    for (const w of Object.keys(WINDOWS) as Name[]) {
      const inside = of.filter((t) => t.timestampSec > BigInt(nowSec - WINDOWS[w]));
      const activityWei = inside.reduce((sum, t) => sum + t.ethAmountWei, 0n) + BigInt(inside.length) * 10n ** 16n;
      score += (activityWei * 3_600n) / BigInt(WINDOWS[w]);
    }
    return score;
  }

  /** The chain trades of a launched token. */
  const tradesOf = (address: Address) => [...pools.values()].find((p) => p.token === address)!.trades;

  it("rank trending and the top lists by the windows recomputed from the chain, ties to the newer launch", async () => {
    const sorts = ["volume", "trades", "gainers", "losers"] as const;
    const nowBefore = Math.floor(Date.now() / 1000);
    const trending = await stack.request("/api/public/tokens/trending?limit=100");
    const tops = new Map<string, Awaited<ReturnType<Stack["request"]>>>();
    for (const w of Object.keys(WINDOWS) as Name[])
      for (const sort of sorts)
        tops.set(`${w} ${sort}`, await stack.request(`/api/public/tokens/top?window=${w}&sort=${sort}&limit=100`));
    const nowAfter = Math.floor(Date.now() / 1000);
    expect(nowAfter).toBeLessThan(horizonSec);
    // Launch order, oldest first: a tie goes to the later one.
    const launchOrder = [quiet, alpha, beta, token];
    const newerFirst = (x: Address, y: Address) => launchOrder.indexOf(y) - launchOrder.indexOf(x);
    for (const now of [nowAfter, nowBefore])
      for (const address of launchOrder)
        expect(trendingScoreFromChain(tradesOf(address), now)).toBe(
          trendingScoreFromChain(tradesOf(address), nowBefore),
        );

    const scored = launchOrder
      .map((address) => ({ address, score: trendingScoreFromChain(tradesOf(address), nowBefore) }))
      .filter((x) => x.score > 0n)
      .sort((x, y) => (x.score === y.score ? newerFirst(x.address, y.address) : x.score > y.score ? -1 : 1));
    expect(scored.map((x) => x.address)).toEqual(expect.not.arrayContaining([quiet]));
    expect(scored).toHaveLength(3);
    expect(trending.status, JSON.stringify(trending.body)).toBe(200);
    expect(
      trending.body.tokens.map((t: { address: string; trending_score: string }) => [t.address, t.trending_score]),
    ).toEqual(scored.map((x) => [x.address, x.score.toString()]));

    const served = new Map<string, string[]>();
    for (const w of Object.keys(WINDOWS) as Name[]) {
      for (const sort of sorts) {
        const figures = launchOrder
          .map((address) => ({ address, f: expected(nowBefore, tradesOf(address), 1n)[w]! }))
          .filter((x) => x.f.buys + x.f.sells > 0);
        const key = (f: (typeof figures)[number]["f"]) =>
          sort === "volume"
            ? BigInt(f.volume_wei)
            : sort === "trades"
              ? BigInt(f.buys + f.sells)
              : sort === "gainers"
                ? BigInt(f.price_change_bps)
                : -BigInt(f.price_change_bps);
        const want = figures
          .sort((x, y) => (key(x.f) === key(y.f) ? newerFirst(x.address, y.address) : key(x.f) > key(y.f) ? -1 : 1))
          .map((x) => x.address);
        const { status, body } = tops.get(`${w} ${sort}`)!;
        expect(status, JSON.stringify(body)).toBe(200);
        expect({ w, sort, window: body.window, order: body.sort }).toEqual({ w, sort, window: w, order: sort });
        const addresses = body.tokens.map((t: { address: string }) => t.address);
        expect({ w, sort, addresses }).toEqual({ w, sort, addresses: want });
        // Each record is in the list at the figures it carries.
        for (const record of body.tokens) {
          const { volume_usd: _usd, ...figuresServed } = record.windows[w];
          expect(figuresServed).toEqual(expected(nowBefore, tradesOf(record.address), 1n)[w]);
        }
        served.set(`${w} ${sort}`, addresses);
      }
    }
    // The data separates the windows and the orders: alpha's large buy leads h6 and h24 volume,
    // beta's h1 buy leads h1, the windows' token's burst leads m5; m5 trades tie alpha and beta
    // (one each), and the newer launch (beta) goes first.
    expect(served.get("h6 volume")![0]).toBe(alpha);
    expect(served.get("h1 volume")![0]).toBe(beta);
    expect(served.get("m5 volume")![0]).toBe(token);
    expect(served.get("m5 trades")).toEqual([token, beta, alpha]);
    expect(served.get("h24 gainers")).toEqual([...served.get("h24 losers")!].reverse());
  });

  it("refuse an unknown window or order with 400 and nothing listed", async () => {
    for (const query of [
      "window=d7&sort=volume",
      "window=h1&sort=price",
      "sort=volume",
      "window=h1",
      "window=h1&sort=volume&limit=101",
    ]) {
      const { status, body } = await stack.request(`/api/public/tokens/top?${query}`);
      expect({ query, status, ok: body.ok, error: body.error, message: typeof body.message }).toEqual({
        query,
        status: 400,
        ok: false,
        error: "invalid_request",
        message: "string",
      });
    }
  });

  it("sum every window from the trades of its first minute and the minute and hour candles, and serve every figure of a page's windows, exactly at every edge second", async () => {
    const client = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
    await client.connect();
    try {
      await client.query(`set search_path = "${stack.schema}"`);
      const db = drizzle(client, { schema }) as unknown as MarketDb;
      const launched = [...pools.values()];
      const launchPrices = new Map(
        (await client.query("select address, launch_price_wei::text as p from token")).rows.map(
          (r: { address: string; p: string }) => [r.address.toLowerCase(), BigInt(r.p)],
        ),
      );
      // Every second at which a trade enters or leaves a window, and the seconds beside it: the
      // first partial minute, the minute candles and the hour candles each hold the edge trade at
      // some of them.
      const nows = new Set<number>();
      for (const p of launched)
        for (const t of p.trades)
          for (const length of Object.values(WINDOWS))
            for (const d of [-61, -1, 0, 1, 59]) nows.add(Number(t.timestampSec) + length + d);
      // Which piece held a trade inside a window at some second of the sweep: its first partial
      // minute (read from trades), a minute candle before the next whole hour, or an hour candle.
      const piecesSeen = new Set<string>();
      for (const now of [...nows].sort((x, y) => x - y)) {
        const want: Record<string, Record<Name, { volumeWei: bigint; trades: number }>> = {};
        for (const p of launched) {
          const perWindow = Object.fromEntries(
            (Object.keys(WINDOWS) as Name[]).map((w) => {
              const inside = p.trades.filter((t) => t.timestampSec > BigInt(now - WINDOWS[w]));
              const firstMinuteSec = Math.ceil((now - WINDOWS[w] + 1) / 60) * 60;
              const firstHourSec = Math.ceil(firstMinuteSec / 3_600) * 3_600;
              for (const t of inside)
                piecesSeen.add(
                  t.timestampSec < firstMinuteSec ? "trades" : t.timestampSec < firstHourSec ? "minutes" : "hours",
                );
              return [w, { volumeWei: inside.reduce((sum, t) => sum + t.ethAmountWei, 0n), trades: inside.length }];
            }),
          ) as Record<Name, { volumeWei: bigint; trades: number }>;
          if (perWindow.h24.trades > 0) want[p.token.toLowerCase()] = perWindow;
        }
        expect({ now, totals: Object.fromEntries(await windowTotals(db, now)) }).toEqual({ now, totals: want });
        // A page's windows (every figure but the USD volume) at the same second.
        const page = await activityWindows(db, launchPrices, now);
        for (const p of launched) {
          const priceNowWei = p.trades.at(-1)!.priceWei;
          const figures = Object.fromEntries(
            (Object.keys(WINDOWS) as Name[]).map((w) => {
              const { volume_usd: _usd, ...rest } = jsonValue(
                windowRecord(page.get(p.token.toLowerCase())![w], priceNowWei),
              ) as Record<string, unknown>;
              return [w, rest];
            }),
          );
          const launchPrice = launchPrices.get(p.token.toLowerCase())!;
          expect({ now, token: p.token, figures }).toEqual({
            now,
            token: p.token,
            figures: expected(now, p.trades, launchPrice),
          });
        }
      }
      expect([...piecesSeen].sort()).toEqual(["hours", "minutes", "trades"]);
    } finally {
      await client.end();
    }
  });

  it("rank from the minute and hour candle indexes and one trade descent per listed token, not from a day of trades", async () => {
    await withPlans(async ({ client, capturing, statements, scansOf }) => {
      const nowSec = Math.floor(Date.now() / 1000);
      expect(nowSec).toBeLessThan(horizonSec);
      expect((await trendingTokens(capturing, nowSec, 100)).map((r) => getAddress(r.address))).toContain(alpha);
      expect(
        (await topTokens(capturing, nowSec, { window: "h24", sort: "gainers", limit: 100 })).map((r) =>
          getAddress(r.address),
        ),
      ).toHaveLength(3);
      expect(statements).toHaveLength(2);
      const count = async (where: string) =>
        Number((await client.query(`select count(*)::int as n from candle where ${where}`)).rows[0].n);
      const lastDayCandles = await count(
        `resolution in ('1m', '1h') and bucket_start_sec > ${nowSec - 86_400 - 3_600}`,
      );
      // Rows of the other resolutions are there, and no scan below reaches them.
      expect(await count("resolution not in ('1m', '1h')")).toBeGreaterThan(lastDayCandles);
      for (const statement of statements) {
        const scans = await scansOf(statement, ["candle", "trade"]);
        const shown = JSON.stringify(
          scans.map((n) => [n["Relation Name"], n["Index Name"], n["Node Type"], rowsRead(n)]),
        );
        for (const scan of scans) expect(scan["Node Type"], shown).toMatch(/^Index( Only)? Scan$/);
        const candleScans = scans.filter((n) => n["Relation Name"] === "candle");
        expect(candleScans.length, shown).toBeGreaterThan(0);
        for (const scan of candleScans) {
          expect(["candle_1m_bucket_idx", "candle_1h_bucket_idx"], shown).toContain(scan["Index Name"]);
          expect(rowsRead(scan), shown).toBeLessThanOrEqual(lastDayCandles);
        }
        // Trades: the first partial minute of a window (none here: every trade is minutes from an
        // edge) and, for a price change, one row per listed token below the first block after the cutoff.
        for (const scan of scans.filter((n) => n["Relation Name"] === "trade"))
          expect(rowsRead(scan), shown).toBeLessThanOrEqual(3);
      }
    });
  });
});
