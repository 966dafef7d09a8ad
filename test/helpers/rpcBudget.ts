/**
 * The RPC budget of the launch write path (docs/launch.md "RPC budget"): how many JSON-RPC
 * requests the API may send to the chain per build and per confirm, by method. Measured with the
 * counting proxy (`test/helpers/rpcProxy.ts`) on the devnet; asserted by `test/e2e/rpcbudget.test.ts` and
 * checked on every launch of the build benchmark (`npm run bench -- build`).
 *
 * The counts are exact (the same for a launch with and without a first buy, and on every one of
 * the benchmark's launches). Fewer requests always pass; a method over its count, or a method not
 * listed, fails. The one allowance is {@link RPC_BUDGET}`.firstBuildExtra`: the first build of a
 * process also reads the factory's immutable minimum (then kept in memory).
 */

/** JSON-RPC requests by method, e.g. `{ eth_call: 1, eth_blockNumber: 1 }`. */
export type RpcCounts = Record<string, number>;

/** Requests per call of the v1 (and coin, and session) launch endpoints. */
export const RPC_BUDGET = {
  /**
   * An anonymous `GET /api/evm/evmchain/creator-rewards` of a creator with many launches: two
   * multicalls whatever the number of positions (docs/public.md "Creator rewards"); a repeat at
   * the same indexed block is served from the per-(block, wallet) cache.
   */
  creatorRewards: { eth_call: 2 },
  creatorRewardsRepeat: {},
  /** Build from a signed intent: block number, simulate the launch, estimate its gas. */
  build: { eth_blockNumber: 1, eth_call: 1, eth_estimateGas: 1 },
  /** On top of `build`, once per process: the factory's `minimumPoolLiquidityWei()`. */
  firstBuildExtra: { eth_call: 1 },
  /** Confirm of a mined launch: the receipt, then every position's owner in one multicall. */
  confirm: { eth_getTransactionReceipt: 1, eth_call: 1 },
  /** Confirm of a transaction that is not mined yet (202): the receipt lookup only. */
  confirmPending: { eth_getTransactionReceipt: 1 },
  /** A repeated build of a built launch, or confirm of a confirmed one: answered from the store. */
  replay: {},
} as const satisfies Record<string, RpcCounts>;

/**
 * Adds request counts method by method.
 * @example addCounts({ eth_call: 1 }, { eth_call: 1, eth_chainId: 1 }) // { eth_call: 2, eth_chainId: 1 }
 */
export function addCounts(a: RpcCounts, b: RpcCounts): RpcCounts {
  const sum: RpcCounts = { ...a };
  for (const [method, n] of Object.entries(b)) sum[method] = (sum[method] ?? 0) + n;
  return sum;
}

/**
 * What in `counts` exceeds `budget`: one line per method over its count or not in the budget.
 * @param counts - requests one call made (e.g. `diffCounts` of the proxy's counts around it)
 * @param budget - allowed requests per method
 * @returns `[]` when within budget, else lines like `"eth_call: 2 > 1"`
 * @example overBudget({ eth_call: 2 }, { eth_call: 1 }) // ["eth_call: 2 > 1"]
 */
export function overBudget(counts: RpcCounts, budget: RpcCounts): string[] {
  return Object.entries(counts)
    .filter(([method, n]) => n > (budget[method] ?? 0))
    .map(([method, n]) => `${method}: ${n} > ${budget[method] ?? 0}`);
}
