/**
 * The RPC budget of the launch write path (docs/launch.md "RPC budget"; `test/helpers/rpcBudget.ts`): the
 * real service on anvil with the counting proxy (`test/helpers/rpcProxy.ts`) between the API and the node,
 * and the indexer on the node directly (`INDEXER_RPC_URLS`), so the proxy sees the API's requests
 * only. Acting as the creator's wallet through `/api/v1`, each call's requests (proxy counts before
 * and after it) must equal the budget: a change that adds a round trip fails here, and one that
 * saves a request fails too until the budget and the docs are lowered to match.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keccak256, parseEther, toHex, type Hash, type Hex } from "viem";
import { devAccount } from "../../devnet/clients";
import { buyToken, launchToken } from "../../devnet/actions";
import { scaledMs } from "../helpers/deadlines";
import { startStack, jsonPost as json, until, type Stack } from "../helpers/harness";
import { addCounts, overBudget, RPC_BUDGET, type RpcCounts } from "../helpers/rpcBudget";
import { diffCounts, startRpcProxy, type RpcProxy } from "../helpers/rpcProxy";

let stack: Stack;
let proxy: RpcProxy | undefined;

beforeAll(async () => {
  stack = await startStack({
    schema: "e2e_rpcbudget",
    serviceRpcUrl: async (anvilRpcUrl) => {
      proxy = await startRpcProxy({ target: anvilRpcUrl });
      return proxy.url;
    },
    indexerRpcUrl: (anvilRpcUrl) => anvilRpcUrl,
  });
});

afterAll(async () => {
  await stack?.stop();
  await proxy?.stop();
});

/** Runs `call` and returns its answer with the API's RPC requests made meanwhile. */
async function counted<T>(call: () => Promise<T>): Promise<{ result: T; rpc: RpcCounts }> {
  const before = proxy!.counts().pass;
  const result = await call();
  return { result, rpc: diffCounts(before, proxy!.counts().pass) };
}

/** Asserts the counts equal the budget, naming what is over (a regression) or under (update the budget). */
function expectBudget(what: string, rpc: RpcCounts, budget: RpcCounts) {
  expect(overBudget(rpc, budget), `${what}: RPC requests over budget ${JSON.stringify(rpc)}`).toEqual([]);
  expect(rpc, `${what}: fewer RPC requests than budgeted: lower test/helpers/rpcBudget.ts and docs/launch.md`).toEqual(
    budget,
  );
}

let launches = 0;
/** Intent -> personal_sign -> build (counted) as dev account `wallet`. */
async function intentAndBuild(wallet: number, firstBuyWei: bigint) {
  const n = ++launches;
  const intent = await stack.request(
    "/api/v1/evmchain/launches/intent",
    json(
      {
        creator: devAccount(wallet).address,
        name: `Budget ${n}`,
        symbol: `BDG${n}`,
        first_buy_wei: firstBuyWei.toString(),
      },
      { "Idempotency-Key": `rpcbudget-${n}-${Date.now()}` },
    ),
  );
  expect(intent.status, JSON.stringify(intent.body)).toBe(201);
  const launchId = intent.body.launch_id as string;
  const signature = await stack.wallet(wallet).signMessage({ message: intent.body.intent.message });
  const build = () =>
    stack.request("/api/v1/evmchain/launches/build", json({ launch_id: launchId, intent_signature: signature }));
  const built = await counted(build);
  expect(built.result.status, JSON.stringify(built.result.body)).toBe(200);
  return {
    launchId,
    build,
    built: built.result.body as { transaction: { to: Hex; data: Hex; value: Hex; gas: Hex } },
    rpc: built.rpc,
  };
}

/** Sends the built transaction unchanged and waits for its receipt (directly on anvil). */
async function send(wallet: number, tx: { to: Hex; data: Hex; value: Hex; gas: Hex }): Promise<Hash> {
  const hash = await stack
    .wallet(wallet)
    .sendTransaction({ chain: null, to: tx.to, data: tx.data, value: BigInt(tx.value), gas: BigInt(tx.gas) });
  await stack.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

const confirm = (launchId: string, txHash: Hash) =>
  stack.request("/api/v1/evmchain/launches/confirm", json({ launch_id: launchId, tx_hash: txHash }));

describe("RPC requests per launch call (v1, through the counting proxy)", () => {
  it("the API sends nothing to the RPC while idle (so the counts below are the calls' own)", async () => {
    const idle = await counted(() => new Promise((r) => setTimeout(r, 1000)));
    expect(idle.rpc).toEqual({});
  });

  it("launch with a first buy: the process's first build reads the factory minimum once more; confirm = receipt + one multicall; replays cost nothing", async () => {
    const { launchId, build, built, rpc } = await intentAndBuild(1, parseEther("0.05"));
    expectBudget("first build of the process", rpc, addCounts(RPC_BUDGET.build, RPC_BUDGET.firstBuildExtra));

    const replay = await counted(build);
    expect(replay.result.status).toBe(200);
    expectBudget("replayed build", replay.rpc, RPC_BUDGET.replay);

    const hash = await send(1, built.transaction);
    const confirmed = await counted(() => confirm(launchId, hash));
    expect(confirmed.result.status, JSON.stringify(confirmed.result.body)).toBe(200);
    expectBudget("confirm", confirmed.rpc, RPC_BUDGET.confirm);

    const again = await counted(() => confirm(launchId, hash));
    expect(again.result.body).toEqual(confirmed.result.body);
    expectBudget("replayed confirm", again.rpc, RPC_BUDGET.replay);
  });

  it("launch without a first buy: build and confirm within the same budget", async () => {
    const { launchId, built, rpc } = await intentAndBuild(2, 0n);
    expectBudget("build", rpc, RPC_BUDGET.build);
    const hash = await send(2, built.transaction);
    const confirmed = await counted(() => confirm(launchId, hash));
    expect(confirmed.result.status, JSON.stringify(confirmed.result.body)).toBe(200);
    expectBudget("confirm", confirmed.rpc, RPC_BUDGET.confirm);
  });

  it("a pending confirm costs the receipt lookup only; the real confirm afterwards the usual budget", async () => {
    const { launchId, built, rpc } = await intentAndBuild(3, parseEther("0.01"));
    expectBudget("build", rpc, RPC_BUDGET.build);
    const pending = await counted(() => confirm(launchId, keccak256(toHex(`not sent ${Date.now()}`))));
    expect(pending.result.status).toBe(202);
    expectBudget("pending confirm", pending.rpc, RPC_BUDGET.confirmPending);
    const hash = await send(3, built.transaction);
    const confirmed = await counted(() => confirm(launchId, hash));
    expect(confirmed.result.status, JSON.stringify(confirmed.result.body)).toBe(200);
    expectBudget("confirm", confirmed.rpc, RPC_BUDGET.confirm);
  });

  it("an anonymous creator-rewards GET for a creator of 8 launches costs two multicalls, a repeat at the same block none", async () => {
    const creator = stack.wallet(4);
    let token = "" as Hex;
    for (let i = 0; i < 8; i++)
      token = (
        await launchToken(creator, stack.publicClient, stack.manifest, {
          name: `Rewards ${i}`,
          symbol: `RWD${i}`,
          firstBuyWei: parseEther("0.001"),
        })
      ).event.token;
    // A trade pays fees into the last pool, so some position has something uncollected.
    await buyToken(stack.wallet(5), stack.publicClient, stack.manifest, token, parseEther("0.01"));
    const wallet = creator.account.address;
    const path = `/api/evm/evmchain/creator-rewards?wallet=${wallet}`;
    const first = await until(
      "the 8 launches indexed",
      async () => {
        const r = await counted(() => stack.request(path));
        return r.result.status === 200 && r.result.body.tokens.length === 8 ? r : undefined;
      },
      scaledMs(60_000),
    );
    expectBudget("creator rewards", first.rpc, RPC_BUDGET.creatorRewards);
    expect(
      first.result.body.tokens.some(
        (t: { unclaimed: { creator_wei: string } }) => BigInt(t.unclaimed.creator_wei) > 0n,
      ),
    ).toBe(true);
    // The same block: no RPC at all, the same answer. (Mine nothing in between.)
    const again = await counted(() => stack.request(path));
    if (again.result.body.as_of_block === first.result.body.as_of_block) {
      expectBudget("creator rewards at the same block", again.rpc, RPC_BUDGET.creatorRewardsRepeat);
      expect(again.result.body).toEqual({ ...first.result.body, request_id: again.result.body.request_id });
    }
  });
});
