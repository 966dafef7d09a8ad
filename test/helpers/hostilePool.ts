/**
 * A pool pre-created by someone else for a token's predictable address, as an attacker would make
 * it before the launch (spec: the factory must handle an existing pool). Shared by the contract
 * tests and the indexer's end-to-end test of such launches.
 */
import { parseEther, type Address, type PublicClient } from "viem";
import { launchFactoryAbi } from "../../abis/LaunchFactory.js";
import { nonfungiblePositionManagerAbi } from "../../abis/NonfungiblePositionManager.js";
import { uniswapV3FactoryAbi } from "../../abis/UniswapV3Factory.js";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool.js";
import { weth9Abi } from "../../abis/WETH9.js";
import type { DevnetClients } from "../../devnet/clients.js";
import type { DeploymentManifest } from "../../devnet/manifest.js";
import { sendContractCall } from "../../devnet/tx.js";

/** How the pool is prepared: its initial tick (null: created, not initialised) and a WETH-only position. */
export type HostilePoolPlan = {
  /** Tick to initialise the pool at; null leaves it uninitialised. */
  hostileTick: number | null;
  /** Tick range of a WETH-only position the attacker mints (null: none). */
  wethRange: [number, number] | null;
  /** WETH (wei) in that position. Default 1 ETH. */
  wethWei?: bigint;
  /** Initialise at exactly this price instead (e.g. the factory's start price). */
  initialSqrtPriceX96?: bigint;
};

/**
 * Creates the 1% pool of `token` (not deployed yet) and WETH, then initialises it and mints the
 * attacker's WETH-only liquidity as `plan` says, each as a separate transaction of `attacker`.
 * @returns the pool's address and the WETH (wei) the attacker put in
 */
export async function precreateHostilePool(
  attacker: DevnetClients,
  manifest: DeploymentManifest,
  token: Address,
  plan: HostilePoolPlan,
): Promise<{ pool: Address; attackerWethWei: bigint }> {
  const { walletClient, publicClient } = attacker;
  const account = walletClient.account;
  const weth = manifest.contracts.weth;
  const tokenIsToken0 = BigInt(token) < BigInt(weth);
  const [token0, token1] = tokenIsToken0 ? [token, weth] : [weth, token];

  const created = await publicClient.simulateContract({
    account,
    address: manifest.contracts.uniswapV3Factory,
    abi: uniswapV3FactoryAbi,
    functionName: "createPool",
    args: [token, weth, 10000],
  });
  await sendContractCall(walletClient, publicClient, created.request);
  const pool = created.result;
  const initialSqrtPriceX96 =
    plan.initialSqrtPriceX96 ?? (plan.hostileTick === null ? null : approxSqrtPriceX96(plan.hostileTick));
  if (initialSqrtPriceX96 !== null) {
    const init = await publicClient.simulateContract({
      account,
      address: pool,
      abi: uniswapV3PoolAbi,
      functionName: "initialize",
      args: [initialSqrtPriceX96],
    });
    await sendContractCall(walletClient, publicClient, init.request);
  }
  let attackerWethWei = 0n;
  if (plan.wethRange) {
    attackerWethWei = plan.wethWei ?? parseEther("1");
    const npm = manifest.contracts.nonfungiblePositionManager;
    const dep = await publicClient.simulateContract({
      account,
      address: weth,
      abi: weth9Abi,
      functionName: "deposit",
      value: attackerWethWei,
    });
    await sendContractCall(walletClient, publicClient, dep.request);
    const appr = await publicClient.simulateContract({
      account,
      address: weth,
      abi: weth9Abi,
      functionName: "approve",
      args: [npm, attackerWethWei],
    });
    await sendContractCall(walletClient, publicClient, appr.request);
    const mint = await publicClient.simulateContract({
      account,
      address: npm,
      abi: nonfungiblePositionManagerAbi,
      functionName: "mint",
      args: [
        {
          token0,
          token1,
          fee: 10000,
          tickLower: plan.wethRange[0],
          tickUpper: plan.wethRange[1],
          amount0Desired: tokenIsToken0 ? 0n : attackerWethWei,
          amount1Desired: tokenIsToken0 ? attackerWethWei : 0n,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: account.address,
          deadline: 2n ** 40n,
        },
      ],
    });
    await sendContractCall(walletClient, publicClient, mint.request);
  }
  return { pool, attackerWethWei };
}

/**
 * Finds a token name for which `creator`'s next token sorts before (token0) or after (token1) WETH.
 * @returns the name, the symbol (the base's first four characters, upper case) and the token
 *   address the factory will deploy for them
 */
export async function nameForOrientation(
  publicClient: PublicClient,
  manifest: DeploymentManifest,
  creator: Address,
  base: string,
  tokenIsToken0: boolean,
): Promise<{ name: string; symbol: string; predicted: Address }> {
  const symbol = base.slice(0, 4).toUpperCase();
  for (let i = 0; i < 64; i++) {
    const name = `${base} ${i}`;
    const predicted = await publicClient.readContract({
      address: manifest.contracts.launchFactory,
      abi: launchFactoryAbi,
      functionName: "predictTokenAddress",
      args: [creator, name, symbol],
    });
    if (BigInt(predicted) < BigInt(manifest.contracts.weth) === tokenIsToken0) return { name, symbol, predicted };
  }
  throw new Error("no name found for the orientation");
}

/**
 * An approximate sqrtPriceX96 for a tick (float precision is enough for a hostile initial price).
 * @param tick The tick.
 * @returns sqrt(1.0001^tick) * 2^96, rounded down to a multiple of 2^48.
 */
export function approxSqrtPriceX96(tick: number): bigint {
  return BigInt(Math.floor(Math.sqrt(1.0001 ** tick) * 2 ** 48)) * 2n ** 48n;
}
