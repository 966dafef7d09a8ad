/**
 * Aggregates for the scale-live benchmark (bench/scaleLive.ts): what the indexer asked its RPC for
 * during a live trading window (from two snapshots of the counting proxy, `test/helpers/rpcProxy.ts`), per
 * block mined in that window, and whether its lag grew from the window's start to its end.
 */
import { diffCounts, type RpcTraffic } from "../test/helpers/rpcProxy";
import { mean } from "./stats";

/** Input of {@link liveWindowTraffic}. Block numbers are those of the chain the indexer follows. */
export type LiveWindowInput = {
  /** The proxy's traffic when the window opened, and when it closed. */
  before: RpcTraffic;
  after: RpcTraffic;
  /** The head when the window opened (excluded) and closed (included): the window's blocks. */
  fromBlock: number;
  toBlock: number;
  /** Blocks holding a log of this launchpad's contracts (any block; those outside the window are ignored). */
  blocksWithOurLogs: readonly number[];
  /** Blocks holding a foreign pool's `Swap` (likewise). */
  blocksWithForeignSwaps: readonly number[];
};

/**
 * The indexer's RPC traffic in one live window, per block mined in it.
 * @returns counts (blocks, calls), bytes, and the ratios: blocks fetched to blocks holding our logs,
 *   `eth_getLogs` and response bytes per block, the share of blocks holding a foreign swap
 * @throws Error when `toBlock` is not after `fromBlock` (an empty window: nothing was mined)
 * @example liveWindowTraffic({ before, after, fromBlock: 100, toBlock: 700, blocksWithOurLogs: [101, 103], blocksWithForeignSwaps: [101, 102] })
 */
export function liveWindowTraffic(input: LiveWindowInput) {
  const { before, after, fromBlock, toBlock } = input;
  if (toBlock <= fromBlock) throw new Error(`empty live window: blocks ${fromBlock} -> ${toBlock}`);
  const blocks = toBlock - fromBlock;
  const inWindow = (b: number) => b > fromBlock && b <= toBlock;
  const ours = new Set(input.blocksWithOurLogs.filter(inWindow)).size;
  const foreign = new Set(input.blocksWithForeignSwaps.filter(inWindow)).size;
  const fetchedInWindow = after.fetchedBlockNumbers.slice(before.fetchedBlockNumbers.length).filter(inWindow);
  const calls = diffCounts(before.calls, after.calls);
  const getLogs = calls.eth_getLogs ?? 0;
  const responseBytes = after.responseBytes - before.responseBytes;
  const blocksFetched = after.blocksFetched - before.blocksFetched;
  return {
    blocks,
    blocksWithOurLogs: ours,
    blocksWithForeignSwaps: foreign,
    /** Share of the window's blocks holding a foreign swap (the benchmark wants >= 0.8). */
    foreignBlockShare: foreign / blocks,
    /** Block fetches answered during the window (repeats and head polls included). */
    blocksFetched,
    /** Distinct blocks of the window among them. */
    distinctBlocksFetched: new Set(fetchedInWindow).size,
    blocksFetchedToBlocksWithOurLogs: ours > 0 ? blocksFetched / ours : null,
    calls,
    requests: Object.values(calls).reduce((a, b) => a + b, 0),
    getLogs,
    getLogsPerBlock: getLogs / blocks,
    responseBytes,
    responseBytesPerBlock: responseBytes / blocks,
    // Per block fetched: the same figures when the indexer keeps up; when it falls behind it
    // fetched fewer blocks than were mined, and these are the cost per block it processed.
    getLogsPerBlockFetched: blocksFetched > 0 ? getLogs / blocksFetched : null,
    responseBytesPerBlockFetched: blocksFetched > 0 ? responseBytes / blocksFetched : null,
    responseBytesByMethod: diffCounts(before.responseBytesByMethod, after.responseBytesByMethod),
  };
}

/**
 * Whether the lag grew over a run: mean lag (blocks) over the first and the last `edgeSec` seconds
 * of the samples (at most a third of the run each, so a short run compares its thirds), and the max.
 * Growing means the last mean exceeds the first by more than 5 blocks (half a second at 100 ms).
 * @param samples - seconds since the start, lag in blocks, in time order
 */
export function lagTrend(samples: readonly { tSec: number; lagBlocks: number }[], edgeSec = 60) {
  if (samples.length === 0) return { edgeSec: null, firstMean: null, lastMean: null, max: null, growing: null };
  const spanSec = samples[samples.length - 1]!.tSec - samples[0]!.tSec;
  const edge = Math.min(edgeSec, spanSec / 3);
  const first = samples.filter((s) => s.tSec <= samples[0]!.tSec + edge).map((s) => s.lagBlocks);
  const last = samples.filter((s) => s.tSec >= samples[samples.length - 1]!.tSec - edge).map((s) => s.lagBlocks);
  const firstMean = mean(first)!;
  const lastMean = mean(last)!;
  return {
    edgeSec: edge,
    firstMean,
    lastMean,
    max: Math.max(...samples.map((s) => s.lagBlocks)),
    growing: lastMean > firstMean + 5,
  };
}
