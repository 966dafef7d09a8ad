/**
 * The 24 h figures of token records (`withStats`, docs/public.md "24 h figures") are computed from
 * 1m candles plus the trades of the cutoff's own minute. This test indexes real trades spread over
 * several minutes (anvil time travel) with the real service on PostgreSQL, then evaluates
 * `withStats` against the indexed tables at cutoffs around every trade's timestamp and compares
 * each answer with the definition computed straight from the trades.
 */
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress, parseEther, type Address } from "viem";
import * as schema from "../ponder.schema";
import { buyToken, launchToken, sellToken } from "../devnet/actions";
import { withStats } from "../api/market/publicQueries";
import type { MarketDb } from "../api/market/queries";
import { startStack, until, type Stack } from "./harness";
import { postgresAvailable } from "./postgres";

const available = await postgresAvailable();
let stack: Stack;
let pool: pg.Pool;
let token: Address;

beforeAll(async () => {
  if (!available) return;
  stack = await startStack({ schema: "e2e_stats24h", database: "postgres", env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" } });
  const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, { name: "Clock", symbol: "CLK", firstBuyWei: parseEther("0.01") });
  token = getAddress(launched.event.token);
  // Trades 7..53 s apart, so several share a minute and others cross minute boundaries.
  for (const [i, gapSec] of [17, 29, 7, 53, 41, 11, 60, 23].entries()) {
    await stack.publicClient.request({ method: "evm_increaseTime" as never, params: [gapSec] as never });
    if (i % 3 === 2) await sellToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("100000"));
    else await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("0.003") * BigInt(i + 1));
  }
  const head = await stack.publicClient.getBlockNumber({ cacheTime: 0 });
  await until("indexed head", async () => {
    const status = (await (await fetch(`${stack.service.url}/status`)).json()) as { evmchain?: { block?: { number: number } } };
    return (status.evmchain?.block?.number ?? 0) >= Number(head) ? true : undefined;
  }, 60_000);
  pool = new pg.Pool({ connectionString: stack.serviceEnv.DATABASE_URL, options: `-c search_path="${stack.schema}"` });
}, 240_000);

afterAll(async () => {
  await pool?.end();
  await stack?.stop();
});

describe.skipIf(!available)("24 h figures from candles", () => {
  it("equal the definition over trades at every cutoff around every trade", async () => {
    const db = drizzle(pool, { schema }) as unknown as MarketDb;
    const [row] = await db.select().from(schema.token).limit(1);
    expect(row).toBeDefined();
    const trades = (await pool.query(`select timestamp_sec::bigint as ts, block_number, log_index, price_wei::text, eth_amount_wei::text, token_amount::text from trade where token = $1 order by block_number, log_index`, [row!.address])).rows;
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
      });
    }
    // The record served over HTTP uses the same figures (now = wall clock: every trade is recent).
    const served = (await (await fetch(`${stack.service.url}/api/public/token/${token}`)).json()) as { token: { trade_count_24h: number } };
    expect(served.token.trade_count_24h).toBe(trades.length);
  });
});
