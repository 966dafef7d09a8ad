/**
 * Where the chain and our contracts are: read once from the environment (production) or from the
 * devnet's deployment manifest (default). Both `ponder.config.ts` and the API read this module, so
 * the indexer and the API can never disagree about which factory is accepted.
 *
 * Production (any of the `*_ADDRESS` variables set): `RPC_URL`, `CHAIN_ID` (default 4663),
 * `START_BLOCK`, `LAUNCH_FACTORY_ADDRESS`, `FEE_LOCKER_ADDRESS`, `WETH_ADDRESS`,
 * `UNISWAP_V3_FACTORY_ADDRESS`, `NONFUNGIBLE_POSITION_MANAGER_ADDRESS`, `SWAP_ROUTER_ADDRESS`,
 * `QUOTER_V2_ADDRESS`, `PROTOCOL_FEE_RECIPIENT`, optional `ACCEPTED_FACTORIES` (comma-separated;
 * default: the launch factory), `MINIMUM_POOL_LIQUIDITY_WEI` and `START_TICK` (informational; the
 * API reads the live values from the factory), optional `ETH_USD_POOL` (the WETH/stablecoin Uniswap
 * V3 pool ETH/USD is read from; unset: no USD figures). See `.env.example`.
 * Devnet: `DEPLOYMENT_MANIFEST` (default `.devnet/manifest.json`), written by `npm start`; its
 * `ethUsdPool` is the devnet's reference pool (`ETH_USD_POOL`, when set, overrides it).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { getAddress, isAddress, type Address } from "viem";
import { z } from "zod";

const address = z
  .string()
  .refine((value) => isAddress(value, { strict: false }), "must be a 20-byte hex address")
  .transform((value) => getAddress(value));

/** The deployment manifest: chain, start block and every contract address the service uses. */
export const deploymentSchema = z.object({
  chainId: z.number().int().positive(),
  rpcUrl: z.string().url(),
  startBlock: z.number().int().nonnegative(),
  protocolFeeRecipient: address,
  contracts: z.object({
    weth: address,
    uniswapV3Factory: address,
    nonfungiblePositionManager: address,
    swapRouter: address,
    quoterV2: address,
    launchFactory: address,
    feeLocker: address,
    /** The devnet's stablecoin (manifest only; informational). */
    stablecoin: address.optional(),
  }),
  /** The WETH/stablecoin Uniswap V3 pool ETH/USD is read from; absent: every USD figure is null. */
  ethUsdPool: address.optional(),
  launchFactory: z.object({
    minimumPoolLiquidityWei: z.string().regex(/^\d+$/),
    startTick: z.number().int(),
    poolFee: z.number().int(),
    tickSpacing: z.number().int(),
  }),
  acceptedFactories: z.array(address).min(1),
});

/** A validated deployment (addresses checksummed). */
export type Deployment = z.infer<typeof deploymentSchema>;

/** Default path of the devnet manifest, relative to the working directory. */
const DEFAULT_MANIFEST_PATH = ".devnet/manifest.json";

/**
 * Loads the deployment from the environment or the manifest file.
 *
 * @param env - environment variables (default `process.env`)
 * @returns the validated deployment
 * @throws Error naming the missing or malformed variable/field, or the unreadable manifest path
 * @example loadDeployment().contracts.launchFactory // "0x5FbDB2315678afecb367f032d93F642f64180aa3"
 */
export function loadDeployment(env: NodeJS.ProcessEnv = process.env): Deployment {
  const raw = env.LAUNCH_FACTORY_ADDRESS ? fromEnvironment(env) : fromManifest(env);
  const parsed = deploymentSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid deployment configuration: ${issues}`);
  }
  return parsed.data;
}

function fromManifest(env: NodeJS.ProcessEnv): unknown {
  const path = resolve(env.DEPLOYMENT_MANIFEST || DEFAULT_MANIFEST_PATH);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new Error(
      `no deployment manifest at ${path}: run \`npm start\` (devnet) or set LAUNCH_FACTORY_ADDRESS and the other production variables`,
    );
  }
  const manifest = JSON.parse(text) as Record<string, unknown>;
  // RPC_URL overrides the manifest's URL (e.g. a proxy in front of the devnet), ETH_USD_POOL its
  // reference pool.
  return {
    ...manifest,
    ...(env.RPC_URL ? { rpcUrl: env.RPC_URL } : {}),
    ...(env.ETH_USD_POOL ? { ethUsdPool: env.ETH_USD_POOL } : {}),
  };
}

// Empty values mean unset (as in `.env.example`): `||`, not `??`, for every default below.
function fromEnvironment(env: NodeJS.ProcessEnv): unknown {
  const factory = env.LAUNCH_FACTORY_ADDRESS as string;
  return {
    chainId: Number(env.CHAIN_ID || 4663),
    rpcUrl: env.RPC_URL,
    startBlock: Number(env.START_BLOCK),
    protocolFeeRecipient: env.PROTOCOL_FEE_RECIPIENT,
    contracts: {
      weth: env.WETH_ADDRESS,
      uniswapV3Factory: env.UNISWAP_V3_FACTORY_ADDRESS,
      nonfungiblePositionManager: env.NONFUNGIBLE_POSITION_MANAGER_ADDRESS,
      swapRouter: env.SWAP_ROUTER_ADDRESS,
      quoterV2: env.QUOTER_V2_ADDRESS,
      launchFactory: factory,
      feeLocker: env.FEE_LOCKER_ADDRESS,
    },
    ethUsdPool: env.ETH_USD_POOL || undefined,
    launchFactory: {
      minimumPoolLiquidityWei: env.MINIMUM_POOL_LIQUIDITY_WEI || "0",
      startTick: Number(env.START_TICK || 0),
      poolFee: 10_000,
      tickSpacing: 200,
    },
    acceptedFactories: (env.ACCEPTED_FACTORIES || factory)
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean),
  };
}

/** Whether `candidate` is one of the deployment's accepted launch factories. */
export function isAcceptedFactory(deployment: Deployment, candidate: Address): boolean {
  return deployment.acceptedFactories.some((f) => f.toLowerCase() === candidate.toLowerCase());
}
