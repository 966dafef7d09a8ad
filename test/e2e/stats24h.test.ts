/**
 * The 24 h figures of token records (`withStats`, docs/public.md "24 h figures") are computed from
 * 1m candles plus the trades of the cutoff's own minute. This test indexes real trades spread over
 * several minutes (anvil time travel) with the real service on PostgreSQL, then evaluates
 * `withStats` against the indexed tables at cutoffs around every trade's timestamp and compares
 * each answer with the definition computed straight from the trades.
 *
 * A second stack runs the service on PGlite, where the API shares Ponder's database session, with
 * a chain whose clock runs a day behind the wall clock, so the service's own cutoff (now − 24 h)
 * lies inside the history. A block with trades of five tokens makes Ponder flush more than 20
 * candle updates at once, which creates a temporary table named `candle` in that session; the
 * served figures must still be those of the definition (a raw SQL name that is not
 * schema-qualified reads the empty temporary table and falls back to the launch price).
 */
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress, parseEther, type Address, type Hash } from "viem";
import { swapRouterAbi } from "../../abis/SwapRouter";
import * as schema from "../../ponder.schema";
import { buyParams, buyToken, launchToken, sellToken } from "../../devnet/actions";
import { withStats } from "../../market/tokenStats";
import type { MarketDb } from "../../market/db";
import { startStack, until, type Stack } from "../helpers/harness";
import { postgresAvailable } from "../helpers/postgres";

const available = await postgresAvailable();
let stack: Stack;
let pool: pg.Pool;
let token: Address;

describe.skipIf(!available)("24 h figures from candles", () => {
  beforeAll(async () => {
    stack = await startStack({
      schema: "e2e_stats24h",
      database: "postgres",
      env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" },
    });
    const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
      name: "Clock",
      symbol: "CLK",
      firstBuyWei: parseEther("0.01"),
    });
    token = getAddress(launched.event.token);
    // Trades 7..53 s apart, so several share a minute and others cross minute boundaries.
    for (const [i, gapSec] of [17, 29, 7, 53, 41, 11, 60, 23].entries()) {
      await stack.publicClient.request({ method: "evm_increaseTime" as never, params: [gapSec] as never });
      if (i % 3 === 2)
        await sellToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("100000"));
      else
        await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("0.003") * BigInt(i + 1));
    }
    const head = await stack.publicClient.getBlockNumber({ cacheTime: 0 });
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
    pool = new pg.Pool({
      connectionString: stack.serviceEnv.DATABASE_URL,
      options: `-c search_path="${stack.schema}"`,
    });
  });

  afterAll(async () => {
    await pool?.end();
    await stack?.stop();
  });

  it("equal the definition over trades at every cutoff around every trade", async () => {
    const db = drizzle(pool, { schema }) as unknown as MarketDb;
    const [row] = await db.select().from(schema.token).limit(1);
    expect(row).toBeDefined();
    const trades = (
      await pool.query(
        `select timestamp_sec::bigint as ts, block_number, log_index, price_wei::text, eth_amount_wei::text, token_amount::text, eth_amount_usd_e_18::text as eth_amount_usd_e18 from trade where token = $1 order by block_number, log_index`,
        [row!.address],
      )
    ).rows;
    expect(trades.length).toBe(9); // the first buy and eight more
    const cutoffs = new Set<number>();
    for (const t of trades) for (const d of [-61, -60, -1, 0, 1, 59]) cutoffs.add(Number(t.ts) + d);
    for (const cutoff of [...cutoffs].sort()) {
      const [stats] = await withStats(db, [row!], cutoff + 86_400);
      const after = trades.filter((t) => Number(t.ts) > cutoff);
      const atOrBefore = trades.filter((t) => Number(t.ts) <= cutoff);
      expect({ cutoff, ...stats!.stats24h }).toEqual({
        cutoff,
        volumeWei: after.reduce((s, t) => s + BigInt(t.eth_amount_wei), 0n),
        volumeToken: after.reduce((s, t) => s + BigInt(t.token_amount), 0n),
        tradeCount: after.length,
        priceThenWei: atOrBefore.length > 0 ? BigInt(atOrBefore.at(-1)!.price_wei) : row!.launchPriceWei,
        // Each trade's USD value at its own block (10^-18 USD) summed; a trade without one counts 0.
        volumeUsdE18: after.reduce(
          (s, t) => s + (t.eth_amount_usd_e18 === null ? 0n : BigInt(t.eth_amount_usd_e18)),
          0n,
        ),
      });
    }
    // The record served over HTTP uses the same figures (now = wall clock: every trade is recent).
    const served = (await (await fetch(`${stack.service.url}/api/public/token/${token}`)).json()) as {
      token: { trade_count_24h: number };
    };
    expect(served.token.trade_count_24h).toBe(trades.length);
  });
});

describe("24 h figures served on PGlite after a cache flush, clock a day ahead of the chain", () => {
  const startedSec = Math.floor(Date.now() / 1000);
  /** Request times must stay below this for the expectations to hold (no trade in between). */
  const horizonSec = startedSec + 900;
  let chain: Stack;
  const tokens: Address[] = [];

  const rpc = (method: string, params: unknown[]) =>
    chain.publicClient.request({ method: method as never, params: params as never });
  const at = (timestampSec: number) => rpc("evm_setNextBlockTimestamp", [timestampSec]);
  const indexedTo = async (block: bigint) =>
    until(
      "indexed head",
      async () => {
        const status = (await (await fetch(`${chain.service.url}/status`)).json()) as {
          evmchain?: { block?: { number: number } };
        };
        return (status.evmchain?.block?.number ?? 0) >= Number(block) ? true : undefined;
      },
      60_000,
    );

  beforeAll(async () => {
    // Genesis 24 h 30 min before now: the whole launch history precedes the cutoff's minute.
    chain = await startStack({
      schema: "e2e_stats24h_pglite",
      database: "pglite",
      anvil: { genesisTimestampSec: startedSec - 86_400 - 1_800 },
      env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" },
    });
    const head = await chain.publicClient.getBlock({ blockTag: "latest" });
    const minuteSec = Math.ceil((Number(head.timestamp) + 2) / 60) * 60; // launches and the flush block share this minute
    for (let i = 0; i < 5; i++) {
      await at(minuteSec + i);
      const launched = await launchToken(chain.wallet(1), chain.publicClient, chain.manifest, {
        name: `Flush ${i}`,
        symbol: `FL${i}`,
        firstBuyWei: parseEther("0.01"),
      });
      tokens.push(getAddress(launched.event.token));
    }
    await indexedTo(await chain.publicClient.getBlockNumber({ cacheTime: 0 }));
    // One block, same minute, a buy of each token: 5 tokens × 6 resolutions = 30 candle rows
    // updated in one flush (Ponder uses its temporary-table path above 20).
    await rpc("evm_setAutomine", [false]);
    const hashes: Hash[] = [];
    for (const [i, token] of tokens.entries()) {
      const wallet = chain.wallet(2 + i);
      hashes.push(
        await wallet.writeContract({
          chain: null,
          address: chain.manifest.contracts.swapRouter,
          abi: swapRouterAbi,
          functionName: "exactInputSingle",
          args: [
            buyParams(chain.manifest, token, wallet.account.address, parseEther("0.02"), BigInt(minuteSec + 3_600)),
          ],
          value: parseEther("0.02"),
          gas: 400_000n,
        }),
      );
    }
    await at(minuteSec + 10);
    await rpc("evm_mine", []);
    await rpc("evm_setAutomine", [true]);
    for (const hash of hashes)
      expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    // Two minutes later, one more trade of token 0 (still long before the cutoff's minute).
    await at(minuteSec + 130);
    await sellToken(chain.wallet(2), chain.publicClient, chain.manifest, tokens[0]!, parseEther("1000"));
    // After the cutoff of any request made before `horizonSec`: trades of tokens 0 and 1.
    await at(horizonSec - 86_400 + 1);
    await rpc("evm_mine", []);
    await buyToken(chain.wallet(3), chain.publicClient, chain.manifest, tokens[0]!, parseEther("0.005"));
    await buyToken(chain.wallet(3), chain.publicClient, chain.manifest, tokens[1]!, parseEther("0.007"));
    await indexedTo(await chain.publicClient.getBlockNumber({ cacheTime: 0 }));
  });

  afterAll(async () => {
    await chain?.stop();
  });

  it("price 24 h ago, change and volumes equal the definition over the served trades", async () => {
    for (const token of tokens) {
      const { status, body: record } = await chain.request(`/api/public/token/${token}`);
      expect(status, JSON.stringify(record)).toBe(200);
      const { body: page } = await chain.request(`/api/public/token/${token}/trades?limit=200`);
      const nowSec = Math.floor(Date.now() / 1000);
      expect(nowSec).toBeLessThan(horizonSec);
      const cutoffSec = nowSec - 86_400;
      const trades = [
        ...(page.trades as Array<{
          timestamp_sec: number;
          price_wei: string;
          eth_amount_wei: string;
          token_amount: string;
        }>),
      ].reverse();
      const before = trades.filter((t) => t.timestamp_sec <= cutoffSec);
      const after = trades.filter((t) => t.timestamp_sec > cutoffSec);
      expect(before.length).toBeGreaterThanOrEqual(2); // first buy + the flush block's buy
      const priceThen = before.at(-1)!.price_wei;
      expect(priceThen).not.toBe(record.token.launch_price_wei); // the fallback is told apart
      const priceNow = BigInt(record.token.price_wei);
      expect({
        token,
        price_24h_ago_wei: record.token.price_24h_ago_wei,
        price_change_24h_bps: record.token.price_change_24h_bps,
        volume_24h_wei: record.token.volume_24h_wei,
        volume_24h_token: record.token.volume_24h_token,
        trade_count_24h: record.token.trade_count_24h,
      }).toEqual({
        token,
        price_24h_ago_wei: priceThen,
        price_change_24h_bps: Number(((priceNow - BigInt(priceThen)) * 10_000n) / BigInt(priceThen)),
        volume_24h_wei: after.reduce((s, t) => s + BigInt(t.eth_amount_wei), 0n).toString(),
        volume_24h_token: after.reduce((s, t) => s + BigInt(t.token_amount), 0n).toString(),
        trade_count_24h: after.length,
      });
    }
  });
});
