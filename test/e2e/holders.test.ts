/**
 * End to end, holders (docs/public.md "Holders") through the real service: launches, buys and sells
 * through the pool, wallet-to-wallet transfers, a transfer to self, a zero-value transfer and a
 * holder that leaves; then every served holder balance equals `balanceOf` on chain at the indexed
 * block, and `holder_count` and the holder set equal an independent recomputation from the
 * tokens' standard ERC-20 `Transfer` logs (viem `getContractEvents`). Also: the launch
 * transaction's own holders (counted before `TokenLaunched`), paging, labels, the v1 mirror and
 * bad input.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { erc20Abi, getAddress, parseEther, zeroAddress, type Address } from "viem";
import { buyToken, launchToken, sellToken, transferToken } from "../../devnet/actions";
import { holderShareBps } from "../../src/domain/holders";
import { startStack, until, type Stack } from "../helpers/harness";
import { postgresAvailable } from "../helpers/postgres";

// On PostgreSQL (the production database) when the test database is there, else on PGlite.
const onPostgres = await postgresAvailable();

let stack: Stack;
const tokens: { address: Address; pool: Address; launchBlock: bigint }[] = [];
let headBlock: bigint;

type HolderRecord = {
  address: Address;
  balance_wei: string;
  share_bps: number;
  label: string | null;
  updated_block_number: number;
};

/** Every served holder of a token, paged with a small limit (exercises the cursor). */
async function servedHolders(token: Address, limit = 3): Promise<{ holders: HolderRecord[]; count: number }> {
  const holders: HolderRecord[] = [];
  let cursor: string | null = null;
  let count = -1;
  do {
    const res = await stack.request(
      `/api/public/token/${token}/holders?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(res.status).toBe(200);
    holders.push(...res.body.holders);
    count = res.body.holder_count;
    cursor = res.body.next_cursor;
  } while (cursor);
  return { holders, count };
}

/** Balances recomputed from the token's `Transfer` logs up to `toBlock` (non-zero only, zero address excluded). */
async function balancesFromTransfers(token: Address, fromBlock: bigint, toBlock: bigint) {
  const logs = await stack.publicClient.getContractEvents({
    address: token,
    abi: erc20Abi,
    eventName: "Transfer",
    fromBlock,
    toBlock,
  });
  const balances = new Map<Address, bigint>();
  for (const { args } of logs) {
    const from = getAddress(args.from!);
    const to = getAddress(args.to!);
    if (from !== zeroAddress) balances.set(from, (balances.get(from) ?? 0n) - args.value!);
    if (to !== zeroAddress) balances.set(to, (balances.get(to) ?? 0n) + args.value!);
  }
  for (const [a, b] of balances) if (b === 0n) balances.delete(a);
  return balances;
}

/** `balanceOf` at a block, or at the latest block (viem's cached block number could be stale). */
const balanceAt = (token: Address, holder: Address, blockNumber?: bigint) =>
  stack.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [holder],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });

describe("holders", () => {
  beforeAll(async () => {
    stack = await startStack({
      schema: "e2e_holders",
      database: onPostgres ? "postgres" : "pglite",
      env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" },
    });
    const { publicClient, manifest } = stack;
    const w = (i: number) => stack.wallet(i);
    const a = await launchToken(w(1), publicClient, manifest, {
      name: "Holder Coin",
      symbol: "HOLD",
      firstBuyWei: parseEther("0.02"),
    });
    const b = await launchToken(w(2), publicClient, manifest, { name: "Quiet Coin", symbol: "QUIET" });
    for (const l of [a, b])
      tokens.push({
        address: getAddress(l.event.token),
        pool: getAddress(l.event.pool),
        launchBlock: l.receipt.blockNumber,
      });
    const [A, B] = [tokens[0]!.address, tokens[1]!.address];
    const addr = (i: number) => w(i).account.address;

    // Pool trades.
    await buyToken(w(3), publicClient, manifest, A, parseEther("0.05"));
    await buyToken(w(4), publicClient, manifest, A, parseEther("0.01"));
    await buyToken(w(3), publicClient, manifest, B, parseEther("0.01"));
    const held3 = await balanceAt(A, addr(3));
    await sellToken(w(3), publicClient, manifest, A, held3 / 4n);
    // Wallet 4 sells everything: no longer a holder.
    const held4 = await balanceAt(A, addr(4));
    await sellToken(w(4), publicClient, manifest, A, held4);
    // Wallet-to-wallet transfers, a transfer to self, a zero-value transfer to a new address, and
    // the creator's whole first buy moved to another wallet.
    await transferToken(w(3), publicClient, A, addr(5), held3 / 8n);
    await transferToken(w(5), publicClient, A, addr(5), 1n);
    await transferToken(w(5), publicClient, A, addr(6), 0n);
    await transferToken(w(1), publicClient, A, addr(7), a.event.firstBuyTokensOut);
    await transferToken(w(3), publicClient, B, addr(8), 12_345n);

    // Indexed up to the chain head (nothing mines in the background).
    const chainHead = await publicClient.getBlockNumber({ cacheTime: 0 });
    headBlock = await until(
      "holders indexed to the chain head",
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

  it("serves every holder with its on-chain balance at the indexed block, and the count recomputed from Transfer logs", async () => {
    for (const t of tokens) {
      const { holders, count } = await servedHolders(t.address);
      const expected = await balancesFromTransfers(t.address, t.launchBlock, headBlock);
      expect(count).toBe(expected.size);
      expect(holders).toHaveLength(expected.size);
      expect(new Map(holders.map((h) => [h.address, BigInt(h.balance_wei)]))).toEqual(expected);
      const totalSupply = await stack.publicClient.readContract({
        address: t.address,
        abi: erc20Abi,
        functionName: "totalSupply",
      });
      for (const h of holders) {
        expect(BigInt(h.balance_wei)).toBe(await balanceAt(t.address, h.address, headBlock));
        expect(h.share_bps).toBe(holderShareBps(BigInt(h.balance_wei), totalSupply));
        expect(h.updated_block_number).toBeLessThanOrEqual(Number(headBlock));
      }
      // Balance descending, then address ascending; no address twice across pages.
      for (let i = 1; i < holders.length; i++) {
        const [p, q] = [holders[i - 1]!, holders[i]!];
        const [pb, qb] = [BigInt(p.balance_wei), BigInt(q.balance_wei)];
        expect(pb > qb || (pb === qb && p.address.toLowerCase() < q.address.toLowerCase())).toBe(true);
      }
      // The token record carries the same count, and the detail its ten largest holders.
      const detail = await stack.request(`/api/public/token/${t.address}`);
      expect(detail.body.token.holder_count).toBe(expected.size);
      expect(detail.body.token.top_holders).toEqual(holders.slice(0, 10));
      const listed = await stack.request("/api/public/tokens/new?limit=10");
      expect(listed.body.tokens.find((r: { address: string }) => r.address === t.address).holder_count).toBe(
        expected.size,
      );
    }
  });

  it("counts the launch transaction's holders and covers the cases of the scenario", async () => {
    const [A, B] = [tokens[0]!, tokens[1]!];
    const addr = (i: number) => stack.wallet(i).account.address;
    const { holders } = await servedHolders(A.address, 50);
    const byAddress = new Map(holders.map((h) => [h.address, h]));
    // The pool holds the liquidity (labelled); the factory kept nothing.
    expect(byAddress.get(A.pool)?.label).toBe("pool");
    expect(byAddress.has(stack.manifest.contracts.launchFactory)).toBe(false);
    // Sold out, moved everything, or received 0: not holders.
    for (const gone of [addr(4), addr(1), addr(6)]) expect(byAddress.has(gone)).toBe(false);
    for (const kept of [addr(3), addr(5), addr(7)]) expect(byAddress.get(kept)?.label).toBeNull();
    // The quiet token: its holders right after the launch transaction are all counted, pool included.
    const quiet = await servedHolders(B.address);
    const atLaunch = await balancesFromTransfers(B.address, B.launchBlock, B.launchBlock);
    expect(atLaunch.size).toBeGreaterThan(0);
    for (const address of atLaunch.keys())
      if ((await balanceAt(B.address, address, headBlock)) > 0n)
        expect(quiet.holders.map((h) => h.address)).toContain(address);
    expect(quiet.holders.map((h) => h.address)).toEqual(expect.arrayContaining([B.pool, addr(3), addr(8)]));
  });

  it("mirrors holders on v1 and refuses bad input with catalogued errors", async () => {
    const A = tokens[0]!.address;
    const pub = await servedHolders(A, 200);
    const v1 = await stack.request(`/api/v1/evmchain/tokens/${A}/holders?limit=200`);
    expect(v1.status).toBe(200);
    expect(v1.body.holders).toEqual(pub.holders);
    expect(v1.body.holder_count).toBe(pub.count);
    const v1Token = await stack.request(`/api/v1/evmchain/tokens/${A}`);
    expect(v1Token.body.token.top_holders).toEqual(pub.holders.slice(0, 10));
    // The slug works on the public surface.
    const bySlug = await stack.request("/api/public/token/hold/holders");
    expect(bySlug.body.holders).toEqual(pub.holders.slice(0, 50));

    for (const [path, status, error] of [
      [`/api/public/token/${A}/holders?cursor=garbage`, 400, "invalid_cursor"],
      [`/api/public/token/${A}/holders?limit=0`, 400, "invalid_request"],
      [`/api/public/token/${A}/holders?limit=201`, 400, "invalid_request"],
      [`/api/public/token/${zeroAddress}/holders`, 404, "token_not_found"],
      [`/api/v1/evmchain/tokens/0x1234/holders`, 400, "invalid_address"],
      [`/api/v1/evmchain/tokens/${A}/holders?cursor=eyJ6IjoxfQ`, 400, "invalid_cursor"],
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

  it.skipIf(!onPostgres)(
    "answers a holder page from the (token, balance desc, address) index, without a sort",
    async () => {
      const client = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
      await client.connect();
      try {
        // Sequential scans, bitmap scans and sorts priced out: a page must come from the index in
        // its order (a table this small would otherwise be sorted in memory).
        for (const off of ["enable_seqscan", "enable_bitmapscan", "enable_sort"])
          await client.query(`set ${off} = off`);
        const { rows } = await client.query(
          "select indexdef from pg_indexes where schemaname = $1 and indexname = $2",
          [stack.schema, "holder_balance_idx"],
        );
        expect(rows[0]?.indexdef).toMatch(/\(token, balance_wei DESC, address\)/);
        await client.query(`set search_path = "${stack.schema}"`);
        const token = tokens[0]!.address.toLowerCase();
        const plan = async (where: string) =>
          (
            await client.query(
              `explain select * from holder where ${where} order by balance_wei desc, address asc limit 50`,
            )
          ).rows
            .map((r) => r["QUERY PLAN"])
            .join("\n");
        // As the service asks (market/holders.ts): rows at 0 are former holders.
        const first = await plan(`token = '${token}' and balance_wei > 0`);
        expect(first).toContain("holder_balance_idx");
        expect(first).not.toMatch(/Sort/);
        const next = await plan(
          `token = '${token}' and balance_wei > 0 and (balance_wei < 1000 or (balance_wei = 1000 and address > '0x00'))`,
        );
        expect(next).toContain("holder_balance_idx");
        expect(next).not.toMatch(/Sort/);
      } finally {
        await client.end();
      }
    },
  );
});
