/**
 * Finds the transaction of a launch that was built and perhaps sent before a crash, without the
 * hash: the launch transaction deploys the token at the address the build predicted, and the
 * token's first logs (its mint) are in that transaction. Used by `launchToken`'s resume so a
 * resumed launch never sends the same launch twice.
 */
import type { Address, Hash, PublicClient } from "viem";
import { sleep } from "./http.js";

/** Blocks per `eth_getLogs` window of the backward scan. */
const WINDOW_BLOCKS = 2_000n;

/**
 * The hash of the mined launch transaction, `undefined` when it was never sent (no code at the
 * predicted address and no pending transaction of the creator), or waits while one is pending.
 * @param builtAtSec - when the launch was built: the scan stops at blocks older than that
 * @throws Error when a pending transaction does not mine before `deadlineMs`
 */
export async function findLaunchTx(
  publicClient: PublicClient,
  args: {
    predictedTokenAddress: Address;
    creator: Address;
    builtAtSec: number;
    deadlineMs: number;
    signal?: AbortSignal;
  },
): Promise<Hash | undefined> {
  for (;;) {
    const code = await publicClient.getCode({ address: args.predictedTokenAddress });
    if (code && code !== "0x") return scanForFirstLog(publicClient, args.predictedTokenAddress, args.builtAtSec);
    const [pending, latest] = await Promise.all([
      publicClient.getTransactionCount({ address: args.creator, blockTag: "pending" }),
      publicClient.getTransactionCount({ address: args.creator, blockTag: "latest" }),
    ]);
    if (pending <= latest) return undefined;
    if (Date.now() > args.deadlineMs) throw new Error("a transaction of the creator is still pending");
    await sleep(500, args.signal);
  }
}

/**
 * The transaction of the first log the token emitted: windows scanned back from the head down to
 * the block before the build (the token cannot have logged before it was built).
 */
async function scanForFirstLog(publicClient: PublicClient, token: Address, builtAtSec: number): Promise<Hash> {
  let toBlock = await publicClient.getBlockNumber();
  let earliest: Hash | undefined;
  for (;;) {
    const fromBlock = toBlock >= WINDOW_BLOCKS ? toBlock - WINDOW_BLOCKS + 1n : 0n;
    const logs = await publicClient.getLogs({ address: token, fromBlock, toBlock });
    earliest = (logs[0]?.transactionHash as Hash | undefined) ?? earliest;
    if (fromBlock === 0n) break;
    const block = await publicClient.getBlock({ blockNumber: fromBlock });
    if (Number(block.timestamp) < builtAtSec - 60) break;
    toBlock = fromBlock - 1n;
  }
  if (!earliest) throw new Error(`the token ${token} has code but no log since the launch was built`);
  return earliest;
}
