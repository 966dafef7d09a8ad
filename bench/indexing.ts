/**
 * Pieces shared by the benchmarks that index a built history: the floor (the same logs fetched
 * and decoded by viem alone), the service's memory, and waiting until every trade is served.
 */
import { readFileSync } from "node:fs";
import { getAbiItem, type Address, type PublicClient } from "viem";
import { launchFactoryAbi } from "../abis/LaunchFactory";
import { uniswapV3PoolAbi } from "../abis/UniswapV3Pool";
import type { DeploymentManifest } from "../devnet/manifest";

/** Resident set size of a process in bytes (Linux `/proc/<pid>/status`): now (`VmRSS`) and peak (`VmHWM`). */
export function rssBytes(pid: number): { current: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) * 1024;
    return { current: kb("VmRSS"), peak: kb("VmHWM") };
  } catch {
    return null;
  }
}

/**
 * The floor of indexing a history: `TokenLaunched` and `Swap` logs from `fromBlock` to `toBlock`
 * fetched with viem `getLogs` and decoded, `blocksPerRequest` blocks at a time (default 20; keep
 * a request under viem's 10 MB response cap, ~20,000 swaps).
 * @returns seconds taken and logs decoded
 */
export async function measureLogFloor(
  client: PublicClient,
  manifest: DeploymentManifest,
  pools: Address[],
  toBlock: bigint,
  blocksPerRequest = 20,
): Promise<{ seconds: number; logs: number }> {
  const started = performance.now();
  let logs = 0;
  const chunk = BigInt(blocksPerRequest);
  for (let from = BigInt(manifest.startBlock); from <= toBlock; from += chunk) {
    const to = from + chunk - 1n < toBlock ? from + chunk - 1n : toBlock;
    const [launchLogs, swapLogs] = await Promise.all([
      client.getLogs({
        address: manifest.acceptedFactories,
        event: getAbiItem({ abi: launchFactoryAbi, name: "TokenLaunched" }),
        fromBlock: from,
        toBlock: to,
      }),
      client.getLogs({
        address: pools,
        event: getAbiItem({ abi: uniswapV3PoolAbi, name: "Swap" }),
        fromBlock: from,
        toBlock: to,
      }),
    ]);
    logs += launchLogs.length + swapLogs.length;
  }
  return { seconds: (performance.now() - started) / 1000, logs };
}

/**
 * Every launch the service serves and the sum of their `trade_count`, read through the
 * `tokens/new` cursor pages (100 tokens a page; the newest `maxPages` only), or null when a page
 * is not served yet.
 */
async function indexedLaunchesAndTrades(
  serviceUrl: string,
  maxPages = Number.POSITIVE_INFINITY,
): Promise<{ launches: number; trades: number } | null> {
  let launches = 0;
  let trades = 0;
  let cursor: string | null = null;
  let pages = 0;
  do {
    pages++;
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const res = await fetch(`${serviceUrl}/api/public/tokens/new?limit=100${query}`).catch(() => null);
    if (!res?.ok) return null;
    const body = (await res.json()) as { tokens: Array<{ trade_count: number }>; next_cursor: string | null };
    launches += body.tokens.length;
    trades += body.tokens.reduce((sum, t) => sum + t.trade_count, 0);
    cursor = body.next_cursor;
  } while (cursor && pages < maxPages);
  return { launches, trades };
}

/**
 * Polls the service until its public token list (every cursor page) shows `launches` tokens whose
 * `trade_count`s add up to at least `swaps`; samples the process's RSS on every poll. `exited`
 * returns why the service stopped (null while it runs), so a dead service fails the wait at once.
 * @returns the trades seen and the highest RSS sampled (bytes; the kernel's `VmHWM` is read too)
 */
export async function waitForIndexedTrades(
  serviceUrl: string,
  pid: number,
  options: {
    launches: number;
    swaps: number;
    pollMs?: number;
    onProgress?: (trades: number) => void;
    exited?: () => string | null;
  },
): Promise<{ trades: number; peakRssBytes: number | null }> {
  let peak: number | null = null;
  let lastReported = 0;
  for (;;) {
    const exit = options.exited?.();
    if (exit !== null && exit !== undefined) throw new Error(`the service exited while indexing: ${exit}`);
    const rss = rssBytes(pid);
    if (rss) peak = Math.max(peak ?? 0, rss.peak, rss.current);
    const indexed = await indexedLaunchesAndTrades(serviceUrl, options.launches > 100 ? undefined : 1);
    if (indexed) {
      const { launches, trades } = indexed;
      if (options.onProgress && trades - lastReported >= 50_000) {
        options.onProgress(trades);
        lastReported = trades;
      }
      if (launches >= options.launches && trades >= options.swaps) return { trades, peakRssBytes: peak };
    }
    // Over 100 launches a poll reads every page: at most one such walk every 2 s, so the polling
    // does not load the service it measures (the wait's resolution is then 2 s).
    await new Promise((r) => setTimeout(r, Math.max(options.pollMs ?? 250, options.launches > 100 ? 2_000 : 0)));
  }
}

/**
 * Wall-clock time (ms since the epoch) of the first JSON log line with message `msg` (and, when
 * given, field `endpoint`), or null.
 */
export function logTimeMs(output: string, msg: string, endpoint?: string): number | null {
  for (const line of output.split("\n")) {
    if (!line.includes(msg)) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; time?: number; endpoint?: string };
      if (
        entry.msg === msg &&
        (endpoint === undefined || entry.endpoint === endpoint) &&
        typeof entry.time === "number"
      )
        return entry.time;
    } catch {
      // not a JSON line
    }
  }
  return null;
}
