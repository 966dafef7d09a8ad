/**
 * End to end, launches into pools someone else created first (spec: an existing pool must not
 * block a launch): the factory initialises or moves the pool to the start price, mints, locks and
 * makes the first buy, all before its `TokenLaunched` event, so the indexer learns of the pool only
 * after those logs (src/indexing/prelaunchLogs.ts). For each kind of pre-created pool the served token must
 * carry the factory's start price, reserves equal to the pool's balances, and exactly the first
 * buy as its trade, amounts from the receipt; both when indexed live and when a second service
 * indexes the same chain from scratch (Ponder's historical mode).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { erc20Abi, getAddress, parseEther, parseEventLogs, type Address } from "viem";
import { launchFactoryAbi } from "../../abis/LaunchFactory";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool";
import { launchToken } from "../../devnet/actions";
import { createDevnetClients, devAccount } from "../../devnet/clients";
import { waitIndexed, waitReady } from "../../scripts/serviceReadiness";
import { priceWeiPerToken } from "../../src/domain/price";
import { nameForOrientation, precreateHostilePool, type HostilePoolPlan } from "../helpers/hostilePool";
import { startStack, until, type Stack } from "../helpers/harness";

const FIRST_BUY_WEI = parseEther("0.05");

type Case = { label: string; tokenIsToken0: boolean; plan: HostilePoolPlan | "start price" | null };
const cases: Case[] = [
  {
    label: "initialised far too expensive, attacker WETH liquidity",
    tokenIsToken0: true,
    plan: { hostileTick: 50000, wethRange: [-100000, 0] },
  },
  {
    label: "initialised far too expensive, attacker WETH liquidity (token1)",
    tokenIsToken0: false,
    plan: { hostileTick: -50000, wethRange: [0, 100000] },
  },
  { label: "created, not initialised", tokenIsToken0: false, plan: { hostileTick: null, wethRange: null } },
  { label: "initialised at exactly the start price", tokenIsToken0: true, plan: "start price" },
  { label: "no pool before the launch", tokenIsToken0: false, plan: null },
];

/** What the chain says each launch must be served as. */
type Expected = {
  label: string;
  token: Address;
  launchPriceWei: string;
  reserveWei: string;
  reserveToken: string;
  firstBuy: { ethAmountWei: string; tokenAmount: string; txHash: string };
};

let stack: Stack;
const expected: Expected[] = [];

beforeAll(async () => {
  stack = await startStack({ schema: "e2e_prelaunch" });
  const { publicClient, manifest } = stack;
  const creator = devAccount(5);
  const attacker = createDevnetClients(stack.anvil.rpcUrl, manifest.chainId, devAccount(6));
  for (const [i, c] of cases.entries()) {
    const base = `Pre ${i}`;
    const { name, symbol, predicted } = await nameForOrientation(
      publicClient,
      manifest,
      creator.address,
      base,
      c.tokenIsToken0,
    );
    const startSqrtPriceX96 = await publicClient.readContract({
      address: manifest.contracts.launchFactory,
      abi: launchFactoryAbi,
      functionName: "startSqrtPriceX96",
      args: [c.tokenIsToken0],
    });
    if (c.plan === "start price") {
      await precreateHostilePool(attacker, manifest, predicted, {
        hostileTick: null,
        wethRange: null,
        initialSqrtPriceX96: startSqrtPriceX96,
      });
    } else if (c.plan) {
      await precreateHostilePool(attacker, manifest, predicted, c.plan);
    }
    const { receipt, event } = await launchToken(stack.wallet(5), publicClient, manifest, {
      name,
      symbol,
      firstBuyWei: FIRST_BUY_WEI,
    });
    expect(getAddress(event.token)).toBe(predicted);
    // The first buy: the pool's Swap sent by the router.
    const buys = parseEventLogs({ abi: uniswapV3PoolAbi, eventName: "Swap", logs: receipt.logs }).filter(
      (l) =>
        getAddress(l.address) === getAddress(event.pool) && getAddress(l.args.sender) === manifest.contracts.swapRouter,
    );
    expect(buys).toHaveLength(1);
    const buy = buys[0]!;
    const [reserveWei, reserveToken] = await Promise.all([
      publicClient.readContract({
        address: manifest.contracts.weth,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [event.pool],
      }),
      publicClient.readContract({ address: event.token, abi: erc20Abi, functionName: "balanceOf", args: [event.pool] }),
    ]);
    expected.push({
      label: c.label,
      token: getAddress(event.token),
      launchPriceWei: priceWeiPerToken(startSqrtPriceX96, c.tokenIsToken0, 18).toString(),
      reserveWei: reserveWei.toString(),
      reserveToken: reserveToken.toString(),
      firstBuy: {
        ethAmountWei: (c.tokenIsToken0 ? buy.args.amount1 : buy.args.amount0).toString(),
        tokenAmount: (-(c.tokenIsToken0 ? buy.args.amount0 : buy.args.amount1)).toString(),
        txHash: receipt.transactionHash,
      },
    });
  }
  // Bury the launches under finalized blocks, so a new service indexes them as history.
  await publicClient.request({ method: "anvil_mine" as never, params: ["0x100"] as never });
});

afterAll(async () => {
  await stack?.stop();
});

/** Asserts that the service at `baseUrl` serves every expected launch. */
async function expectServed(baseUrl: string): Promise<void> {
  const get = async (path: string) => {
    const res = await fetch(`${baseUrl}${path}`);
    expect(res.status, path).toBe(200);
    return (await res.json()) as any;
  };
  for (const e of expected) {
    const { token } = await until(`token ${e.label}`, async () => {
      const res = await fetch(`${baseUrl}/api/public/token/${e.token}`);
      return res.ok ? ((await res.json()) as any) : undefined;
    });
    expect(token.launch_price_wei, e.label).toBe(e.launchPriceWei);
    expect(token.liquidity.reserve_wei, e.label).toBe(e.reserveWei);
    expect(token.liquidity.reserve_token, e.label).toBe(e.reserveToken);
    const { trades } = await get(`/api/public/token/${e.token}/trades?limit=10`);
    expect(trades, e.label).toHaveLength(1);
    expect(trades[0], e.label).toMatchObject({
      side: "buy",
      eth_amount_wei: e.firstBuy.ethAmountWei,
      token_amount: e.firstBuy.tokenAmount,
      tx_hash: e.firstBuy.txHash,
    });
  }
}

describe("launches into pre-created pools", () => {
  it("are served with the start price, the pool's reserves and the first buy when indexed live", async () => {
    await waitIndexed(stack.service.url, await stack.publicClient.getBlockNumber({ cacheTime: 0 }));
    await expectServed(stack.service.url);
  });

  it("are served the same by a service that indexes the chain from scratch", async () => {
    const fromScratch = await stack.startExtra({ command: "start", freshDatabase: true });
    await waitReady(fromScratch.url);
    expect(fromScratch.output()).toContain("Started fetching backfill JSON-RPC data");
    await expectServed(fromScratch.url);
  });
});
