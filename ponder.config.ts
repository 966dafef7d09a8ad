/**
 * Ponder configuration: one chain, the accepted launch factories, the pools they create
 * (discovered with `factory()` from `TokenLaunched`) and the fee locker. Addresses come from
 * `config/deployment.ts` (devnet manifest or production environment).
 */
import { createConfig, factory } from "ponder";
import { getAbiItem } from "viem";
import { feeLockerAbi } from "./abis/FeeLocker";
import { launchFactoryAbi } from "./abis/LaunchFactory";
import { uniswapV3PoolAbi } from "./abis/UniswapV3Pool";
import { loadDeployment } from "./config/deployment";
import { loadEnv } from "./config/env";

// Every setting is validated before Ponder builds anything: a bad value stops `ponder start` /
// `ponder serve` here (exit code 1) with a message naming the variable (config/env.ts).
const env = loadEnv();
const deployment = loadDeployment();
const startBlock = deployment.startBlock;
const isProduction = Boolean(env.LAUNCH_FACTORY_ADDRESS);

export default createConfig({
  database: env.DATABASE_URL
    ? { kind: "postgres", connectionString: env.DATABASE_URL }
    : { kind: "pglite", directory: env.PONDER_PGLITE_DIR },
  chains: {
    evmchain: {
      id: deployment.chainId,
      // Several providers (INDEXER_RPC_URLS): Ponder balances over them, each with its own
      // adaptive rate limit (which starts at 20 requests/s per URL).
      rpc: env.INDEXER_RPC_URLS
        ? env.INDEXER_RPC_URLS.split(",")
            .map((u) => u.trim())
            .filter(Boolean)
        : deployment.rpcUrl,
      // The production chain makes a block every ~100 ms; poll at that pace.
      pollingInterval: env.POLLING_INTERVAL_MS,
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
    FeeLocker: {
      abi: feeLockerAbi,
      chain: "evmchain",
      address: deployment.contracts.feeLocker,
      startBlock,
    },
  },
});
