/**
 * Deploys the whole launch stack on a devnet: WETH9, Uniswap V3 (factory, position manager, swap
 * router, QuoterV2) from the npm artifacts, then our FeeLocker and LaunchFactory, then the ETH/USD
 * reference (a devnet stablecoin and a WETH/stablecoin pool, `devnet/ethUsd.ts`).
 */
import {
  getAddress,
  parseEther,
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { feeLockerAbi, feeLockerBytecode } from "../abis/FeeLocker.js";
import { launchFactoryAbi, launchFactoryBytecode } from "../abis/LaunchFactory.js";
import {
  nonfungiblePositionManagerAbi,
  nonfungiblePositionManagerBytecode,
} from "../abis/NonfungiblePositionManager.js";
import { quoterV2Abi, quoterV2Bytecode } from "../abis/QuoterV2.js";
import { swapRouterAbi, swapRouterBytecode } from "../abis/SwapRouter.js";
import { uniswapV3FactoryAbi, uniswapV3FactoryBytecode } from "../abis/UniswapV3Factory.js";
import { weth9Abi, weth9Bytecode } from "../abis/WETH9.js";
import { createDevnetClients, devAccount, type DevnetClients } from "./clients.js";
import { deployEthUsdReference } from "./ethUsd.js";
import type { DeploymentManifest } from "./manifest.js";

/** Default ETH (wei) each launch puts into its full-range position: 0.001 ETH. */
export const DEFAULT_MINIMUM_POOL_LIQUIDITY_WEI = parseEther("0.001");
/** Default start tick (token0 orientation): ≈3.07e-9 ETH per token, ≈3 ETH start market cap. */
export const DEFAULT_START_TICK = -196_000;
/** Fee tier of launch pools (1%). */
export const POOL_FEE = 10_000;
/** Tick spacing of the 1% tier. */
export const TICK_SPACING = 200;
/** Stand-in token descriptor for the position manager (only `tokenURI` would call it). */
const DUMMY_TOKEN_DESCRIPTOR: Address = "0x000000000000000000000000000000000000dEaD";

/** Options for `deployStack`. */
export type DeployStackOptions = {
  rpcUrl: string;
  /** anvil dev account index or a viem account; defaults to dev account 0. */
  deployer?: number | Account;
  /** Receives 30% of locked-position fees; defaults to the deployer. */
  protocolFeeRecipient?: Address;
  /** Wei; defaults to 0.001 ETH. */
  minimumPoolLiquidityWei?: bigint;
  /** Multiple of 200; defaults to -196000. */
  startTick?: number;
  /**
   * Deploy the ETH/USD reference (a 6-decimal stablecoin and a WETH/stablecoin pool at 3,000 USD
   * per ETH, `devnet/ethUsd.ts`) after the launch contracts; default true. false: a devnet
   * without USD figures (no `ethUsdPool` in the manifest).
   */
  ethUsdReference?: boolean;
};

/** Thrown when a deployment transaction does not create a contract. */
export class DeploymentFailedError extends Error {
  override name = "DeploymentFailedError" as const;
  constructor(readonly shortMessage: string) {
    super(shortMessage);
  }
}

async function deploy(
  { walletClient, publicClient }: DevnetClients,
  what: string,
  abi: Abi,
  bytecode: Hex,
  args: readonly unknown[],
): Promise<{ address: Address; blockNumber: bigint }> {
  const hash = await walletClient.deployContract({ abi, bytecode, args });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  if (receipt.status !== "success" || !receipt.contractAddress) {
    throw new DeploymentFailedError(`deploying ${what} failed (tx ${hash})`);
  }
  return { address: getAddress(receipt.contractAddress), blockNumber: receipt.blockNumber };
}

/**
 * Deploys WETH9, Uniswap V3 and the launch contracts, awaiting each receipt.
 * @param opts RPC URL, deployer, protocol fee recipient, minimum pool liquidity (wei), start tick.
 * @returns The deployment manifest (`startBlock` = block of the first deployment).
 * @throws {DeploymentFailedError} When a deployment reverts.
 * @example
 * const manifest = await deployStack({ rpcUrl: anvil.rpcUrl });
 * // manifest.launchFactory => { minimumPoolLiquidityWei: "1000000000000000", startTick: -196000, poolFee: 10000, tickSpacing: 200 }
 */
export async function deployStack(opts: DeployStackOptions): Promise<DeploymentManifest> {
  const account = typeof opts.deployer === "object" ? opts.deployer : devAccount(opts.deployer ?? 0);
  const probe = createDevnetClients(opts.rpcUrl, 1, account).publicClient;
  const chainId = await probe.getChainId();
  const clients = createDevnetClients(opts.rpcUrl, chainId, account);
  const minimumPoolLiquidityWei = opts.minimumPoolLiquidityWei ?? DEFAULT_MINIMUM_POOL_LIQUIDITY_WEI;
  const startTick = opts.startTick ?? DEFAULT_START_TICK;
  const protocolFeeRecipient = getAddress(opts.protocolFeeRecipient ?? account.address);

  const weth = await deploy(clients, "WETH9", weth9Abi, weth9Bytecode, []);
  const v3Factory = await deploy(clients, "UniswapV3Factory", uniswapV3FactoryAbi, uniswapV3FactoryBytecode, []);
  const positionManager = await deploy(
    clients,
    "NonfungiblePositionManager",
    nonfungiblePositionManagerAbi,
    nonfungiblePositionManagerBytecode,
    [v3Factory.address, weth.address, DUMMY_TOKEN_DESCRIPTOR],
  );
  const swapRouter = await deploy(clients, "SwapRouter", swapRouterAbi, swapRouterBytecode, [
    v3Factory.address,
    weth.address,
  ]);
  const quoterV2 = await deploy(clients, "QuoterV2", quoterV2Abi, quoterV2Bytecode, [v3Factory.address, weth.address]);
  const feeLocker = await deploy(clients, "FeeLocker", feeLockerAbi, feeLockerBytecode, [
    positionManager.address,
    protocolFeeRecipient,
  ]);
  const launchFactory = await deploy(clients, "LaunchFactory", launchFactoryAbi, launchFactoryBytecode, [
    weth.address,
    v3Factory.address,
    positionManager.address,
    swapRouter.address,
    feeLocker.address,
    minimumPoolLiquidityWei,
    startTick,
  ]);

  // Deployed last, so the launch contracts keep their addresses with or without it.
  const reference =
    opts.ethUsdReference === false
      ? undefined
      : await deployEthUsdReference(clients.walletClient, clients.publicClient, {
          weth: weth.address,
          uniswapV3Factory: v3Factory.address,
          nonfungiblePositionManager: positionManager.address,
        });

  return {
    chainId,
    rpcUrl: opts.rpcUrl,
    startBlock: Number(weth.blockNumber),
    protocolFeeRecipient,
    contracts: {
      weth: weth.address,
      uniswapV3Factory: v3Factory.address,
      nonfungiblePositionManager: positionManager.address,
      swapRouter: swapRouter.address,
      quoterV2: quoterV2.address,
      launchFactory: launchFactory.address,
      feeLocker: feeLocker.address,
      ...(reference ? { stablecoin: reference.stablecoin } : {}),
    },
    ...(reference ? { ethUsdPool: reference.pool } : {}),
    launchFactory: {
      minimumPoolLiquidityWei: minimumPoolLiquidityWei.toString(),
      startTick,
      poolFee: POOL_FEE,
      tickSpacing: TICK_SPACING,
    },
    acceptedFactories: [launchFactory.address],
  };
}

/**
 * Deploys a second `LaunchFactory` with the same constructor arguments as the deployment's: a
 * look-alike that emits byte-identical `TokenLaunched` events but is not an accepted factory.
 * Tests use it to prove the verifier trusts only accepted factories.
 * @param walletClient - the deployer (any funded account)
 * @param publicClient - waits for the receipt
 * @param deployment - the deployed stack (manifest or validated deployment)
 * @returns the look-alike factory's address
 * @throws {DeploymentFailedError} When the receipt has no contract address.
 */
export async function deployLookAlikeFactory(
  walletClient: WalletClient<Transport, Chain | undefined, Account>,
  publicClient: PublicClient,
  deployment: Pick<DeploymentManifest, "contracts" | "launchFactory">,
): Promise<Address> {
  const { contracts, launchFactory } = deployment;
  const hash = await walletClient.deployContract({
    chain: null,
    abi: launchFactoryAbi,
    bytecode: launchFactoryBytecode,
    args: [
      contracts.weth,
      contracts.uniswapV3Factory,
      contracts.nonfungiblePositionManager,
      contracts.swapRouter,
      contracts.feeLocker,
      BigInt(launchFactory.minimumPoolLiquidityWei),
      launchFactory.startTick,
    ],
  });
  const address = (await publicClient.waitForTransactionReceipt({ hash })).contractAddress;
  if (!address) throw new DeploymentFailedError(`look-alike LaunchFactory deployment ${hash} created no contract`);
  return getAddress(address);
}
