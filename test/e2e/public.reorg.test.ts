/**
 * End to end, the events feed across a chain reorganisation (anvil `anvil_reorg`): a buy is seen
 * as *pending*, the block holding it is replaced by one holding another buy, and a client that
 * follows `next_since_id` sees only the replacement, once it is confirmed — never the dropped buy.
 * Launch integrity (an early buy's sniper figures) rolls back with the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeFunctionData, erc20Abi, getAddress, parseEther, type Address, type Hash } from "viem";
import { swapRouterAbi } from "../../abis/SwapRouter";
import { buyToken, launchToken } from "../../devnet/actions";
import { startStack, until, type Stack } from "../helpers/harness";
import { FINALIZED_DEPTH } from "../helpers/eventsFeed";

const CONFIRMATIONS = 3;
let stack: Stack;
let token: Address;
let launchBlock: bigint;

type Ev = { id: number; kind: string; tx_hash: string; block_number: number; confirmed: boolean };

async function rpc(method: string, params: unknown[]) {
  return stack.publicClient.request({ method: method as never, params: params as never });
}

beforeAll(async () => {
  stack = await startStack({
    schema: "e2e_public_reorg",
    env: { EVENTS_CONFIRMATION_BLOCKS: String(CONFIRMATIONS), PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" },
  });
  const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
    name: "Reorg",
    symbol: "RORG",
    firstBuyWei: parseEther("0.01"),
  });
  token = getAddress(launched.event.token);
  launchBlock = launched.receipt.blockNumber;
  await rpc("anvil_mine", [`0x${(CONFIRMATIONS + 1).toString(16)}`]);
});

afterAll(async () => {
  await stack?.stop();
});

/** `balanceOf` of a wallet that held none of the token before `blockNumber`: the tokens its buys there bought. */
async function tokensOf(wallet: Address, blockNumber: bigint) {
  return stack.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [wallet],
    blockNumber,
  });
}

/** The served sniper figures (docs/public.md "Launch integrity"). */
async function snipers() {
  const { body } = await stack.request(`/api/public/token/${token}/integrity`);
  const { count, tokens_bought_wei, held_wei } = body.integrity.snipers;
  return { count, tokens_bought_wei, held_wei };
}

/** A client following the confirmed stream with `since_id`. */
async function follow(sinceId: number): Promise<{ events: Ev[]; next: number }> {
  const events: Ev[] = [];
  let since = sinceId;
  for (;;) {
    const { body } = await stack.request(`/api/public/events?since_id=${since}&limit=3`);
    expect(body.ok).toBe(true);
    events.push(...body.events);
    const moved = body.next_since_id !== since;
    since = body.next_since_id;
    if (body.events.length === 0 || !moved) return { events, next: since };
  }
}

describe("events feed across a reorg", () => {
  it("never hands a dropped event to a cursor-following client", async () => {
    const chainHead = await stack.publicClient.getBlockNumber({ cacheTime: 0 });
    // Indexed, not yet confirmed: the launch is below the finalized block only 30-59 blocks later,
    // and buy X must stay within the sniper window of the launch.
    await until("launch indexed", async () => {
      const { body } = await stack.request(`/api/public/events?limit=10&include_pending=1`);
      return body.ok && body.head_block >= Number(chainHead) && body.pending?.some((e: Ev) => e.kind === "launch")
        ? true
        : undefined;
    });
    const first = await follow(0);

    // Buy X lands in block n and shows up as pending only.
    const x = await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("0.02"));
    const n = x.receipt.blockNumber;
    const pendingX = await until("X pending", async () => {
      const { body } = await stack.request(`/api/public/events?since_id=${first.next}&include_pending=1`);
      return body.pending?.some((e: Ev) => e.tx_hash === x.hash) ? body : undefined;
    });
    expect(pendingX.events).toEqual([]);
    expect(pendingX.pending.every((e: Ev) => e.confirmed === false && e.id > pendingX.next_since_id)).toBe(true);
    const xIds = pendingX.pending.filter((e: Ev) => e.tx_hash === x.hash).map((e: Ev) => e.id);
    expect((await follow(first.next)).events).toEqual([]);
    // X is an early buy (within the sniper window of the launch): launch integrity counts its buyer.
    expect(n - launchBlock).toBeLessThanOrEqual(10n);
    const xTokens = await tokensOf(stack.wallet(2).account.address, n);
    expect(xTokens).toBeGreaterThan(0n);
    expect(await snipers()).toEqual({ count: 1, tokens_bought_wei: String(xTokens), held_wei: String(xTokens) });

    // Replace block n with a block holding buy Y from another wallet.
    const buyer = stack.wallet(3).account.address;
    const block = await stack.publicClient.getBlock({ blockNumber: n });
    const data = encodeFunctionData({
      abi: swapRouterAbi,
      functionName: "exactInputSingle",
      args: [
        {
          tokenIn: stack.manifest.contracts.weth,
          tokenOut: token,
          fee: 10_000,
          recipient: buyer,
          deadline: block.timestamp + 3600n,
          amountIn: parseEther("0.03"),
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
    });
    await rpc("anvil_reorg", [
      1,
      [
        [
          {
            from: buyer,
            to: stack.manifest.contracts.swapRouter,
            data,
            value: `0x${parseEther("0.03").toString(16)}`,
            gas: "0x7a120",
          },
          0,
        ],
      ],
    ]);
    const replaced = await stack.publicClient.getBlock({ blockNumber: n });
    expect(replaced.hash).not.toBe(block.hash);
    const yHash = replaced.transactions[0] as Hash;
    const yReceipt = await stack.publicClient.getTransactionReceipt({ hash: yHash });
    expect(yReceipt.status).toBe("success");
    await rpc("anvil_mine", ["0x1"]);

    // The service rolls X back and shows Y as pending; trades agree.
    const pendingY = await until("Y replaces X", async () => {
      const { body } = await stack.request(`/api/public/events?since_id=${first.next}&include_pending=1`);
      const hashes = (body.pending ?? []).map((e: Ev) => e.tx_hash);
      return hashes.includes(yHash) && !hashes.includes(x.hash) ? body : undefined;
    });
    expect(pendingY.events).toEqual([]);
    const trades = await stack.request(`/api/public/token/${token}/trades`);
    expect(trades.body.trades.map((t: { tx_hash: string }) => t.tx_hash)).not.toContain(x.hash);
    expect(trades.body.trades[0].tx_hash).toBe(yHash);
    const yIds = pendingY.pending.filter((e: Ev) => e.tx_hash === yHash).map((e: Ev) => e.id);
    // Same chain position, so the same id: why pending ids are never a cursor.
    expect(yIds).toEqual(xIds);
    // Launch integrity rolled back with the rest: Y's buyer is the one sniper, X's is gone.
    const yTokens = await tokensOf(buyer, n);
    expect(yTokens).not.toBe(xTokens);
    expect(await snipers()).toEqual({ count: 1, tokens_bought_wei: String(yTokens), held_wei: String(yTokens) });

    // Once Y is confirmed, the cursor-following client receives it — and never saw X.
    await rpc("anvil_mine", [`0x${FINALIZED_DEPTH.toString(16)}`]);
    const later = await until("Y confirmed", async () => {
      const r = await follow(first.next);
      return r.events.some((e) => e.tx_hash === yHash) ? r : undefined;
    });
    const seen = [...first.events, ...later.events];
    expect(seen.map((e) => e.tx_hash)).not.toContain(x.hash);
    // The launch, its first buy (ordered after its launch event), then Y.
    expect(seen.map((e) => e.kind)).toEqual(["launch", "trade", "trade"]);
    expect(seen.map((e) => e.confirmed)).toEqual([true, true, true]);
    expect(seen.at(-1)?.tx_hash).toBe(yHash);
    const ids = seen.map((e) => e.id);
    expect([...new Set(ids)].sort((a, b) => a - b)).toEqual(ids);
  });
});
