/**
 * Fee collection on the launch stack's fee locker, as a wallet does it (anyone may call; the locker
 * splits 70% creator / 30% protocol). Used by the demo seed and by tests; simulated first, sent with
 * an explicit gas limit and awaited like every devnet action (devnet/actions.ts).
 */
import { type Address, getAddress, type PublicClient, parseEventLogs } from "viem";
import { feeLockerAbi } from "../abis/FeeLocker.js";
import type { SenderClient } from "./actions.js";
import type { DeploymentManifest } from "./manifest.js";
import { abortable, type SendOptions, type SentTransaction, sendContractCall } from "./tx.js";

/** Decoded `FeesCollected` event arguments. */
export type FeesCollectedArgs = {
  positionId: bigint;
  creator: Address;
  token: Address;
  token0: Address;
  token1: Address;
  amount0: bigint;
  amount1: bigint;
  creatorAmount0: bigint;
  creatorAmount1: bigint;
  protocolAmount0: bigint;
  protocolAmount1: bigint;
};

/**
 * Collects and splits the fees of locked positions (anyone may call): `collectFees` for one id,
 * `collectFeesMany` for several.
 * @param walletClient Any account (pays gas only).
 * @param publicClient Reads and waits.
 * @param manifest The deployment.
 * @param positionIds Locked position ids (at least one).
 * @param opts Abort signal and receipt timeout ({@link SendOptions}).
 * @returns Hash, receipt and the decoded `FeesCollected` events (one per position).
 * @throws {RangeError} When `positionIds` is empty.
 * @throws viem's ContractFunctionExecutionError when the call would revert (e.g. `UnknownPosition`).
 * @throws {TransactionRevertedError} When the mined transaction reverted.
 */
export async function collectFees(
  walletClient: SenderClient,
  publicClient: PublicClient,
  manifest: DeploymentManifest,
  positionIds: readonly bigint[],
  opts: SendOptions = {},
): Promise<SentTransaction & { events: FeesCollectedArgs[] }> {
  const [first] = positionIds;
  if (first === undefined) throw new RangeError("collectFees needs at least one position id");
  const base = { account: walletClient.account, address: manifest.contracts.feeLocker, abi: feeLockerAbi } as const;
  const { request } =
    positionIds.length === 1
      ? await abortable(
          publicClient.simulateContract({ ...base, functionName: "collectFees", args: [first] }),
          opts.signal,
        )
      : await abortable(
          publicClient.simulateContract({ ...base, functionName: "collectFeesMany", args: [positionIds] }),
          opts.signal,
        );
  const sent = await sendContractCall(walletClient, publicClient, request, opts);
  const events = parseEventLogs({ abi: feeLockerAbi, eventName: "FeesCollected", logs: sent.receipt.logs })
    .filter((l) => getAddress(l.address) === getAddress(manifest.contracts.feeLocker))
    .map((l) => l.args);
  return { ...sent, events };
}
