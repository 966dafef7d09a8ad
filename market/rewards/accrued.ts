/**
 * Fees accrued by locked positions but not yet collected, read from the chain in a bounded number
 * of RPC calls (docs/public.md "Creator rewards"): two rounds of Multicall3 `eth_call`s at a fixed
 * block (viem's `multicall`, deployless, so it needs no deployed Multicall3; one call per round up
 * to ~16 positions, then about one per 42 positions in the first round and per 21 in the second:
 * 16 calls for a 100-launch creator's 200 positions, against 200 simulations before):
 *
 * 1. `NonfungiblePositionManager.positions(id)` of every position (range, liquidity, fee growth
 *    at its last update, owed amounts), and `slot0`, `feeGrowthGlobal0X128` and
 *    `feeGrowthGlobal1X128` of every pool;
 * 2. `ticks(tickLower)` and `ticks(tickUpper)` of every position's range.
 *
 * The amounts then follow from the contracts' own formulas (src/domain/uncollectedFees.ts), which
 * give exactly what `collect(tokenId, feeLocker, max, max)` pays at that block (what
 * `FeeLocker.collectFees` collects), as the per-position simulation of `collect` did with one RPC
 * call per position (an anonymous GET of a 100-launch creator cost ~200 calls).
 */
import type { Address, PublicClient } from "viem";
import { nonfungiblePositionManagerAbi } from "../../abis/NonfungiblePositionManager";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool";
import { feeGrowthInsideX128, uncollectedAmount } from "../../src/domain/uncollectedFees";

/** Call data per deployless multicall chunk, bytes (see {@link readAccruedFees}). */
export const MULTICALL_CHUNK_BYTES = 1_536;

/** Uncollected token0/token1 amounts of one position, base units. */
export type Accrued = { positionId: bigint; amount0: bigint; amount1: bigint };

/** One locked position and the pool it provides liquidity to. */
export type LockedPosition = { positionId: bigint; pool: Address };

/**
 * Reads what collecting each position would pay at `blockNumber`, in two `eth_call`s.
 * @param client - RPC client of the chain
 * @param contracts - the position manager (owner of the positions' state)
 * @param positions - locked positions with their pools
 * @param blockNumber - the block the amounts are stated at
 * @returns one entry per position, in order
 * @throws viem errors when the RPC fails (callers map them to `chain_unavailable`)
 * @example await readAccruedFees(client, { nonfungiblePositionManager }, [{ positionId: 7n, pool }], 1234n)
 * // [{ positionId: 7n, amount0: 1_250_000n, amount1: 3_000_000_000_000n }]
 */
export async function readAccruedFees(
  client: PublicClient,
  contracts: { nonfungiblePositionManager: Address },
  positions: readonly LockedPosition[],
  blockNumber: bigint,
): Promise<Accrued[]> {
  if (positions.length === 0) return [];
  const pools = [...new Set(positions.map((p) => p.pool))];
  // Deployless (no Multicall3 needs to be deployed) runs the calls in a contract's init code and
  // returns the results as its code, which EIP-170 caps at 24,576 bytes: 1,536 bytes of call data
  // per chunk keeps a chunk's results near 20 KB (~42 position reads, ~21 ranges' tick pairs).
  const options = { blockNumber, allowFailure: false, deployless: true, batchSize: MULTICALL_CHUNK_BYTES } as const;
  const first = await client.multicall({
    ...options,
    contracts: [
      ...positions.map(
        (p) =>
          ({
            address: contracts.nonfungiblePositionManager,
            abi: nonfungiblePositionManagerAbi,
            functionName: "positions",
            args: [p.positionId],
          }) as const,
      ),
      ...pools.flatMap(
        (pool) =>
          [
            { address: pool, abi: uniswapV3PoolAbi, functionName: "slot0" },
            { address: pool, abi: uniswapV3PoolAbi, functionName: "feeGrowthGlobal0X128" },
            { address: pool, abi: uniswapV3PoolAbi, functionName: "feeGrowthGlobal1X128" },
          ] as const,
      ),
    ],
  });
  const states = positions.map((_, i) => {
    const r = first[i] as readonly [
      bigint,
      Address,
      Address,
      Address,
      number,
      number,
      number,
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
    ];
    return {
      tickLower: r[5],
      tickUpper: r[6],
      liquidity: r[7],
      inside0Last: r[8],
      inside1Last: r[9],
      owed0: r[10],
      owed1: r[11],
    };
  });
  const poolState = new Map(
    pools.map((pool, j) => {
      const at = positions.length + 3 * j;
      const slot0 = first[at] as readonly [bigint, number, ...unknown[]];
      return [pool, { tick: slot0[1], global0: first[at + 1] as bigint, global1: first[at + 2] as bigint }];
    }),
  );
  const ticks = await client.multicall({
    ...options,
    contracts: positions.flatMap(
      (p, i) =>
        [
          { address: p.pool, abi: uniswapV3PoolAbi, functionName: "ticks", args: [states[i]!.tickLower] },
          { address: p.pool, abi: uniswapV3PoolAbi, functionName: "ticks", args: [states[i]!.tickUpper] },
        ] as const,
    ),
  });
  return positions.map((p, i) => {
    const s = states[i]!;
    const pool = poolState.get(p.pool)!;
    // ticks(): liquidityGross, liquidityNet, feeGrowthOutside0X128, feeGrowthOutside1X128, …
    const lower = ticks[2 * i] as readonly [bigint, bigint, bigint, bigint, ...unknown[]];
    const upper = ticks[2 * i + 1] as readonly [bigint, bigint, bigint, bigint, ...unknown[]];
    const inside0 = feeGrowthInsideX128(pool.tick, pool.global0, s.tickLower, lower[2], s.tickUpper, upper[2]);
    const inside1 = feeGrowthInsideX128(pool.tick, pool.global1, s.tickLower, lower[3], s.tickUpper, upper[3]);
    return {
      positionId: p.positionId,
      amount0: uncollectedAmount(s.owed0, s.liquidity, inside0, s.inside0Last),
      amount1: uncollectedAmount(s.owed1, s.liquidity, inside1, s.inside1Last),
    };
  });
}
