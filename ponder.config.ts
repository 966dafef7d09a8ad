/**
 * Ponder configuration: one chain, the accepted launch factories, the pools and tokens they
 * create (discovered with `factory()` from `TokenLaunched`), the fee locker and, when configured
 * (`ETH_USD_POOL`, or the devnet manifest's `ethUsdPool`), the ETH/USD reference pool. Addresses
 * come from `config/deployment.ts` (devnet manifest or production environment).
 */
import { createConfig, factory } from "ponder";
import { getAbiItem } from "viem";
import { feeLockerAbi } from "./abis/FeeLocker";
import { launchFactoryAbi } from "./abis/LaunchFactory";
import { launchTokenAbi } from "./abis/LaunchToken";
import { uniswapV3PoolAbi } from "./abis/UniswapV3Pool";
import { loadDeployment } from "./config/deployment";
import { loadEnv } from "./config/env";
import { indexerRpcUrls, rpcBudgetEnv } from "./config/indexerRpc";

// Every setting is validated before Ponder builds anything: a bad value stops `ponder start` /
// `ponder serve` here (exit code 1) with a message naming the variable (config/env.ts).
const env = loadEnv();
const deployment = loadDeployment();
const startBlock = deployment.startBlock;
const isProduction = Boolean(env.LAUNCH_FACTORY_ADDRESS);
const rpcUrls = indexerRpcUrls(env, deployment.rpcUrl);
// The provider budget (INDEXER_RPC_MAX_RPS / INDEXER_RPC_START_RPS): Ponder's config has no knob for
// it, so the patched RPC client reads it from these variables when it is created, after this file.
Object.assign(process.env, rpcBudgetEnv(env, rpcUrls.length));

/** The ETH/USD reference pool: one address, not a factory (src/indexing/EthUsdPool.ts). */
const ethUsdPoolContract = (address: `0x${string}`) => ({
  EthUsdPool: { abi: uniswapV3PoolAbi, chain: "evmchain" as const, address, startBlock },
});
// Without a reference pool the contract is absent at run time (src/indexing/EthUsdPool.ts registers its
// handlers only when configured); the type keeps it so the handlers type-check either way.
const ethUsdPool = (deployment.ethUsdPool ? ethUsdPoolContract(deployment.ethUsdPool) : {}) as ReturnType<
  typeof ethUsdPoolContract
>;

export default createConfig({
  database: env.DATABASE_URL
    ? { kind: "postgres", connectionString: env.DATABASE_URL }
    : { kind: "pglite", directory: env.PONDER_PGLITE_DIR },
  chains: {
    evmchain: {
      id: deployment.chainId,
      // Several providers (INDEXER_RPC_URLS): Ponder balances over them, each with its own rate
      // limit (20 requests/s at first, or the operator's budget: INDEXER_RPC_MAX_RPS).
      rpc: env.INDEXER_RPC_URLS ? rpcUrls : deployment.rpcUrl,
      // The production chain makes a block every ~100 ms; poll at that pace.
      pollingInterval: env.POLLING_INTERVAL_MS,
      // A newHeads subscription beside the poll (INDEXER_WS_URL; the patched client keeps polling):
      // a new block is seen when it is announced, not up to one poll interval later.
      ...(env.INDEXER_WS_URL ? { ws: env.INDEXER_WS_URL } : {}),
      // A devnet reuses chain id 4663 with different history on every start: never cache it.
      disableCache: !isProduction,
    },
  },
  contracts: {
    LaunchFactory: {
      abi: launchFactoryAbi,
      chain: "evmchain",
      address: deployment.acceptedFactories,
      startBlock,
    },
    UniswapV3Pool: {
      abi: uniswapV3PoolAbi,
      chain: "evmchain",
      address: factory({
        address: deployment.acceptedFactories,
        event: getAbiItem({ abi: launchFactoryAbi, name: "TokenLaunched" }),
        parameter: "pool",
      }),
      startBlock,
    },
    // Launched tokens, for holders (src/indexing/LaunchToken.ts): only `HolderBalances` has a handler, so
    // only that topic is requested, and only launch tokens emit it; past Ponder's factory address
    // threshold the address-less request still brings no other contract's logs
    // (docs/operations.md "Scale").
    LaunchToken: {
      abi: launchTokenAbi,
      chain: "evmchain",
      address: factory({
        address: deployment.acceptedFactories,
        event: getAbiItem({ abi: launchFactoryAbi, name: "TokenLaunched" }),
        parameter: "token",
      }),
      startBlock,
    },
    FeeLocker: {
      abi: feeLockerAbi,
      chain: "evmchain",
      address: deployment.contracts.feeLocker,
      startBlock,
    },
    ...ethUsdPool,
  },
});
