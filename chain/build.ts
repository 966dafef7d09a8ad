/**
 * Builds the unsigned launch transaction the creator's wallet signs and broadcasts (spec: "What the
 * service does" 1, Endpoints `build-direct-v3-launch` / `launches/build`). Nothing the client sends
 * chooses an address or calldata: `to` is the configured factory, `data` is encoded here.
 */
import { encodeFunctionData, numberToHex, type Address, type PublicClient } from "viem";
import { launchFactoryAbi } from "../abis/LaunchFactory";
import type { Deployment } from "../config/deployment";
import { LaunchBuildError } from "./errors";
import { DEFAULT_SLIPPAGE_BPS, gasLimitWithMargin } from "../src/domain/launchBounds";

/** What the creator asked for. Amounts in wei. */
export type LaunchRequest = {
  creator: Address;
  name: string;
  symbol: string;
  /** ETH for the first buy on top of the minimum pool liquidity; 0 for none. */
  firstBuyWei: bigint;
  /** Slippage tolerance for the first buy, basis points (0..10,000). */
  slippageBps?: number;
};

/** The unsigned transaction in EIP-1193 `eth_sendTransaction` form (hex quantities). */
export type UnsignedTransaction = {
  chainId: `0x${string}`;
  from: Address;
  to: Address;
  value: `0x${string}`;
  data: `0x${string}`;
  gas: `0x${string}`;
};

/** A built launch: the transaction, the value policy and what the simulation predicts. */
export type BuiltLaunch = {
  transaction: UnsignedTransaction;
  policy: {
    minimum_pool_liquidity_wei: bigint;
    first_buy_amount_wei: bigint;
    total_transaction_value_wei: bigint;
  };
  predictedTokenAddress: Address;
  predictedPoolAddress: Address;
  /** Tokens (base units) the first buy delivers in the simulation; 0 without a first buy. */
  firstBuyExpectedTokensOut: bigint;
  /** `expected * (10,000 - slippageBps) / 10,000`, encoded into the call. */
  firstBuyAmountOutMinimum: bigint;
  slippageBps: number;
  gasLimit: bigint;
  /** Block the simulation ran against. */
  simulatedAtBlock: bigint;
};

/** Successful reads of the factory's minimum, per client and factory address (lower case). */
const minimumByClient = new WeakMap<PublicClient, Map<string, Promise<bigint>>>();

/**
 * The factory's `minimumPoolLiquidityWei()` (wei). The value is `immutable` in LaunchFactory
 * (contracts/LaunchFactory.sol), so it is read once per client and factory and then served from
 * memory: after the first build of a process a build makes one RPC request fewer. A failed read is
 * not kept (the next call asks again).
 * @param client - viem public client on the deployment's chain
 * @param factory - launch factory address
 * @returns the minimum pool liquidity in wei
 * @throws the viem error of the `eth_call` (e.g. `HttpRequestError`, `ContractFunctionExecutionError`)
 * @example await factoryMinimumLiquidityWei(client, deployment.contracts.launchFactory) // 1000000000000000n
 */
export function factoryMinimumLiquidityWei(client: PublicClient, factory: Address): Promise<bigint> {
  let byFactory = minimumByClient.get(client);
  if (!byFactory) minimumByClient.set(client, (byFactory = new Map()));
  const key = factory.toLowerCase();
  let read = byFactory.get(key);
  if (!read) {
    read = client.readContract({ address: factory, abi: launchFactoryAbi, functionName: "minimumPoolLiquidityWei" });
    byFactory.set(key, read);
    read.catch(() => byFactory.delete(key));
  }
  return read;
}

/**
 * Builds the launch transaction for `request` against the deployment's launch factory.
 *
 * Reads the latest block number and the factory's `minimumPoolLiquidityWei()` (in parallel; the
 * minimum once per process, {@link factoryMinimumLiquidityWei}); value = minimum + first buy.
 * Simulates the launch itself at that block (`eth_call` of `launch` from the creator, with the
 * creator's balance overridden so a not-yet-funded wallet still gets a quote) to learn the
 * predicted token and pool and the first buy's tokens out, and encodes
 * `amountOutMinimum = expected * (10,000 - slippageBps) / 10,000`. The gas limit is the estimate of
 * that exact call with a margin ({@link gasLimitWithMargin}).
 *
 * RPC requests per build (docs/launch.md "RPC budget"): `eth_blockNumber`, `eth_call` (simulate),
 * `eth_estimateGas`, plus one `eth_call` for the minimum on the first build of a process.
 * @param client - viem public client on the deployment's chain
 * @param deployment - addresses (the factory is `deployment.contracts.launchFactory`)
 * @param request - creator, name, symbol, first buy (wei), slippage (bps)
 * @returns the unsigned transaction, the policy (decimal wei) and the simulation's predictions
 * @throws LaunchBuildError `launch_simulation_failed` when the launch would revert,
 *   `rpc_unavailable` when the RPC cannot be reached
 * @example
 * const built = await buildLaunchTransaction(client, deployment, { creator, name: "Pepe", symbol: "PEPE", firstBuyWei: 10n ** 17n })
 * built.transaction.value // "0x16bcc41e90000" (0.1 ETH + 0.001 ETH minimum)
 */
export async function buildLaunchTransaction(
  client: PublicClient,
  deployment: Deployment,
  request: LaunchRequest,
): Promise<BuiltLaunch> {
  const factory = deployment.contracts.launchFactory;
  const slippageBps = request.slippageBps ?? DEFAULT_SLIPPAGE_BPS;
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > 10_000) {
    throw new RangeError("slippageBps must be an integer in 0..10000");
  }
  if (request.firstBuyWei < 0n) throw new RangeError("firstBuyWei must not be negative");

  try {
    // One block for every read: the simulation, the estimate and `simulatedAtBlock` agree.
    // `cacheTime: 0`: viem would otherwise reuse a block number for up to 4 s (40 blocks here).
    const [blockNumber, minimumWei] = await Promise.all([
      client.getBlockNumber({ cacheTime: 0 }),
      factoryMinimumLiquidityWei(client, factory),
    ]);
    const valueWei = minimumWei + request.firstBuyWei;
    // Enough balance for the value and any gas price: the quote must not depend on funding.
    const stateOverride = [{ address: request.creator, balance: valueWei + 10n ** 24n }];

    const simulate = (amountOutMinimum: bigint) =>
      client.simulateContract({
        account: request.creator,
        address: factory,
        abi: launchFactoryAbi,
        functionName: "launch",
        args: [request.name, request.symbol, amountOutMinimum],
        value: valueWei,
        blockNumber,
        stateOverride,
      });

    const quote = await simulate(0n).catch((err: unknown) => {
      throw new LaunchBuildError("launch_simulation_failed", `the launch would revert: ${shortReason(err)}`, {
        cause: err,
      });
    });
    const [predictedToken, predictedPool, , expectedOut] = quote.result;
    const amountOutMinimum = (expectedOut * BigInt(10_000 - slippageBps)) / 10_000n;

    const data = encodeFunctionData({
      abi: launchFactoryAbi,
      functionName: "launch",
      args: [request.name, request.symbol, amountOutMinimum],
    });
    const estimatedGas = await client.estimateGas({
      account: request.creator,
      to: factory,
      data,
      value: valueWei,
      blockNumber,
      stateOverride,
    });
    const gasLimit = gasLimitWithMargin(estimatedGas);

    return {
      transaction: {
        chainId: numberToHex(deployment.chainId),
        from: request.creator,
        to: factory,
        value: numberToHex(valueWei),
        data,
        gas: numberToHex(gasLimit),
      },
      policy: {
        minimum_pool_liquidity_wei: minimumWei,
        first_buy_amount_wei: request.firstBuyWei,
        total_transaction_value_wei: valueWei,
      },
      predictedTokenAddress: predictedToken,
      predictedPoolAddress: predictedPool,
      firstBuyExpectedTokensOut: expectedOut,
      firstBuyAmountOutMinimum: amountOutMinimum,
      slippageBps,
      gasLimit,
      simulatedAtBlock: blockNumber,
    };
  } catch (err) {
    if (err instanceof LaunchBuildError || err instanceof RangeError) throw err;
    throw new LaunchBuildError("rpc_unavailable", `the chain RPC failed: ${shortReason(err)}`, { cause: err });
  }
}

function shortReason(err: unknown): string {
  const e = err as { shortMessage?: string; message?: string };
  return e?.shortMessage ?? e?.message ?? String(err);
}
