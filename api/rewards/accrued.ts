/**
 * Fees accrued by locked positions but not yet collected, read from the chain: an `eth_call` of
 * `NonfungiblePositionManager.collect(tokenId, recipient = fee locker, max, max)` sent from the
 * fee locker (the NFT's owner) at a fixed block. `collect` first pokes the position (`burn(0)`),
 * so the result is exactly what `FeeLocker.collectFees` would collect at that block (Uniswap V3
 * periphery, NonfungiblePositionManager.collect).
 */
import { maxUint128, type Address, type PublicClient } from "viem";
import { nonfungiblePositionManagerAbi } from "../../abis/NonfungiblePositionManager";

/** Uncollected token0/token1 amounts of one position, base units. */
export type Accrued = { positionId: bigint; amount0: bigint; amount1: bigint };

/**
 * Simulates collecting each position at `blockNumber`.
 * @param client - RPC client of the chain
 * @param contracts - the position manager and the fee locker (owner of every locked NFT)
 * @param positionIds - locked position ids
 * @param blockNumber - the block the amounts are stated at
 * @returns one entry per position, in order
 * @throws viem errors when the RPC fails (callers map them to `chain_unavailable`)
 */
export async function readAccruedFees(
  client: PublicClient,
  contracts: { nonfungiblePositionManager: Address; feeLocker: Address },
  positionIds: readonly bigint[],
  blockNumber: bigint,
): Promise<Accrued[]> {
  return Promise.all(
    positionIds.map(async (positionId) => {
      const { result } = await client.simulateContract({
        address: contracts.nonfungiblePositionManager,
        abi: nonfungiblePositionManagerAbi,
        functionName: "collect",
        args: [{ tokenId: positionId, recipient: contracts.feeLocker, amount0Max: maxUint128, amount1Max: maxUint128 }],
        account: contracts.feeLocker,
        blockNumber,
      });
      return { positionId, amount0: result[0], amount1: result[1] };
    }),
  );
}
