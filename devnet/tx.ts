/**
 * Sending contract transactions with an explicit gas limit (estimate + margin) and waiting for
 * the receipt. anvil underestimates gas for Uniswap V3 swaps, so every call gets a margin.
 */
import {
  encodeFunctionData,
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Hash,
  type PublicClient,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
} from "viem";

/** Thrown when a mined transaction has status `reverted`. */
export class TransactionRevertedError extends Error {
  override name = "TransactionRevertedError" as const;
  readonly shortMessage: string;
  constructor(readonly hash: Hash, readonly receipt: TransactionReceipt, what: string) {
    const shortMessage = `${what} reverted (tx ${hash}, block ${receipt.blockNumber})`;
    super(`${shortMessage}\nHint: simulate the call with publicClient.simulateContract to see the revert reason.`);
    this.shortMessage = shortMessage;
  }
}

/**
 * Adds the safety margin to a gas estimate: +30% and +100,000 gas.
 * @param estimatedGas Gas units from `eth_estimateGas`.
 * @returns Gas limit in gas units.
 */
export function gasWithMargin(estimatedGas: bigint): bigint {
  return (estimatedGas * 13n) / 10n + 100_000n;
}

/** A contract call as returned by `simulateContract(...).request` (or written by hand). */
export type ContractCall = {
  address: Address;
  abi: Abi | readonly unknown[];
  functionName: string;
  args?: readonly unknown[];
  value?: bigint;
};

/** Result of a mined, successful transaction. */
export type SentTransaction = { hash: Hash; receipt: TransactionReceipt };

/**
 * Estimates gas, sends the call with `gasWithMargin`, and waits for the receipt.
 * @param walletClient Signs and sends (its account pays).
 * @param publicClient Estimates and waits.
 * @param call The contract call; `value` in wei.
 * @returns The hash and the successful receipt.
 * @throws {TransactionRevertedError} When the transaction is mined but reverted.
 * @throws {Error} viem's estimation error (with the revert reason) when the call would revert.
 */
export async function sendContractCall(
  walletClient: WalletClient<Transport, Chain | undefined, Account>,
  publicClient: PublicClient,
  call: ContractCall,
): Promise<SentTransaction> {
  const data = encodeFunctionData({
    abi: call.abi as Abi,
    functionName: call.functionName,
    args: call.args ?? [],
  });
  const estimatedGas = await publicClient.estimateGas({
    account: walletClient.account,
    to: call.address,
    data,
    value: call.value,
  });
  const hash = await walletClient.sendTransaction({
    account: walletClient.account,
    chain: walletClient.chain,
    to: call.address,
    data,
    value: call.value,
    gas: gasWithMargin(estimatedGas),
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  if (receipt.status !== "success") throw new TransactionRevertedError(hash, receipt, call.functionName);
  return { hash, receipt };
}
