/**
 * The deployment manifest: where the contracts of a devnet (or production) deployment live.
 * Written by `deployStack`, read by the indexer config and the API.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { getAddress, type Address } from "viem";

/** Addresses and launch parameters of one deployment. Amounts in wei as decimal strings. */
export type DeploymentManifest = {
  chainId: number;
  rpcUrl: string;
  /** Block of the first deployment transaction (index from here). */
  startBlock: number;
  protocolFeeRecipient: Address;
  contracts: {
    weth: Address;
    uniswapV3Factory: Address;
    nonfungiblePositionManager: Address;
    swapRouter: Address;
    quoterV2: Address;
    launchFactory: Address;
    feeLocker: Address;
    /** The devnet stablecoin (6 decimals) of the ETH/USD reference pool; absent without one. */
    stablecoin?: Address;
  };
  /** The WETH/stablecoin Uniswap V3 pool ETH/USD is read from (`ETH_USD_POOL`); absent: no USD figures. */
  ethUsdPool?: Address;
  launchFactory: {
    /** Wei, decimal string. */
    minimumPoolLiquidityWei: string;
    startTick: number;
    poolFee: number;
    tickSpacing: number;
  };
  /** Launch factories whose launches are accepted (the current one first). */
  acceptedFactories: Address[];
};

/** Thrown when a manifest file is missing a field or has a malformed one. */
export class InvalidManifestError extends Error {
  override name = "InvalidManifestError" as const;
  constructor(
    readonly shortMessage: string,
    readonly filePath: string,
  ) {
    super(`${shortMessage} (in ${filePath})`);
  }
}

/**
 * Returns a copy of the manifest with every address checksummed.
 * @param m The manifest.
 * @returns The normalised manifest.
 * @throws {Error} When an address is malformed (from viem's `getAddress`).
 */
export function normalizeManifest(m: DeploymentManifest): DeploymentManifest {
  const c = m.contracts;
  return {
    chainId: m.chainId,
    rpcUrl: m.rpcUrl,
    startBlock: m.startBlock,
    protocolFeeRecipient: getAddress(m.protocolFeeRecipient),
    contracts: {
      weth: getAddress(c.weth),
      uniswapV3Factory: getAddress(c.uniswapV3Factory),
      nonfungiblePositionManager: getAddress(c.nonfungiblePositionManager),
      swapRouter: getAddress(c.swapRouter),
      quoterV2: getAddress(c.quoterV2),
      launchFactory: getAddress(c.launchFactory),
      feeLocker: getAddress(c.feeLocker),
      ...(c.stablecoin ? { stablecoin: getAddress(c.stablecoin) } : {}),
    },
    ...(m.ethUsdPool ? { ethUsdPool: getAddress(m.ethUsdPool) } : {}),
    launchFactory: {
      minimumPoolLiquidityWei: BigInt(m.launchFactory.minimumPoolLiquidityWei).toString(),
      startTick: m.launchFactory.startTick,
      poolFee: m.launchFactory.poolFee,
      tickSpacing: m.launchFactory.tickSpacing,
    },
    acceptedFactories: m.acceptedFactories.map((a) => getAddress(a)),
  };
}

/**
 * Writes a manifest as pretty JSON with checksummed addresses, creating the folder if needed.
 * @param filePath Target file.
 * @param m The manifest.
 * @throws {Error} When an address is malformed or the file cannot be written.
 */
export function writeManifest(filePath: string, m: DeploymentManifest): void {
  mkdirSync(path.dirname(filePath), { recursive: true });
  writeFileSync(filePath, `${JSON.stringify(normalizeManifest(m), null, 2)}\n`);
}

/**
 * Reads and validates a manifest written by `writeManifest`.
 * @param filePath The JSON file.
 * @returns The manifest with checksummed addresses.
 * @throws {InvalidManifestError} When a field is missing or malformed.
 */
export function readManifest(filePath: string): DeploymentManifest {
  const raw = JSON.parse(readFileSync(filePath, "utf8")) as Partial<DeploymentManifest>;
  if (typeof raw.chainId !== "number" || typeof raw.startBlock !== "number" || typeof raw.rpcUrl !== "string") {
    throw new InvalidManifestError("chainId, startBlock and rpcUrl are required", filePath);
  }
  if (!raw.contracts || !raw.launchFactory || !raw.protocolFeeRecipient || !Array.isArray(raw.acceptedFactories)) {
    throw new InvalidManifestError(
      "contracts, launchFactory, protocolFeeRecipient and acceptedFactories are required",
      filePath,
    );
  }
  try {
    return normalizeManifest(raw as DeploymentManifest);
  } catch (error) {
    throw new InvalidManifestError(`malformed field: ${(error as Error).message.split("\n")[0]}`, filePath);
  }
}
