/**
 * The devnet's ETH/USD reference: a 6-decimal stablecoin (`contracts/DevStablecoin.sol`) and a
 * WETH/stablecoin Uniswap V3 pool (0.3 % tier, enabled in every V3 factory) initialised at
 * 3,000 USD per ETH with full-range liquidity, and the trades that move its price. The service
 * reads ETH/USD from this pool (`ETH_USD_POOL`; on the devnet the manifest's `ethUsdPool`).
 */
import { erc20Abi, getAddress, parseEther, type Address, type PublicClient } from "viem";
import { devStablecoinAbi, devStablecoinBytecode } from "../abis/DevStablecoin.js";
import { nonfungiblePositionManagerAbi } from "../abis/NonfungiblePositionManager.js";
import { swapRouterAbi } from "../abis/SwapRouter.js";
import { uniswapV3FactoryAbi } from "../abis/UniswapV3Factory.js";
import { weth9Abi } from "../abis/WETH9.js";
import { isToken0 } from "../src/domain/price.js";
import type { SenderClient } from "./actions.js";
import type { DeploymentManifest } from "./manifest.js";
import { sendContractCall, type SendOptions } from "./tx.js";

/** Fee tier of the reference pool: 0.3 % (tick spacing 60), enabled by default in UniswapV3Factory. */
export const ETH_USD_POOL_FEE = 3_000;
/** Tick spacing of the 0.3 % tier. */
const ETH_USD_TICK_SPACING = 60;
/** Decimals of the devnet stablecoin (as USDC). */
export const STABLECOIN_DECIMALS = 6;
/** Start price of the devnet reference pool, whole USD per ETH. */
export const DEVNET_USD_PER_ETH = 3_000n;
/** Full-range liquidity of the reference pool: 100 WETH and 300,000 dUSD. */
const LIQUIDITY_WEI = parseEther("100");

/**
 * Integer square root (largest r with r² ≤ n), Newton's method.
 * @example isqrt(10n) // 3n
 */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError("isqrt of a negative number");
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

/**
 * The sqrtPriceX96 of a WETH/stablecoin pool at `usdPerEth` whole USD per ETH, floored.
 * @param usdPerEth - whole USD per ETH
 * @param wethIsToken0 - pool orientation
 * @param stablecoinDecimals - the stablecoin's decimals
 * @example sqrtPriceX96ForUsdPerEth(3000n, true, 6) // 4339505179874779489431521n
 */
export function sqrtPriceX96ForUsdPerEth(usdPerEth: bigint, wethIsToken0: boolean, stablecoinDecimals: number): bigint {
  const stablePerEth = usdPerEth * 10n ** BigInt(stablecoinDecimals); // stablecoin base units per 1e18 wei
  const q192 = 1n << 192n;
  // price = token1 base units per token0 base unit.
  return wethIsToken0 ? isqrt((stablePerEth * q192) / 10n ** 18n) : isqrt((10n ** 18n * q192) / stablePerEth);
}

/**
 * Deploys the stablecoin, creates and initialises the WETH/stablecoin pool at 3,000 USD/ETH and
 * mints a full-range position (100 WETH + 300,000 dUSD) from the deployer, awaiting every receipt.
 * @param walletClient - the deployer (funded anvil account)
 * @param publicClient - reads and waits
 * @param contracts - the deployed WETH, Uniswap V3 factory and position manager
 * @returns the stablecoin and pool addresses
 * @throws viem's errors or TransactionRevertedError when a step reverts
 */
export async function deployEthUsdReference(
  walletClient: SenderClient,
  publicClient: PublicClient,
  contracts: Pick<DeploymentManifest["contracts"], "weth" | "uniswapV3Factory" | "nonfungiblePositionManager">,
): Promise<{ stablecoin: Address; pool: Address }> {
  const hash = await walletClient.deployContract({
    chain: walletClient.chain,
    abi: devStablecoinAbi,
    bytecode: devStablecoinBytecode,
    args: [],
  });
  const deployed = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  if (deployed.status !== "success" || !deployed.contractAddress)
    throw new Error(`DevStablecoin deploy ${hash} failed`);
  const stablecoin = getAddress(deployed.contractAddress);
  const wethIsToken0 = isToken0(contracts.weth, stablecoin);
  const [token0, token1] = wethIsToken0 ? [contracts.weth, stablecoin] : [stablecoin, contracts.weth];
  const sqrtPriceX96 = sqrtPriceX96ForUsdPerEth(DEVNET_USD_PER_ETH, wethIsToken0, STABLECOIN_DECIMALS);
  const npm = contracts.nonfungiblePositionManager;
  const me = walletClient.account.address;
  const send = (call: Parameters<typeof sendContractCall>[2]) => sendContractCall(walletClient, publicClient, call);

  await send({
    address: npm,
    abi: nonfungiblePositionManagerAbi,
    functionName: "createAndInitializePoolIfNecessary",
    args: [token0, token1, ETH_USD_POOL_FEE, sqrtPriceX96],
  });
  const stableAmount = DEVNET_USD_PER_ETH * 100n * 10n ** BigInt(STABLECOIN_DECIMALS);
  await send({ address: contracts.weth, abi: weth9Abi, functionName: "deposit", value: LIQUIDITY_WEI });
  await send({ address: stablecoin, abi: devStablecoinAbi, functionName: "mint", args: [me, stableAmount] });
  await send({ address: contracts.weth, abi: erc20Abi, functionName: "approve", args: [npm, LIQUIDITY_WEI] });
  await send({ address: stablecoin, abi: erc20Abi, functionName: "approve", args: [npm, stableAmount] });
  const maxTick = 887_272 - (887_272 % ETH_USD_TICK_SPACING);
  await send({
    address: npm,
    abi: nonfungiblePositionManagerAbi,
    functionName: "mint",
    args: [
      {
        token0,
        token1,
        fee: ETH_USD_POOL_FEE,
        tickLower: -maxTick,
        tickUpper: maxTick,
        amount0Desired: wethIsToken0 ? LIQUIDITY_WEI : stableAmount,
        amount1Desired: wethIsToken0 ? stableAmount : LIQUIDITY_WEI,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: me,
        deadline: 2n ** 48n,
      },
    ],
  });
  const pool = await publicClient.readContract({
    address: contracts.uniswapV3Factory,
    abi: uniswapV3FactoryAbi,
    functionName: "getPool",
    args: [contracts.weth, stablecoin, ETH_USD_POOL_FEE],
  });
  return { stablecoin, pool: getAddress(pool) };
}

/**
 * One trade on the reference pool through the SwapRouter: `sellEth` swaps `amountWei` of ETH
 * (wrapped by the router) for the stablecoin, moving ETH/USD down; otherwise the trader mints
 * stablecoin worth about `amountWei` at 3,000 USD/ETH and buys WETH with it, moving ETH/USD up.
 * @param walletClient - the trader (any funded devnet account)
 * @param publicClient - reads and waits
 * @param manifest - a deployment with `contracts.stablecoin`
 * @param trade - direction and size in wei
 * @param opts - abort signal and receipt timeout
 * @throws Error when the manifest has no stablecoin; viem's errors when the swap reverts
 */
export async function tradeEthUsd(
  walletClient: SenderClient,
  publicClient: PublicClient,
  manifest: DeploymentManifest,
  trade: { sellEth: boolean; amountWei: bigint },
  opts: SendOptions = {},
): Promise<void> {
  const stablecoin = manifest.contracts.stablecoin;
  if (!stablecoin) throw new Error("the deployment has no devnet stablecoin");
  const router = manifest.contracts.swapRouter;
  const me = walletClient.account.address;
  const params = {
    fee: ETH_USD_POOL_FEE,
    recipient: me,
    deadline: 2n ** 48n,
    amountOutMinimum: 0n,
    sqrtPriceLimitX96: 0n,
  };
  if (trade.sellEth) {
    await sendContractCall(
      walletClient,
      publicClient,
      {
        address: router,
        abi: swapRouterAbi,
        functionName: "exactInputSingle",
        args: [{ ...params, tokenIn: manifest.contracts.weth, tokenOut: stablecoin, amountIn: trade.amountWei }],
        value: trade.amountWei,
      },
      opts,
    );
    return;
  }
  const amountIn = (trade.amountWei * DEVNET_USD_PER_ETH * 10n ** BigInt(STABLECOIN_DECIMALS)) / 10n ** 18n;
  await sendContractCall(
    walletClient,
    publicClient,
    { address: stablecoin, abi: devStablecoinAbi, functionName: "mint", args: [me, amountIn] },
    opts,
  );
  await sendContractCall(
    walletClient,
    publicClient,
    { address: stablecoin, abi: erc20Abi, functionName: "approve", args: [router, amountIn] },
    opts,
  );
  await sendContractCall(
    walletClient,
    publicClient,
    {
      address: router,
      abi: swapRouterAbi,
      functionName: "exactInputSingle",
      args: [{ ...params, tokenIn: stablecoin, tokenOut: manifest.contracts.weth, amountIn }],
    },
    opts,
  );
}
