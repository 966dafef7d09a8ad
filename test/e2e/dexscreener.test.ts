/**
 * End to end, DexScreener adapter: anvil + real Uniswap V3 + our contracts and the real service.
 * Wallets launch tokens in both pool orientations (with and without a first buy), buy and sell;
 * then `/events` must equal what is recomputed here from the receipts alone — amounts with exactly
 * one in and one out side, `priceNative` from sqrtPriceX96 (bigint math written out here), and
 * reserves equal to the pool's WETH/token balances read with `eth_call` at the event's block —
 * with inclusive block bounds; `/latest-block` never ahead of the indexer; bad params are 400s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeEventLog,
  erc20Abi,
  formatUnits,
  getAddress,
  parseEther,
  type Address,
  type TransactionReceipt,
} from "viem";
import { launchFactoryAbi } from "../../abis/LaunchFactory";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool";
import { buyToken, launchToken, sellToken } from "../../devnet/actions";
import { FINALIZED_DEPTH } from "../helpers/eventsFeed";
import { startStack, until, type Stack } from "../helpers/harness";

const PREFIX = "/api/public/integrations/dexscreener/evmchain";
const CONFIRMATIONS = 2;

let stack: Stack;

type Pool = { pool: Address; token: Address; token0: Address; token1: Address; creator: Address };
const pools = new Map<Address, Pool>();
/** Expected events, recomputed from receipts (reserves filled in from eth_call). */
const expected: Array<Record<string, unknown> & { block: { blockNumber: number; blockTimestamp: number } }> = [];

/** Independent priceNative: floor(sqrtP^2 * 10^40 / 2^192) at 40 decimals (both assets 18 decimals). */
function expectedPriceNative(sqrtPriceX96: bigint): string {
  return formatUnits((sqrtPriceX96 * sqrtPriceX96 * 10n ** 40n) / 2n ** 192n, 40);
}

const whole = (v: bigint) => formatUnits(v, 18);

async function balancesAt(p: Pool, blockNumber: bigint): Promise<[bigint, bigint]> {
  const read = (asset: Address) =>
    stack.publicClient.readContract({
      address: asset,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [p.pool],
      blockNumber,
    });
  return Promise.all([read(p.token0), read(p.token1)]);
}

/**
 * Records the pool events of one receipt: each Swap as a `swap`, the Mints of a launch summed as
 * one `join` at the last Mint. Reserves after an event = balances at the block minus the pool
 * deltas of later events in the same block (one transaction per block here).
 */
async function collect(receipt: TransactionReceipt, maker: Address) {
  const block = await stack.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  const base = (logIndex: number, p: Pool) => ({
    block: { blockNumber: Number(receipt.blockNumber), blockTimestamp: Number(block.timestamp) },
    txnId: receipt.transactionHash,
    txnIndex: receipt.transactionIndex,
    eventIndex: logIndex,
    maker,
    pairId: p.pool,
  });
  type Decoded = { p: Pool; logIndex: number; name: string; args: Record<string, any> };
  const decoded: Decoded[] = [];
  for (const log of receipt.logs) {
    const p = pools.get(getAddress(log.address));
    if (!p) continue;
    try {
      const d = decodeEventLog({ abi: uniswapV3PoolAbi, data: log.data, topics: log.topics });
      decoded.push({ p, logIndex: log.logIndex, name: d.eventName, args: d.args as Record<string, any> });
    } catch {
      // not a pool event
    }
  }
  const byPool = new Map<Address, Decoded[]>();
  for (const d of decoded) byPool.set(d.p.pool, [...(byPool.get(d.p.pool) ?? []), d]);
  for (const [, logs] of byPool) {
    const p = logs[0]!.p;
    let [r0, r1] = await balancesAt(p, receipt.blockNumber);
    // Walk backwards from the block's final balances.
    const out: Array<Record<string, unknown> & { block: { blockNumber: number; blockTimestamp: number } }> = [];
    const mints = logs.filter((l) => l.name === "Mint");
    for (let i = logs.length - 1; i >= 0; i--) {
      const l = logs[i]!;
      if (l.name === "Swap") {
        const { amount0, amount1, sqrtPriceX96 } = l.args as { amount0: bigint; amount1: bigint; sqrtPriceX96: bigint };
        const sides =
          amount0 > 0n
            ? { asset0In: whole(amount0), asset1Out: whole(-amount1) }
            : { asset1In: whole(amount1), asset0Out: whole(-amount0) };
        out.unshift({
          ...base(l.logIndex, p),
          eventType: "swap",
          ...sides,
          priceNative: expectedPriceNative(sqrtPriceX96),
          reserves: { asset0: whole(r0), asset1: whole(r1) },
        });
        r0 -= amount0;
        r1 -= amount1;
      } else if (l.name === "Mint" && l === mints.at(-1)) {
        const amount0 = mints.reduce((s, m) => s + (m.args.amount0 as bigint), 0n);
        const amount1 = mints.reduce((s, m) => s + (m.args.amount1 as bigint), 0n);
        out.unshift({
          ...base(l.logIndex, p),
          eventType: "join",
          amount0: whole(amount0),
          amount1: whole(amount1),
          reserves: { asset0: whole(r0), asset1: whole(r1) },
        });
        r0 -= amount0;
        r1 -= amount1;
      }
    }
    expected.push(...out);
  }
}

/** A name whose predicted token sorts before (token0) or after (token1) WETH. */
async function nameForOrientation(creator: Address, wantToken0: boolean, symbol: string): Promise<string> {
  for (let i = 0; i < 64; i++) {
    const name = `Dex Screener ${wantToken0 ? "Zero" : "One"} ${i}`;
    const predicted = await stack.publicClient.readContract({
      address: stack.manifest.contracts.launchFactory,
      abi: launchFactoryAbi,
      functionName: "predictTokenAddress",
      args: [creator, name, symbol],
    });
    if (predicted.toLowerCase() < stack.manifest.contracts.weth.toLowerCase() === wantToken0) return name;
  }
  throw new Error("no name found for the wanted orientation");
}

async function launch(walletIndex: number, wantToken0: boolean, firstBuy: string): Promise<Pool> {
  const w = stack.wallet(walletIndex);
  const symbol = wantToken0 ? "DSZ" : "DSO";
  const name = await nameForOrientation(w.account.address, wantToken0, symbol);
  const r = await launchToken(w, stack.publicClient, stack.manifest, {
    name,
    symbol,
    firstBuyWei: parseEther(firstBuy),
  });
  const token = getAddress(r.event.token);
  const weth = getAddress(stack.manifest.contracts.weth);
  const isToken0 = token.toLowerCase() < weth.toLowerCase();
  expect(isToken0).toBe(wantToken0);
  const p: Pool = {
    pool: getAddress(r.event.pool),
    token,
    token0: isToken0 ? token : weth,
    token1: isToken0 ? weth : token,
    creator: w.account.address,
  };
  pools.set(p.pool, p);
  await collect(r.receipt, w.account.address);
  return p;
}

async function mine(blocks: number) {
  await stack.publicClient.request({ method: "anvil_mine" as never, params: [`0x${blocks.toString(16)}`] as never });
}

let firstBlock = 0;
let lastBlock = 0;

beforeAll(async () => {
  stack = await startStack({
    schema: "e2e_dexscreener",
    env: { EVENTS_CONFIRMATION_BLOCKS: String(CONFIRMATIONS), PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" },
  });
  const zero = await launch(1, true, "0.05");
  const one = await launch(2, false, "0.08");
  await launch(3, false, "0"); // no first buy: the join's reserves are the block's balances
  // The last two are 1-wei buys the 1 % fee swallows whole: WETH in, 0 tokens out (still buys).
  for (const [walletIndex, p, amount] of [
    [4, zero, "0.03"],
    [4, one, "0.2"],
    [5, zero, "0.01"],
    [6, zero, "0.000000000000000001"],
    [6, one, "0.000000000000000001"],
  ] as const) {
    const w = stack.wallet(walletIndex);
    const { receipt } = await buyToken(w, stack.publicClient, stack.manifest, p.token, parseEther(amount));
    await collect(receipt, w.account.address);
  }
  for (const p of [zero, one]) {
    const w = stack.wallet(4);
    const bal = await stack.publicClient.readContract({
      address: p.token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [w.account.address],
    });
    const { receipt } = await sellToken(w, stack.publicClient, stack.manifest, p.token, bal / 3n);
    await collect(receipt, w.account.address);
  }
  firstBlock = expected[0]!.block.blockNumber;
  lastBlock = expected.at(-1)!.block.blockNumber;
  // Confirmed = min(head − depth, the indexer's finalized block), which trails the head by 30-59 blocks.
  await mine(FINALIZED_DEPTH);
  await until("the adapter's latest block to reach the last trade", async () => {
    const { body } = await stack.request(`${PREFIX}/latest-block`);
    return body.block && body.block.blockNumber >= lastBlock ? true : undefined;
  });
});

afterAll(async () => {
  await stack?.stop();
});

describe("latest-block", () => {
  it("is never ahead of the indexed head and carries the block's chain timestamp", async () => {
    const { status, body } = await stack.request(`${PREFIX}/latest-block`);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(["block"]);
    const feed = (await stack.request("/api/public/events?limit=1")).body;
    expect(body.block.blockNumber).toBeLessThanOrEqual(feed.head_block);
    // The events feed's own confirmed block: one bound, capped by the indexer's finalized block.
    expect(body.block.blockNumber).toBe(Math.max(0, feed.confirmed_block));
    expect(body.block.blockNumber).toBeLessThanOrEqual(feed.head_block - 30);
    expect(body.block.blockNumber).toBeLessThanOrEqual(
      Number(await stack.publicClient.getBlockNumber({ cacheTime: 0 })),
    );
    const block = await stack.publicClient.getBlock({ blockNumber: BigInt(body.block.blockNumber) });
    expect(body.block.blockTimestamp).toBe(Number(block.timestamp));
  });
});

describe("events", () => {
  it("equal the receipts over an inclusive range: amounts, one in/out side, priceNative, reserves at the block", async () => {
    const { status, body } = await stack.request(`${PREFIX}/events?fromBlock=${firstBlock}&toBlock=${lastBlock}`);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(["events"]);
    expect(expected.filter((e) => e.eventType === "swap")).toHaveLength(9); // 2 first buys, 5 buys, 2 sells
    expect(body.events).toEqual(expected);
    // The 1-wei buys moved no token and are served as WETH in (the receipts' positive delta).
    const zeroToken = body.events.filter((e: Record<string, string>) => e.asset0Out === "0" || e.asset1Out === "0");
    expect(zeroToken).toHaveLength(2);
    for (const e of zeroToken) {
      const p = pools.get(getAddress(e.pairId))!;
      const wethIs0 = p.token0 !== p.token;
      expect(wethIs0 ? e.asset0In : e.asset1In).toBe("0.000000000000000001");
      // ... and the trade record says buy.
      const { body: page } = await stack.request(`/api/public/token/${p.token}/trades?limit=200`);
      const trade = page.trades.find((t: { tx_hash: string }) => t.tx_hash === e.txnId);
      expect(trade).toMatchObject({ side: "buy", token_amount: "0", eth_amount_wei: "1" });
    }
    for (const e of body.events.filter((x: { eventType: string }) => x.eventType === "swap")) {
      const sides = ["asset0In", "asset1In", "asset0Out", "asset1Out"].filter((k) => k in e);
      expect([
        ["asset0In", "asset1Out"],
        ["asset1In", "asset0Out"],
      ]).toContainEqual(sides);
      expect(Number(e.priceNative)).toBeGreaterThan(0);
    }
    expect(body.events.filter((x: { eventType: string }) => x.eventType === "join")).toHaveLength(3);
  });

  it("candles split their WETH volume by the trade side, zero-token buys included (recomputed from the trade rows)", async () => {
    type Row = { side: "buy" | "sell"; eth_amount_wei: string; token_amount: string; timestamp_sec: number };
    let zeroTokenBuys = 0;
    let sells = 0;
    for (const { token } of pools.values()) {
      const { body: page } = await stack.request(`/api/public/token/${token}/trades?limit=200`);
      const trades = page.trades as Row[];
      if (trades.length === 0) continue;
      // Per 1m bucket: WETH of the trades whose side (the trade direction field) is buy / sell.
      const buckets = new Map<number, { buy: bigint; sell: bigint }>();
      for (const t of trades) {
        const start = t.timestamp_sec - (t.timestamp_sec % 60);
        const b = buckets.get(start) ?? { buy: 0n, sell: 0n };
        b[t.side] += BigInt(t.eth_amount_wei);
        buckets.set(start, b);
        if (t.side === "buy" && t.token_amount === "0") zeroTokenBuys++;
        if (t.side === "sell") sells++;
      }
      const starts = [...buckets.keys()].sort((a, b) => a - b);
      const { status, body } = await stack.request(
        `/api/public/token/${token}/candles?resolution=1m&from=${starts[0]}&to=${starts.at(-1)}`,
      );
      expect(status).toBe(200);
      expect(
        body.candles.map((c: Record<string, string | number>) => [
          c.bucket_start_sec,
          c.volume_buy_wei,
          c.volume_sell_wei,
          c.volume_wei,
        ]),
      ).toEqual(
        starts.map((start) => {
          const b = buckets.get(start)!;
          return [start, b.buy.toString(), b.sell.toString(), (b.buy + b.sell).toString()];
        }),
      );
    }
    // The scenario has both sides, and the 1-wei buys that moved no token count as buys.
    expect(zeroTokenBuys).toBe(2);
    expect(sells).toBe(2);
  });

  it("includes the events of fromBlock and toBlock themselves", async () => {
    const at = async (from: number, to: number) =>
      (await stack.request(`${PREFIX}/events?fromBlock=${from}&toBlock=${to}`)).body.events;
    const inRange = (from: number, to: number) =>
      expected.filter((e) => e.block.blockNumber >= from && e.block.blockNumber <= to);
    expect(await at(firstBlock, firstBlock)).toEqual(inRange(firstBlock, firstBlock));
    expect((await at(firstBlock, firstBlock)).length).toBeGreaterThan(0);
    expect(await at(lastBlock, lastBlock)).toEqual(inRange(lastBlock, lastBlock));
    expect((await at(lastBlock, lastBlock)).length).toBe(1);
    expect(await at(firstBlock + 1, lastBlock - 1)).toEqual(inRange(firstBlock + 1, lastBlock - 1));
    expect(await at(Math.max(firstBlock - 5, 0), firstBlock - 1)).toEqual([]);
  });

  it("rejects bad parameters with 400 and the catalogue body", async () => {
    const latest = (await stack.request(`${PREFIX}/latest-block`)).body.block.blockNumber as number;
    const cases: Array<[string, string]> = [
      ["", "invalid_request"],
      [`?fromBlock=1`, "invalid_request"],
      [`?toBlock=1`, "invalid_request"],
      [`?fromBlock=abc&toBlock=2`, "invalid_request"],
      [`?fromBlock=-1&toBlock=2`, "invalid_request"],
      [`?fromBlock=1.5&toBlock=2`, "invalid_request"],
      [`?fromBlock=0x1&toBlock=2`, "invalid_request"],
      [`?fromBlock=5&toBlock=4`, "invalid_block_range"],
      [`?fromBlock=0&toBlock=1000`, "invalid_block_range"],
      [`?fromBlock=${latest}&toBlock=${latest + 1}`, "invalid_block_range"],
    ];
    for (const [query, error] of cases) {
      const res = await stack.request(`${PREFIX}/events${query}`);
      expect([query, res.status, res.body.ok, res.body.error]).toEqual([query, 400, false, error]);
    }
    const max = await stack.request(`${PREFIX}/events?fromBlock=0&toBlock=999`);
    expect(max.status).toBe(latest >= 999 ? 200 : 400);
  });
});

describe("pair and asset", () => {
  it("serves each pool with asset0/asset1 = token0/token1, fee 100 bps and its launch", async () => {
    for (const p of pools.values()) {
      const { status, body } = await stack.request(`${PREFIX}/pair?id=${p.pool.toLowerCase()}`);
      expect(status).toBe(200);
      const join = expected.find((e) => e.eventType === "join" && e.pairId === p.pool)!;
      expect(body).toEqual({
        pair: {
          id: p.pool,
          dexKey: "uniswap",
          asset0Id: p.token0,
          asset1Id: p.token1,
          createdAtBlockNumber: join.block.blockNumber,
          createdAtBlockTimestamp: join.block.blockTimestamp,
          createdAtTxnId: join.txnId,
          creator: p.creator,
          feeBps: 100,
        },
      });
    }
  });

  it("serves launched tokens and WETH as assets in whole units", async () => {
    for (const p of pools.values()) {
      const { body } = await stack.request(`${PREFIX}/asset?id=${p.token}`);
      const [name, symbol, supply] = await Promise.all(
        (["name", "symbol", "totalSupply"] as const).map((f) =>
          stack.publicClient.readContract({ address: p.token, abi: erc20Abi, functionName: f }),
        ),
      );
      expect(body).toEqual({ asset: { id: p.token, name, symbol, totalSupply: formatUnits(supply as bigint, 18) } });
    }
    const weth = getAddress(stack.manifest.contracts.weth);
    const { body } = await stack.request(`${PREFIX}/asset?id=${weth.toLowerCase()}`);
    const supply = await stack.publicClient.readContract({ address: weth, abi: erc20Abi, functionName: "totalSupply" });
    expect(body.asset).toMatchObject({ id: weth, symbol: "WETH", totalSupply: formatUnits(supply, 18) });
  });

  it("answers 404 for unknown ids and 400 for malformed ones", async () => {
    const unknown = "0x000000000000000000000000000000000000dEaD";
    const token = [...pools.values()][0]!.token;
    for (const [path, status, error] of [
      [`/pair?id=${unknown}`, 404, "pair_not_found"],
      [`/pair?id=${token}`, 404, "pair_not_found"], // a token is not a pair
      [`/asset?id=${unknown}`, 404, "asset_not_found"],
      [`/asset?id=0x1234`, 400, "invalid_address"],
      [`/pair?id=nope`, 400, "invalid_address"],
      [`/asset`, 400, "invalid_request"],
    ] as const) {
      const res = await stack.request(`${PREFIX}${path}`);
      expect([path, res.status, res.body.error]).toEqual([path, status, error]);
    }
  });
});
