/**
 * Histories that look like a busy chain, for the scale benchmark (`bench/scale.ts`) and its CI
 * regression test (`test/e2e/scale.test.ts`): many launches made fast (several per block), swaps
 * in the launched pools, and FOREIGN Uniswap V3 pools (created on the same V3 factory by a
 * look-alike launch factory the service does not accept) with their own swaps spread over many
 * blocks, one swap transaction per block; and, for the live scale benchmark (`bench/scaleLive.ts`),
 * the same foreign swaps kept in nearly every block of a node that mines on a timer.
 *
 * Transactions are signed locally with explicit nonce, gas and fees (no estimate round trips);
 * every phase checks its outcome from the logs (launch count, Swap count), so a reverted
 * transaction fails the build instead of silently thinning the history.
 */
import {
  encodeFunctionData,
  getAbiItem,
  getAddress,
  parseEther,
  parseGwei,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { launchFactoryAbi } from "../abis/LaunchFactory";
import { swapBatcherAbi, swapBatcherBytecode } from "../abis/SwapBatcher";
import { uniswapV3PoolAbi } from "../abis/UniswapV3Pool";
import { createDevnetClients, devAccount } from "../devnet/clients";
import type { DeploymentManifest } from "../devnet/manifest";

/** Wei of WETH per buy in the batcher's buy/sell churn (as bench/history.ts). */
const WETH_PER_BUY_WEI = parseEther("0.001");
/** Gas allowance per batched swap (a swap uses ~80k). */
const GAS_PER_SWAP = 90_000n;
/** Gas allowance of one launch (token deployment, pool, position, lock; ~6.5M estimated). */
const GAS_PER_LAUNCH = 8_000_000n;
const FEES = { maxFeePerGas: parseGwei("20"), maxPriorityFeePerGas: 1n } as const;

/** Launched tokens and their pools, in launch order. */
export type Launched = { tokens: Address[]; pools: Address[] };

/** One sender: dev account `index`, its wallet and a local nonce counter. */
async function sender(manifest: DeploymentManifest, publicClient: PublicClient, index: number) {
  const { walletClient } = createDevnetClients(manifest.rpcUrl, manifest.chainId, devAccount(index));
  const pendingNonce = () =>
    publicClient.getTransactionCount({ address: devAccount(index).address, blockTag: "pending" });
  let nonce = await pendingNonce();
  return {
    address: devAccount(index).address,
    /** Signs and sends a call without waiting for it to be mined. */
    send: (to: Address, data: Hex, value: bigint, gas: bigint) =>
      walletClient.sendTransaction({ to, data, value, gas, nonce: nonce++, ...FEES }),
    /** Takes the nonce from the node again (after a send that may not have reached it). */
    resync: async () => {
      nonce = await pendingNonce();
    },
  };
}

async function rpc(publicClient: PublicClient, method: string, params: unknown[]): Promise<unknown> {
  return publicClient.request({ method: method as never, params: params as never });
}

/**
 * Launches `count` tokens through `factory` (the deployment's or a look-alike), `perBlock` per
 * block: automine is switched off while a block's launches are sent, then one block is mined.
 * Needs a block gas limit of at least `perBlock` x 8,000,000.
 * @returns the tokens and pools, from the factory's `TokenLaunched` logs
 * @throws Error when fewer than `count` launches succeeded
 */
export async function launchMany(
  manifest: DeploymentManifest,
  publicClient: PublicClient,
  options: { factory: Address; count: number; perBlock: number; namePrefix: string; senderIndex?: number },
): Promise<Launched> {
  const from = await publicClient.getBlockNumber({ cacheTime: 0 });
  const creator = await sender(manifest, publicClient, options.senderIndex ?? 1);
  const value = BigInt(manifest.launchFactory.minimumPoolLiquidityWei);
  await rpc(publicClient, "evm_setAutomine", [false]);
  try {
    for (let i = 0; i < options.count; ) {
      const inBlock = Math.min(options.perBlock, options.count - i);
      for (let j = 0; j < inBlock; j++, i++) {
        const data = encodeFunctionData({
          abi: launchFactoryAbi,
          functionName: "launch",
          args: [`${options.namePrefix} ${i}`, `${options.namePrefix.slice(0, 3).toUpperCase()}${i}`, 0n],
        });
        await creator.send(options.factory, data, value, GAS_PER_LAUNCH);
      }
      // Full launch blocks (above the gas target) raise the EIP-1559 base fee 12.5% a block: past
      // ~2,000 launches it would exceed the senders' fee cap. Keep it at 1 gwei.
      await rpc(publicClient, "anvil_setNextBlockBaseFeePerGas", [toHex(parseGwei("1"))]);
      await rpc(publicClient, "anvil_mine", ["0x1"]);
    }
  } finally {
    await rpc(publicClient, "evm_setAutomine", [true]);
  }
  // In ranges of 20 blocks: one answer for 10,000 launches (~15 MB) is over viem's 10 MB cap.
  const head = await publicClient.getBlockNumber({ cacheTime: 0 });
  const logs = [];
  for (let fromBlock = from + 1n; fromBlock <= head; fromBlock += 20n) {
    const toBlock = fromBlock + 19n < head ? fromBlock + 19n : head;
    logs.push(
      ...(await publicClient.getLogs({
        address: options.factory,
        event: getAbiItem({ abi: launchFactoryAbi, name: "TokenLaunched" }),
        fromBlock,
        toBlock,
      })),
    );
  }
  if (logs.length !== options.count)
    throw new Error(`${logs.length} of ${options.count} launches through ${options.factory} succeeded`);
  return { tokens: logs.map((l) => getAddress(l.args.token!)), pools: logs.map((l) => getAddress(l.args.pool!)) };
}

/**
 * Deploys a SwapBatcher (buy/sell churn against the deployment's WETH) from dev account `senderIndex`.
 * @returns its address
 */
export async function deploySwapBatcher(
  manifest: DeploymentManifest,
  publicClient: PublicClient,
  senderIndex: number,
): Promise<Address> {
  const { walletClient } = createDevnetClients(manifest.rpcUrl, manifest.chainId, devAccount(senderIndex));
  const hash = await walletClient.deployContract({
    abi: swapBatcherAbi,
    bytecode: swapBatcherBytecode,
    args: [manifest.contracts.weth],
  });
  return (await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })).contractAddress!;
}

/** One batcher `churn` of `swaps` swaps in `launched`'s pool `i`: calldata, value (wei), gas. */
function churnCall(launched: Launched, i: number, swaps: number): { data: Hex; value: bigint; gas: bigint } {
  const data = encodeFunctionData({
    abi: swapBatcherAbi,
    functionName: "churn",
    args: [launched.pools[i]!, launched.tokens[i]!, BigInt(swaps), WETH_PER_BUY_WEI],
  });
  // Each buy-and-sell round trip loses ~2% of a buy to the 1% fee tier.
  const value = (BigInt(swaps) * WETH_PER_BUY_WEI) / 50n + parseEther("0.001");
  return { data, value, gas: BigInt(swaps) * GAS_PER_SWAP + 500_000n };
}

/** A running {@link tradeSteadily}. */
export type SteadyTrader = {
  /** Stops sending; resolves with the transactions sent and the sends that failed. */
  stop: () => Promise<{ transactions: number; sendErrors: number }>;
};

/**
 * Live background traffic on a node that mines on a timer (`anvil --block-time`): one churn of
 * `swapsPerTransaction` swaps through `batcher` every `intervalMs`, round-robin over `launched`'s
 * pools. At half the block time, nearly every block takes one or two, even when this process is
 * starved for a block's time now and then (a loaded machine); a late tick is skipped, not made up.
 * Transactions are not awaited; a failed send re-reads the nonce from the node.
 * @returns a handle whose `stop()` ends the loop
 */
export async function tradeSteadily(
  manifest: DeploymentManifest,
  publicClient: PublicClient,
  launched: Launched,
  options: { batcher: Address; swapsPerTransaction: number; intervalMs: number; senderIndex: number },
): Promise<SteadyTrader> {
  const swapper = await sender(manifest, publicClient, options.senderIndex);
  let running = true;
  let transactions = 0;
  let sendErrors = 0;
  const loop = (async () => {
    let next = performance.now();
    while (running) {
      const call = churnCall(launched, transactions % launched.pools.length, options.swapsPerTransaction);
      try {
        await swapper.send(options.batcher, call.data, call.value, call.gas);
        transactions++;
      } catch {
        sendErrors++;
        await swapper.resync().catch(() => undefined);
      }
      next = Math.max(next + options.intervalMs, performance.now());
      await new Promise((r) => setTimeout(r, next - performance.now()));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { transactions, sendErrors };
    },
  };
}

/**
 * Makes `swaps` real swaps (buy/sell churn through a SwapBatcher) round-robin over `launched`'s
 * pools, `swapsPerTransaction` per transaction and `transactionsPerBlock` transactions per mined
 * block (automine off while a block fills; one transaction per block spreads swaps over the most
 * blocks).
 * @returns the first and last block holding the swaps
 * @throws Error when the pools' Swap logs in those blocks are not exactly `swaps`
 */
export async function swapMany(
  manifest: DeploymentManifest,
  publicClient: PublicClient,
  launched: Launched,
  options: { swaps: number; swapsPerTransaction: number; transactionsPerBlock: number; senderIndex?: number },
): Promise<{ fromBlock: bigint; toBlock: bigint; blocks: number }> {
  const batcher = await deploySwapBatcher(manifest, publicClient, options.senderIndex ?? 0);
  const swapper = await sender(manifest, publicClient, options.senderIndex ?? 0);
  const fromBlock = (await publicClient.getBlockNumber({ cacheTime: 0 })) + 1n;
  let blocks = 0;
  await rpc(publicClient, "evm_setAutomine", [false]);
  try {
    let remaining = options.swaps;
    for (let t = 0; remaining > 0; ) {
      for (let j = 0; j < options.transactionsPerBlock && remaining > 0; j++, t++) {
        const swaps = Math.min(options.swapsPerTransaction, remaining);
        const call = churnCall(launched, t % launched.pools.length, swaps);
        await swapper.send(batcher, call.data, call.value, call.gas);
        remaining -= swaps;
      }
      await rpc(publicClient, "anvil_mine", ["0x1"]);
      blocks++;
    }
  } finally {
    await rpc(publicClient, "evm_setAutomine", [true]);
  }
  const toBlock = await publicClient.getBlockNumber({ cacheTime: 0 });
  const swapCount = await countLogs(publicClient, launched.pools, fromBlock, toBlock, "Swap");
  if (swapCount !== options.swaps) throw new Error(`${swapCount} of ${options.swaps} swaps were made`);
  return { fromBlock, toBlock, blocks };
}

/**
 * Counts `eventName` logs of `addresses` in a block range, 2,000 blocks per request.
 * @returns the number of logs
 */
export async function countLogs(
  publicClient: PublicClient,
  addresses: Address[],
  fromBlock: bigint,
  toBlock: bigint,
  eventName: "Swap",
): Promise<number> {
  let count = 0;
  for (let from = fromBlock; from <= toBlock; from += 2_000n) {
    const to = from + 1_999n < toBlock ? from + 1_999n : toBlock;
    const logs = await publicClient.getLogs({
      address: addresses,
      event: getAbiItem({ abi: uniswapV3PoolAbi, name: eventName }),
      fromBlock: from,
      toBlock: to,
    });
    count += logs.length;
  }
  return count;
}

/**
 * The blocks holding at least one log emitted by `addresses` (any event), `blocksPerRequest`
 * blocks per request (default 20; address lists of 500): at 5,000 launches the factory's launch
 * logs alone came to ~16 MB per 2,000 blocks, past viem's 10 MB response limit. Sparse ranges
 * (a live window: a trade every other block) can take larger steps.
 * @returns block numbers, ascending
 */
export async function blocksWithLogs(
  publicClient: PublicClient,
  addresses: Address[],
  fromBlock: bigint,
  toBlock: bigint,
  blocksPerRequest = 20,
): Promise<number[]> {
  const blocks = new Set<number>();
  const step = BigInt(blocksPerRequest);
  for (let a = 0; a < addresses.length; a += 500) {
    for (let from = fromBlock; from <= toBlock; from += step) {
      const to = from + step - 1n < toBlock ? from + step - 1n : toBlock;
      const logs = await publicClient.getLogs({ address: addresses.slice(a, a + 500), fromBlock: from, toBlock: to });
      for (const log of logs) blocks.add(Number(log.blockNumber));
    }
  }
  return [...blocks].sort((x, y) => x - y);
}
