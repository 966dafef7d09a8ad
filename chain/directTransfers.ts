/**
 * The native ETH an address sent directly, without a trace API (docs/public.md "Launch
 * integrity", `creator_funded`). A plain ETH transfer emits no log, but every transaction an
 * externally owned account sends raises its nonce by one, and the node answers the nonce at any
 * block (`eth_getTransactionCount` at a block number, EIP-1474). Bisecting the block range on the
 * nonce finds exactly the blocks holding the sender's transactions; those blocks are then read
 * with their transactions. Cost for k transactions in a range of B blocks: about k·log2(B/k)
 * nonce reads and k block reads, bounded by `maxTransactions`.
 *
 * What it cannot see: ETH moved by a contract (an internal transfer, a multisend, a smart-account
 * creator) and transactions older than the range. It needs the node's historical state: a node
 * that prunes it fails the call (the caller decides).
 */
import pLimit from "p-limit";
import type { Address, PublicClient } from "viem";
import type { DirectTransfer } from "../src/domain/creatorFunding";

/** The result of {@link directTransfersFrom}. */
export type DirectTransfersResult =
  | { kind: "scanned"; transactionCount: number; transfers: DirectTransfer[] }
  | { kind: "too_many_transactions"; transactionCount: number };

/**
 * Lists the transactions `sender` sent in blocks `fromBlock`..`toBlock` (inclusive) that carried
 * ETH to an address (`value` > 0, not a contract creation), in chain order.
 * @param input.maxTransactions - more transactions than this in the range: `too_many_transactions`
 *   (counted from two nonce reads, nothing else fetched)
 * @param input.concurrency - RPC calls in flight at once (default 8)
 * @throws the client's error when the node cannot answer (e.g. pruned historical state), or
 *   when the blocks found do not hold the nonce's count of the sender's transactions
 * @example await directTransfersFrom(client, { sender, fromBlock: 0n, toBlock: 120n, maxTransactions: 256 })
 */
export async function directTransfersFrom(
  client: PublicClient,
  input: { sender: Address; fromBlock: bigint; toBlock: bigint; maxTransactions: number; concurrency?: number },
): Promise<DirectTransfersResult> {
  const limit = pLimit(input.concurrency ?? 8);
  // The nonce after every transaction of blocks <= b; before block 0 it is 0.
  const nonceAt = (b: bigint) =>
    b < 0n ? Promise.resolve(0) : limit(() => client.getTransactionCount({ address: input.sender, blockNumber: b }));
  const [startNonce, endNonce] = await Promise.all([nonceAt(input.fromBlock - 1n), nonceAt(input.toBlock)]);
  const transactionCount = endNonce - startNonce;
  if (transactionCount > input.maxTransactions) return { kind: "too_many_transactions", transactionCount };

  const blocks: bigint[] = [];
  // Blocks in (lo, hi] where the nonce moved from nonceLo to nonceHi.
  async function bisect(lo: bigint, nonceLo: number, hi: bigint, nonceHi: number): Promise<void> {
    if (nonceLo === nonceHi) return;
    if (hi - lo === 1n) {
      blocks.push(hi);
      return;
    }
    const mid = lo + (hi - lo) / 2n;
    const nonceMid = await nonceAt(mid);
    await Promise.all([bisect(lo, nonceLo, mid, nonceMid), bisect(mid, nonceMid, hi, nonceHi)]);
  }
  await bisect(input.fromBlock - 1n, startNonce, input.toBlock, endNonce);

  const sender = input.sender.toLowerCase();
  const sent = (
    await Promise.all(
      blocks.map((blockNumber) =>
        limit(() => client.getBlock({ blockNumber, includeTransactions: true })).then((block) =>
          block.transactions.filter((tx) => tx.from.toLowerCase() === sender),
        ),
      ),
    )
  ).flat();
  if (sent.length !== transactionCount)
    throw new Error(
      `the nonce of ${input.sender} counts ${transactionCount} transactions in blocks ${input.fromBlock}-${input.toBlock}, the blocks hold ${sent.length}`,
    );
  const transfers: DirectTransfer[] = sent
    .filter((tx) => tx.to !== null && tx.value > 0n)
    .map((tx) => ({
      to: tx.to!.toLowerCase(),
      valueWei: tx.value,
      txHash: tx.hash,
      blockNumber: tx.blockNumber!,
      txIndex: tx.transactionIndex!,
    }));
  transfers.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.txIndex - b.txIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
  return { kind: "scanned", transactionCount, transfers };
}
