/**
 * End to end, launch integrity (docs/public.md "Launch integrity") through the real service: a
 * launch whose block also holds two other wallets' buys (a same-block bundle), buys in the next
 * blocks and after the sniper window, a second buy inside the window, sells and transfers that
 * move the early wallets' balances, the creator selling, and the creator funding a wallet with
 * ETH before its first buy (and another one only after it, and a wallet that is no sniper). Every
 * served figure is recomputed independently from the token's standard ERC-20 `Transfer` logs and
 * the pool's Uniswap V3 `Swap` logs (viem `getContractEvents`) and compared exactly, on the public
 * route (by address and slug), the token detail record and the v1 mirror; `creator_funded` is
 * recomputed by reading every block of the window with its transactions (the service finds the
 * creator's blocks by its nonce instead). Also: the read's plan (no scan, no sort) and bad input.
 */
import pg from "pg";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPublicClient,
  erc20Abi,
  http,
  getAddress,
  parseEther,
  parseEventLogs,
  parseGwei,
  zeroAddress,
  type Address,
  type Hash,
} from "viem";
import { launchFactoryAbi } from "../../abis/LaunchFactory";
import { swapRouterAbi } from "../../abis/SwapRouter";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool";
import { buyParams, buyToken, sellToken, transferToken } from "../../devnet/actions";
import { holderShareBps } from "../../src/domain/holders";
import { creatorFundingScanner, scanLaunch } from "../../launches/creatorFunding";
import type { MarketDb } from "../../market/db";
import * as schema from "../../ponder.schema";
import { creatorFundingOf, lastFundingScannedSeq } from "../../store/creatorFunding";
import { openStore } from "../../store/index";
import { startStack, until, type Stack } from "../helpers/harness";
import { postgresAvailable } from "../helpers/postgres";

const onPostgres = await postgresAvailable();
/** The documented sniper window (docs/public.md "Launch integrity"), restated, not imported. */
const WINDOW_BLOCKS = 10n;
/** The documented funding look-back: 24 h of 100 ms blocks, restated. */
const FUNDING_LOOKBACK_BLOCKS = 864_000n;

let stack: Stack;
let token: Address;
let pool: Address;
let creator: Address;
let launchBlock: bigint;
let launchTxIndex: number;
let headBlock: bigint;

const rpc = (method: string, params: unknown[]) =>
  stack.publicClient.request({ method: method as never, params: params as never });

/** Everything the integrity record states, recomputed from the chain's logs up to `headBlock`. */
async function recompute() {
  const { publicClient, manifest } = stack;
  const transfers = await publicClient.getContractEvents({
    address: token,
    abi: erc20Abi,
    eventName: "Transfer",
    fromBlock: launchBlock,
    toBlock: headBlock,
  });
  const balances = new Map<Address, bigint>();
  const atLaunch = new Map<Address, bigint>();
  for (const { args, blockNumber, transactionIndex } of transfers) {
    const from = getAddress(args.from!);
    const to = getAddress(args.to!);
    const moves: [Address, bigint][] = [];
    if (from !== zeroAddress) moves.push([from, -args.value!]);
    if (to !== zeroAddress) moves.push([to, args.value!]);
    for (const [a, d] of moves) {
      balances.set(a, (balances.get(a) ?? 0n) + d);
      if (blockNumber === launchBlock && transactionIndex <= launchTxIndex)
        atLaunch.set(a, (atLaunch.get(a) ?? 0n) + d);
    }
  }
  const totalSupply = await publicClient.readContract({ address: token, abi: erc20Abi, functionName: "totalSupply" });
  const tokenIsToken0 = token.toLowerCase() < manifest.contracts.weth.toLowerCase();
  const swaps = await publicClient.getContractEvents({
    address: pool,
    abi: uniswapV3PoolAbi,
    eventName: "Swap",
    fromBlock: launchBlock,
    toBlock: headBlock,
  });
  const snipers = new Set<Address>();
  const bundled = new Set<Address>();
  let sniperBought = 0n;
  let bundledBought = 0n;
  for (const { args, blockNumber } of swaps) {
    const tokenDelta = tokenIsToken0 ? args.amount0! : args.amount1!;
    const recipient = getAddress(args.recipient!);
    // A buy: the token left the pool. The creator's own buys are not early buys.
    if (tokenDelta >= 0n || recipient === creator) continue;
    if (blockNumber - launchBlock > WINDOW_BLOCKS) continue;
    snipers.add(recipient);
    sniperBought += -tokenDelta;
    if (blockNumber === launchBlock) {
      bundled.add(recipient);
      bundledBought += -tokenDelta;
    }
  }
  const held = (set: Set<Address>) => [...set].reduce((s, a) => s + (balances.get(a) ?? 0n), 0n);
  const excluded = new Set([pool, getAddress(manifest.contracts.feeLocker)]);
  const top10 = [...balances.entries()]
    .filter(([a, b]) => b > 0n && !excluded.has(a))
    .map(([, b]) => b)
    .sort((x, y) => (x < y ? 1 : x > y ? -1 : 0))
    .slice(0, 10)
    .reduce((s, b) => s + b, 0n);
  const creatorNow = balances.get(creator) ?? 0n;
  const creatorAtLaunch = atLaunch.get(creator) ?? 0n;
  return {
    expected: {
      token,
      creator,
      launch_block_number: Number(launchBlock),
      total_supply: totalSupply.toString(),
      creator_balance_wei: creatorNow.toString(),
      creator_balance_bps: holderShareBps(creatorNow, totalSupply),
      creator_balance_at_launch_wei: creatorAtLaunch.toString(),
      creator_balance_at_launch_bps: holderShareBps(creatorAtLaunch, totalSupply),
      snipers: {
        window_blocks: Number(WINDOW_BLOCKS),
        count: snipers.size,
        tokens_bought_wei: sniperBought.toString(),
        held_wei: held(snipers).toString(),
        held_bps: holderShareBps(held(snipers), totalSupply),
      },
      bundled: {
        count: bundled.size,
        tokens_bought_wei: bundledBought.toString(),
        held_wei: held(bundled).toString(),
        held_bps: holderShareBps(held(bundled), totalSupply),
      },
      top10_balance_bps: holderShareBps(top10, totalSupply),
      holder_count: [...balances.values()].filter((b) => b > 0n).length,
    },
    snipers,
    bundled,
  };
}

describe("launch integrity", () => {
  beforeAll(async () => {
    stack = await startStack({
      schema: "e2e_integrity",
      database: onPostgres ? "postgres" : "pglite",
      env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" },
    });
    const { publicClient, manifest } = stack;
    const w = (i: number) => stack.wallet(i);
    const addr = (i: number) => w(i).account.address;
    creator = getAddress(addr(1));
    const name = "Integrity Coin";
    const symbol = "INTEG";

    // The creator funds wallet 4 with ETH before anything else (its first buy comes later).
    const funding = await w(1).sendTransaction({ chain: null, to: addr(4), value: parseEther("0.5") });
    await publicClient.waitForTransactionReceipt({ hash: funding });

    // One block: the launch (with a first buy), then wallets 2 and 3 buying the predicted token.
    token = await publicClient.readContract({
      address: manifest.contracts.launchFactory,
      abi: launchFactoryAbi,
      functionName: "predictTokenAddress",
      args: [creator, name, symbol],
    });
    const firstBuyWei = parseEther("0.02");
    const deadlineSec = (await publicClient.getBlock()).timestamp + 3_600n;
    await rpc("evm_setAutomine", [false]);
    const hashes: Hash[] = [];
    try {
      // Anvil orders a block's transactions by tip: the launch first.
      hashes.push(
        await w(1).writeContract({
          chain: null,
          address: manifest.contracts.launchFactory,
          abi: launchFactoryAbi,
          functionName: "launch",
          args: [name, symbol, 0n],
          value: BigInt(manifest.launchFactory.minimumPoolLiquidityWei) + firstBuyWei,
          gas: 8_000_000n,
          maxFeePerGas: parseGwei("200"),
          maxPriorityFeePerGas: parseGwei("50"),
        }),
      );
      for (const [i, wei] of [
        [2, parseEther("0.03")],
        [3, parseEther("0.01")],
      ] as const)
        hashes.push(
          await w(i).writeContract({
            chain: null,
            address: manifest.contracts.swapRouter,
            abi: swapRouterAbi,
            functionName: "exactInputSingle",
            args: [buyParams(manifest, token, addr(i), wei, deadlineSec)],
            value: wei,
            gas: 600_000n,
            maxFeePerGas: parseGwei("200"),
            maxPriorityFeePerGas: parseGwei("1"),
          }),
        );
      await rpc("evm_mine", []);
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    const receipts = await Promise.all(hashes.map((hash) => publicClient.waitForTransactionReceipt({ hash })));
    for (const r of receipts) expect(r.status).toBe("success");
    launchBlock = receipts[0]!.blockNumber;
    launchTxIndex = receipts[0]!.transactionIndex;
    expect(receipts.map((r) => r.blockNumber)).toEqual([launchBlock, launchBlock, launchBlock]);
    expect(receipts[1]!.transactionIndex).toBeGreaterThan(launchTxIndex);
    const [launched] = parseEventLogs({ abi: launchFactoryAbi, eventName: "TokenLaunched", logs: receipts[0]!.logs });
    expect(getAddress(launched!.args.token)).toBe(getAddress(token));
    pool = getAddress(launched!.args.pool);

    // The next blocks: the funded wallet 4 (L+1), wallet 5 (L+2), wallet 2 again (L+3).
    await buyToken(w(4), publicClient, manifest, token, parseEther("0.02"));
    await buyToken(w(5), publicClient, manifest, token, parseEther("0.005"));
    // Inside the window but after wallet 5's first buy: wallet 5 is no creator-funded sniper. A
    // transfer of 0 ETH to wallet 3 (a bundled sniper, after its buy anyway) carries nothing.
    for (const [to, value] of [
      [addr(5), parseEther("0.25")],
      [addr(3), 0n],
      [addr(6), parseEther("0.1")],
    ] as const)
      await publicClient.waitForTransactionReceipt({
        hash: await w(1).sendTransaction({ chain: null, to, value }),
      });
    await buyToken(w(2), publicClient, manifest, token, parseEther("0.004"));
    // Past the window: wallet 6 is no sniper; wallet 2 buying again adds nothing to the window's figures.
    const now = await publicClient.getBlockNumber({ cacheTime: 0 });
    await rpc("anvil_mine", [`0x${(launchBlock + WINDOW_BLOCKS + 1n - now).toString(16)}`]);
    await buyToken(w(6), publicClient, manifest, token, parseEther("0.03"));
    await buyToken(w(2), publicClient, manifest, token, parseEther("0.002"));
    // Early wallets' balances move: a sell, a transfer to a new wallet, a transfer between two of them.
    const balanceOf = (a: Address) =>
      publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [a] });
    await sellToken(w(2), publicClient, manifest, token, (await balanceOf(addr(2))) / 3n);
    await transferToken(w(3), publicClient, token, addr(7), (await balanceOf(addr(3))) / 2n);
    await transferToken(w(5), publicClient, token, addr(4), (await balanceOf(addr(5))) / 4n);
    // The creator sells part of its first buy.
    await sellToken(w(1), publicClient, manifest, token, (await balanceOf(creator)) / 5n);

    const chainHead = await publicClient.getBlockNumber({ cacheTime: 0 });
    headBlock = await until(
      "integrity indexed to the chain head",
      async () => {
        const { body } = await stack.request("/api/public/events?limit=1");
        return body.ok && BigInt(body.head_block) >= chainHead ? BigInt(body.head_block) : undefined;
      },
      60_000,
    );
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("serves every figure equal to a recomputation from the Transfer and Swap logs", async () => {
    const { expected, snipers, bundled } = await recompute();
    const addr = (i: number) => getAddress(stack.wallet(i).account.address);
    // The scenario exercises each figure: a bundle of two, snipers in the next blocks, one after the window.
    expect([...bundled].sort()).toEqual([addr(2), addr(3)].sort());
    expect([...snipers].sort()).toEqual([addr(2), addr(3), addr(4), addr(5)].sort());
    expect(expected.creator_balance_at_launch_wei).not.toBe(expected.creator_balance_wei);
    expect(BigInt(expected.snipers.held_wei)).toBeGreaterThan(0n);

    const res = await stack.request(`/api/public/token/${token}/integrity`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { creator_funded, ...figures } = res.body.integrity;
    expect(figures).toEqual(expected);
    // Not measured, and said so: never a count of 0.
    // The sniper window is not confirmed yet (no block was mined since): pending, never a count of 0.
    expect(creator_funded).toMatchObject({ status: "pending", available: false, count: null, held_bps: null });
    expect(creator_funded.reason).toMatch(/confirmed/);

    // The same record by slug, on the token detail and on v1.
    const bySlug = await stack.request("/api/public/token/integ/integrity");
    expect(bySlug.body.integrity).toEqual(res.body.integrity);
    const detail = await stack.request(`/api/public/token/${token}`);
    expect(detail.body.token.integrity).toEqual(res.body.integrity);
    const v1 = await stack.request(`/api/v1/evmchain/tokens/${token}/integrity`);
    expect(v1.status).toBe(200);
    expect(v1.body.integrity).toEqual(res.body.integrity);
    const v1Detail = await stack.request(`/api/v1/evmchain/tokens/${token}`);
    expect(v1Detail.body.token.integrity).toEqual(res.body.integrity);

    // Every token record carries the summary (list items, the batch read, the detail): the same
    // shares and counts as the integrity record, read at the record's own block.
    const summary = {
      creator_balance_bps: expected.creator_balance_bps,
      snipers: { count: expected.snipers.count, held_bps: expected.snipers.held_bps },
      bundled: { count: expected.bundled.count, held_bps: expected.bundled.held_bps },
    };
    expect(summary.snipers.held_bps).toBeGreaterThan(0);
    const listed = await stack.request("/api/public/tokens/new?limit=50");
    expect(listed.status).toBe(200);
    const item = listed.body.tokens.find((t: { address: string }) => t.address === getAddress(token));
    expect(item?.launch_integrity).toEqual(summary);
    const batch = await stack.request(`/api/public/tokens?addresses=${token}`);
    expect(batch.status).toBe(200);
    expect(JSON.stringify(batch.body)).toContain(JSON.stringify(summary));
    expect(detail.body.token.launch_integrity).toEqual(summary);
    expect(v1Detail.body.token.launch_integrity).toEqual(summary);
  });

  it("serves creator_funded equal to a scan of every block's transactions, once the window is confirmed", async () => {
    const { publicClient } = stack;
    const addr = (i: number) => getAddress(stack.wallet(i).account.address);
    // Independently: every block of the window read with its transactions; the snipers' first buys
    // (block, transaction index, sender) from the Swap logs and their transactions.
    const windowStart = launchBlock > FUNDING_LOOKBACK_BLOCKS ? launchBlock - FUNDING_LOOKBACK_BLOCKS : 0n;
    const windowEnd = launchBlock + WINDOW_BLOCKS;
    const sent: { to: Address; value: bigint; block: bigint; index: number }[] = [];
    for (let b = windowStart; b <= windowEnd; b++) {
      const block = await publicClient.getBlock({ blockNumber: b, includeTransactions: true });
      for (const tx of block.transactions)
        if (getAddress(tx.from) === creator && tx.to && tx.value > 0n)
          sent.push({ to: getAddress(tx.to), value: tx.value, block: b, index: tx.transactionIndex });
    }
    const swaps = await publicClient.getContractEvents({
      address: pool,
      abi: uniswapV3PoolAbi,
      eventName: "Swap",
      fromBlock: launchBlock,
      toBlock: windowEnd,
    });
    const tokenIsToken0 = token.toLowerCase() < stack.manifest.contracts.weth.toLowerCase();
    const firstBuy = new Map<Address, { block: bigint; index: number; from: Address }>();
    for (const log of swaps) {
      const delta = tokenIsToken0 ? log.args.amount0! : log.args.amount1!;
      const recipient = getAddress(log.args.recipient!);
      if (delta >= 0n || recipient === creator || firstBuy.has(recipient)) continue;
      const tx = await publicClient.getTransaction({ hash: log.transactionHash });
      firstBuy.set(recipient, { block: log.blockNumber, index: log.transactionIndex, from: getAddress(tx.from) });
    }
    const funded = [...firstBuy.entries()].filter(([sniper, buy]) =>
      sent.some(
        (t) =>
          (t.to === sniper || t.to === buy.from) &&
          (t.block < buy.block || (t.block === buy.block && t.index < buy.index)),
      ),
    );
    const fundedWei = [...firstBuy.entries()]
      .flatMap(([sniper, buy]) =>
        sent.filter(
          (t) =>
            (t.to === sniper || t.to === buy.from) &&
            (t.block < buy.block || (t.block === buy.block && t.index < buy.index)),
        ),
      )
      .reduce((s, t) => s + t.value, 0n);
    // The scenario: wallet 4 funded before its first buy; wallet 5 only after it; wallet 6 no sniper.
    expect(funded.map(([a]) => a)).toEqual([addr(4)]);
    const { expected } = await recompute();
    const balanceOf = (a: Address) =>
      publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [a] });
    const heldWei = (await Promise.all(funded.map(([a]) => balanceOf(a)))).reduce((s, b) => s + b, 0n);

    // Confirm the window: mine past the indexer's finalized block (30-59 blocks behind the head).
    await rpc("anvil_mine", ["0x64"]);
    const measured = await until(
      "creator_funded measured",
      async () => {
        const { body } = await stack.request(`/api/public/token/${token}/integrity`);
        return body.integrity?.creator_funded?.status === "pending" ? undefined : body.integrity;
      },
      60_000,
    );
    expect(measured.creator_funded).toEqual({
      status: "measured",
      available: true,
      count: funded.length,
      funded_eth_wei: fundedWei.toString(),
      held_wei: heldWei.toString(),
      held_bps: holderShareBps(heldWei, BigInt(expected.total_supply)),
      window_start_block: Number(windowStart),
      window_end_block: Number(windowEnd),
      reason: null,
    });
    expect(heldWei).toBeGreaterThan(0n);
    // Every surface serves the same record.
    const detail = await stack.request(`/api/public/token/${token}`);
    expect(detail.body.token.integrity).toEqual(measured);
    const v1 = await stack.request(`/api/v1/evmchain/tokens/${token}/integrity`);
    expect(v1.body.integrity).toEqual(measured);
  });

  it.skipIf(!onPostgres)(
    "scan: a node that does not answer delays the launch without end; one that refuses makes it unavailable",
    async () => {
      const client = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
      await client.connect();
      const dir = await mkdtemp(join(tmpdir(), "funding-store-"));
      const store = await openStore({ kind: "pglite", dir, schema: "funding_test" });
      // A node that answers every call with a JSON-RPC error, as one without historical state does.
      const refusing = createServer((req, res) => {
        let body = "";
        req.on("data", (chunk) => {
          body += chunk;
        });
        req.on("end", () => {
          const call = JSON.parse(body) as { id: number };
          res.setHeader("content-type", "application/json");
          res.end(
            JSON.stringify({ jsonrpc: "2.0", id: call.id, error: { code: -32000, message: "missing trie node" } }),
          );
        });
      });
      await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
      try {
        await client.query(`set search_path = "${stack.schema}"`);
        const db = drizzle(client, { schema }) as unknown as MarketDb;
        const scannerOn = (url: string) =>
          creatorFundingScanner({
            db,
            store,
            client: createPublicClient({ transport: http(url, { retryCount: 0 }) }) as never,
            confirmationBlocks: 0,
            giveUpAfterFailures: 3,
          });
        // Nothing listens on port 1: every round fails and nothing is written, however many.
        const down = scannerOn("http://127.0.0.1:1");
        for (let i = 0; i < 5; i++) {
          await expect(down.tick()).rejects.toThrow();
          expect(await lastFundingScannedSeq(store)).toBe(0);
        }
        const refused = scannerOn(`http://127.0.0.1:${(refusing.address() as AddressInfo).port}`);
        for (let i = 0; i < 2; i++) {
          await expect(refused.tick()).rejects.toThrow(/missing trie node/);
          expect(await creatorFundingOf(store, token)).toBeNull();
        }
        expect(await refused.tick()).toBe(1);
        const given = await creatorFundingOf(store, token);
        expect(given).toMatchObject({ status: "unavailable", funded: [], creatorTransactionCount: null });
        expect(given?.reason).toBe("the RPC refused: -32000: missing trie node");
        // The live node gives the launch's row as the service stored it.
        const launch = {
          token: token.toLowerCase(),
          creator: creator.toLowerCase(),
          launchBlockNumber: launchBlock,
          launchSeq: given!.launchSeq,
        };
        const row = await scanLaunch({ db, client: stack.publicClient as never }, launch, 0);
        expect(row.status).toBe("measured");
        expect(row.funded.map((f) => f.address)).toEqual([stack.wallet(4).account.address.toLowerCase()]);
      } finally {
        refusing.close();
        await store.close();
        await client.end();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it("refuses bad input with catalogued errors", async () => {
    for (const [path, status, error] of [
      [`/api/public/token/${zeroAddress}/integrity`, 404, "token_not_found"],
      ["/api/public/token/no-such-coin/integrity", 404, "token_not_found"],
      [`/api/v1/evmchain/tokens/0x1234/integrity`, 400, "invalid_address"],
      [`/api/v1/evmchain/tokens/${zeroAddress}/integrity`, 404, "token_not_found"],
    ] as const) {
      const res = await stack.request(path);
      expect({ path, status: res.status, error: res.body.error, ok: res.body.ok }).toEqual({
        path,
        status,
        error,
        ok: false,
      });
      expect(typeof res.body.message).toBe("string");
    }
  });

  it.skipIf(!onPostgres)("reads the ten largest balances from the holder index, without a scan or a sort", async () => {
    const client = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
    await client.connect();
    try {
      for (const off of ["enable_seqscan", "enable_bitmapscan", "enable_sort"]) await client.query(`set ${off} = off`);
      await client.query(`set search_path = "${stack.schema}"`);
      const t = token.toLowerCase();
      // As market/integrity.ts asks: the token and integrity rows by key, the creator's holder row
      // by key, the ten largest balances other than the pool's and the fee locker's.
      const { rows } = await client.query(
        `explain select t.total_supply, i.sniper_held_wei,
           (select balance_wei from holder where holder.token = $1 and holder.address = t.creator) as creator_now,
           (select string_agg(top.b, ',') from (
              select balance_wei::text as b from holder
              where holder.token = $1 and balance_wei > 0 and holder.address <> t.pool and holder.address <> $2
              order by balance_wei desc, address asc limit 10) as top) as top_balances
         from token t join token_integrity i on i.token = t.address where t.address = $1`,
        [t, stack.manifest.contracts.feeLocker.toLowerCase()],
      );
      const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(plan).toContain("holder_balance_idx");
      expect(plan).not.toMatch(/Seq Scan|Sort/);
      expect(plan).not.toMatch(/\btrade\b/);
    } finally {
      await client.end();
    }
  });
});
