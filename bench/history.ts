/**
 * Builds a large devnet history fast: `launches` tokens, then `swaps` real Uniswap V3 swaps spread
 * over their pools, made many per transaction by `SwapBatcher` (transactions are awaited one by
 * one: flooding anvil with unawaited transactions stalls it).
 */
import { createPublicClient, createTestClient, getAddress, http, parseEther, type Address } from "viem";
import { swapBatcherAbi, swapBatcherBytecode } from "../abis/SwapBatcher";
import { launchToken } from "../devnet/actions";
import { createDevnetClients, devAccount } from "../devnet/clients";
import type { DeploymentManifest } from "../devnet/manifest";

/** Wei of WETH per buy in the batcher's buy/sell churn. */
const WETH_PER_BUY_WEI = parseEther("0.001");
/** Gas allowance per batched swap (a swap uses ~80k). */
const GAS_PER_SWAP = 90_000n;

/** The history that was built. */
export type History = { tokens: Address[]; pools: Address[]; swapTransactions: number; lastBlock: bigint };

/**
 * @param manifest - the deployed stack
 * @param options.launches - tokens to launch (no first buy), one per block; ignored when
 *   `options.launched` is given
 * @param options.launched - tokens already launched (e.g. many per block by
 *   `bench/scaleHistory.ts`'s `launchMany`): the swaps go to their pools and nothing is launched
 * @param options.swaps - total swaps to make across all pools
 * @param options.swapsPerTransaction - swaps per batcher transaction (gas: ~80k each; more than
 *   ~340 needs an anvil started with a higher `gasLimit`)
 * @param options.hotShare - share of the swap transactions that go to the first pool (a "hot"
 *   token, as real markets have); the rest go round-robin over all pools. Default: round-robin only.
 * @param options.secondsPerTransaction - chain time added before each swap transaction
 *   (`evm_increaseTime`), so the history spans many candle buckets. Default 0.
 */
export async function buildHistory(
  manifest: DeploymentManifest,
  options: {
    launches: number;
    launched?: { tokens: Address[]; pools: Address[] };
    swaps: number;
    swapsPerTransaction?: number;
    hotShare?: number;
    secondsPerTransaction?: number;
  },
): Promise<History> {
  const publicClient = createPublicClient({ transport: http(manifest.rpcUrl), pollingInterval: 50 });
  const tokens: Address[] = [...(options.launched?.tokens ?? [])];
  const pools: Address[] = [...(options.launched?.pools ?? [])];
  for (let i = 0; !options.launched && i < options.launches; i++) {
    const creator = createDevnetClients(manifest.rpcUrl, manifest.chainId, devAccount(1 + (i % 9))).walletClient;
    const launched = await launchToken(creator, publicClient, manifest, { name: `Bench ${i}`, symbol: `B${i}` });
    tokens.push(getAddress(launched.event.token));
    pools.push(getAddress(launched.event.pool));
  }

  const { walletClient: wallet } = createDevnetClients(manifest.rpcUrl, manifest.chainId, devAccount(0));
  const deployHash = await wallet.deployContract({
    abi: swapBatcherAbi,
    bytecode: swapBatcherBytecode,
    args: [manifest.contracts.weth],
  });
  const batcher = (await publicClient.waitForTransactionReceipt({ hash: deployHash })).contractAddress!;

  const testClient = createTestClient({ mode: "anvil", transport: http(manifest.rpcUrl) });
  const perTransaction = options.swapsPerTransaction ?? 150;
  const hotShare = options.hotShare ?? 0;
  let hotCredit = 0;
  let remaining = options.swaps;
  let swapTransactions = 0;
  let lastBlock = 0n;
  for (let t = 0; remaining > 0; t++) {
    const swaps = Math.min(perTransaction, remaining);
    // Deterministic split: the hot pool takes `hotShare` of the transactions, evenly spaced.
    hotCredit += hotShare;
    const hot = hotCredit >= 1;
    if (hot) hotCredit -= 1;
    const i = hot ? 0 : t % pools.length;
    if (options.secondsPerTransaction) await testClient.increaseTime({ seconds: options.secondsPerTransaction });
    const hash = await wallet.writeContract({
      address: batcher,
      abi: swapBatcherAbi,
      functionName: "churn",
      args: [pools[i]!, tokens[i]!, BigInt(swaps), WETH_PER_BUY_WEI],
      // Each buy-and-sell round trip loses ~2% of a buy to the 1% fee tier; leftovers stay in the batcher.
      value: (BigInt(swaps) * WETH_PER_BUY_WEI) / 50n + parseEther("0.001"),
      gas: BigInt(swaps) * GAS_PER_SWAP + 500_000n,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`batch ${t} reverted`);
    lastBlock = receipt.blockNumber;
    remaining -= swaps;
    swapTransactions++;
  }
  return { tokens, pools, swapTransactions, lastBlock };
}
