/**
 * Sending contract transactions with an explicit gas limit (estimate + margin) and waiting for
 * the receipt. anvil underestimates gas for Uniswap V3 swaps, so every call gets a margin.
 */
import { gasLimitWithMargin } from "../src/domain/launchBounds";
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
  constructor(
    readonly hash: Hash,
    readonly receipt: TransactionReceipt,
    what: string,
  ) {
    const shortMessage = `${what} reverted (tx ${hash}, block ${receipt.blockNumber})`;
    super(`${shortMessage}\nHint: simulate the call with publicClient.simulateContract to see the revert reason.`);
    this.shortMessage = shortMessage;
  }
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

/** Options of {@link sendContractCall} (and of the wallet actions built on it). */
export type SendOptions = {
  /** Gives up at once when aborted (rejects with the signal's reason); nothing is rolled back. */
  signal?: AbortSignal;
  /** Longest wait for the receipt in ms; default viem's (180,000 ms). */
  receiptTimeoutMs?: number;
};

/**
 * Settles like `promise`, or rejects with `signal.reason` as soon as `signal` aborts (the
 * underlying work is not cancelled, only no longer awaited).
 * @param promise - the work to await
 * @param signal - optional abort signal; absent means plain `promise`
 * @returns the promise's value
 * @throws the signal's reason (an `AbortError` DOMException by default) when aborted first
 * @example await abortable(publicClient.getBlockNumber(), AbortSignal.timeout(1000)) // 42n
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Estimates gas, sends the call with `gasLimitWithMargin`, and waits for the receipt.
 * @param walletClient Signs and sends (its account pays).
 * @param publicClient Estimates and waits.
 * @param call The contract call; `value` in wei.
 * @param opts Abort signal (checked before each step, and racing each wait) and receipt timeout.
 * @returns The hash and the successful receipt.
 * @throws {TransactionRevertedError} When the transaction is mined but reverted.
 * @throws {Error} viem's estimation error (with the revert reason) when the call would revert.
 * @throws The signal's reason when aborted; viem's `WaitForTransactionReceiptTimeoutError` after
 *   `receiptTimeoutMs`.
 */
export async function sendContractCall(
  walletClient: WalletClient<Transport, Chain | undefined, Account>,
  publicClient: PublicClient,
  call: ContractCall,
  opts: SendOptions = {},
): Promise<SentTransaction> {
  const { signal } = opts;
  signal?.throwIfAborted();
  const data = encodeFunctionData({
    abi: call.abi as Abi,
    functionName: call.functionName,
    args: call.args ?? [],
  });
  const estimatedGas = await abortable(
    publicClient.estimateGas({
      account: walletClient.account,
      to: call.address,
      data,
      value: call.value,
    }),
    signal,
  );
  signal?.throwIfAborted();
  const hash = await abortable(
    walletClient.sendTransaction({
      account: walletClient.account,
      chain: walletClient.chain,
      to: call.address,
      data,
      value: call.value,
      gas: gasLimitWithMargin(estimatedGas),
    }),
    signal,
  );
  const receipt = await abortable(
    publicClient.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: opts.receiptTimeoutMs }),
    signal,
  );
  if (receipt.status !== "success") throw new TransactionRevertedError(hash, receipt, call.functionName);
  return { hash, receipt };
}
