/**
 * Creator-rewards benchmark (issue: one anonymous GET made ~200 RPC calls): the RPC requests one
 * `GET /api/evm/evmchain/creator-rewards` costs for a creator of many launches, and the indexer's
 * lag while such GETs arrive, against the per-position `collect` simulation the service used to
 * make, measured in the same run on the same chain.
 *
 * Set-up: the e2e stack (anvil with the full deployment, the real service on PostgreSQL or PGlite)
 * with the counting RPC proxy (`test/helpers/rpcProxy.ts`) between the API and anvil; the indexer polls
 * anvil directly, so the proxy sees the API's requests only. One creator launches `--launches`
 * tokens; a trader buys into every tenth, so positions hold uncollected fees.
 *
 * Figures:
 * - `rpc_per_get`: the proxy's count for one GET at a new indexed block (and for a repeat at the
 *   same block: the cache);
 * - `baseline_rpc_per_get`: what the old path sent, one simulated `collect` per position (the
 *   positions of the answer), sent here from a direct client to anvil, which also checks that
 *   every served amount equals the simulated one (exact to the unit);
 * - `lag`: while blocks are mined every 100 ms for `--attack-sec`, `--rate` GETs per second
 *   (the session surface allows 120 per minute and IP), the indexer's lag behind the chain head
 *   sampled every 100 ms: once with the service's GETs (after), once with the same number of
 *   baseline simulations per GET sent to anvil instead (before).
 *
 * Usage: `npm run bench -- rewards [--launches 100] [--attack-sec 20] [--rate 3]`.
 * Result: `bench/results/latest/rewards.json`.
 */
import { loadavg } from "node:os";
import { createPublicClient, http, maxUint128, parseEther, type Address } from "viem";
import { nonfungiblePositionManagerAbi } from "../abis/NonfungiblePositionManager";
import { buyToken, launchToken } from "../devnet/actions";
import { startStack, until } from "../test/helpers/harness";
import { diffCounts, startRpcProxy, type RpcProxy } from "../test/helpers/rpcProxy";
import { machineRecord, parseBenchFlags, writeBenchResult } from "./harness";
import { mean, percentile } from "./stats";

const flags = parseBenchFlags("rewards", {
  launches: { type: "string", default: "100" },
  "attack-sec": { type: "string", default: "20" },
  rate: { type: "string", default: "3" },
});
const LAUNCHES = Number(flags.launches);
const ATTACK_SEC = Number(flags["attack-sec"]);
const RATE = Number(flags.rate);
const loadAtStart = loadavg();

// The validating proxy is for tests; a benchmark measures the service alone.
process.env.E2E_CONTRACT_PROXY = "0";
let proxy: RpcProxy | undefined;
let anvilUrl = "";
const stack = await startStack({
  schema: "bench_rewards",
  // The benchmark measures RPC work, not the session surface's per-IP limit (120/min).
  env: { SESSION_RATE_LIMIT_PER_MINUTE: "1000000" },
  serviceRpcUrl: async (url) => {
    anvilUrl = url;
    proxy = await startRpcProxy({ target: url });
    return proxy.url;
  },
  indexerRpcUrl: (url) => url,
});
try {
  const creator = stack.wallet(1);
  const wallet = creator.account.address;
  console.error(`launching ${LAUNCHES} tokens as ${wallet}`);
  for (let i = 0; i < LAUNCHES; i++) {
    const { event } = await launchToken(creator, stack.publicClient, stack.manifest, {
      name: `Bench Rewards ${i}`,
      symbol: `BRW${i}`,
      firstBuyWei: parseEther("0.001"),
    });
    if (i % 10 === 0)
      await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, event.token, parseEther("0.01"));
  }
  const path = `/api/evm/evmchain/creator-rewards?wallet=${wallet}`;
  const expected = Math.min(LAUNCHES, 100);
  await until(
    `${expected} launches indexed`,
    async () => {
      const res = await stack.request(path);
      return res.status === 200 && res.body.tokens.length === expected ? true : undefined;
    },
    600_000,
  );
  const mine = () => stack.publicClient.request({ method: "evm_mine" as never, params: [] as never });

  // One GET at a new block, then a repeat at the same block.
  await mine();
  await until("the new block indexed", async () => {
    const r = await stack.request("/api/v1/ready");
    return r.body.lag_blocks === 0 ? true : undefined;
  });
  let before = proxy!.counts().pass;
  const served = await stack.request(path);
  const rpcPerGet = diffCounts(before, proxy!.counts().pass);
  before = proxy!.counts().pass;
  await stack.request(path);
  const rpcRepeat = diffCounts(before, proxy!.counts().pass);

  // The baseline: one simulated collect per position at the answer's block, and exactness.
  const direct = createPublicClient({ transport: http(anvilUrl) });
  const positions = (
    served.body.tokens as { positions: { position_id: string; uncollected_wei: string; uncollected_token: string }[] }[]
  ).flatMap((t) => t.positions);
  const blockNumber = BigInt(served.body.as_of_block);
  const simulate = (positionId: bigint) =>
    direct.simulateContract({
      address: stack.manifest.contracts.nonfungiblePositionManager as Address,
      abi: nonfungiblePositionManagerAbi,
      functionName: "collect",
      args: [
        {
          tokenId: positionId,
          recipient: stack.manifest.contracts.feeLocker as Address,
          amount0Max: maxUint128,
          amount1Max: maxUint128,
        },
      ],
      account: stack.manifest.contracts.feeLocker as Address,
      blockNumber,
    });
  let mismatches = 0;
  for (const p of positions) {
    const { result } = await simulate(BigInt(p.position_id));
    const amounts = new Set([result[0], result[1]].map(String));
    if (!amounts.has(p.uncollected_wei) || !amounts.has(p.uncollected_token)) mismatches++;
  }

  /** The indexer's lag sampled every 100 ms while `load` runs and blocks are mined every 100 ms. */
  async function lagUnder(
    load: () => Promise<unknown>,
  ): Promise<{ p50: number | null; p99: number | null; max: number; mean: number | null }> {
    const lags: number[] = [];
    const stopAt = Date.now() + ATTACK_SEC * 1000;
    const miner = (async () => {
      while (Date.now() < stopAt) {
        await mine();
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const sampler = (async () => {
      while (Date.now() < stopAt) {
        const [head, ready] = await Promise.all([direct.getBlockNumber(), stack.request("/api/v1/ready")]);
        if (typeof ready.body.indexed_block === "number") lags.push(Number(head) - ready.body.indexed_block);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const attacker = (async () => {
      const pending: Promise<unknown>[] = [];
      while (Date.now() < stopAt) {
        pending.push(load().catch(() => undefined));
        await new Promise((r) => setTimeout(r, 1000 / RATE));
      }
      await Promise.all(pending);
    })();
    await Promise.all([miner, sampler, attacker]);
    const sorted = [...lags].sort((a, b) => a - b);
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? 0, mean: mean(lags) };
  }
  const lagBefore = await lagUnder(() =>
    Promise.all(positions.map((p) => simulate(BigInt(p.position_id)).catch(() => undefined))),
  );
  const lagAfter = await lagUnder(() => stack.request(path));
  const calls = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  writeBenchResult("rewards", {
    benchmark: "rewards",
    launches: LAUNCHES,
    positions: positions.length,
    rpc_per_get: rpcPerGet,
    rpc_per_get_repeat_same_block: rpcRepeat,
    baseline_rpc_per_get: positions.length,
    rpc_ratio_service_to_baseline: calls(rpcPerGet) / positions.length,
    amounts_not_equal_to_simulated_collect: mismatches,
    attack: { seconds: ATTACK_SEC, gets_per_sec: RATE, block_interval_ms: 100 },
    indexer_lag_blocks: { before_per_position_simulation: lagBefore, after_multicall: lagAfter },
    machine: machineRecord(loadAtStart),
  });
} finally {
  await stack.stop();
  await proxy?.stop();
}
process.exit(0);
