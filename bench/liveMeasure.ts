/**
 * The live-latency measurement shared by `npm run bench -- live` (bench/live.ts) and
 * `npm run bench -- scale-live` (bench/scaleLive.ts): with a service already indexing a chain that
 * mines a block every 100 ms, it trades steadily in one launched pool and records, per trade, when
 * its block was mined (first seen by a client polling receipts every 10 ms), when a bare
 * `eth_getLogs` client saw it (the floor, at Ponder's polling interval), when an API client polling
 * `GET /api/public/trades/recent` saw it and when an EventSource client on
 * `GET /api/public/stream/trades?token=` received it (`pending`, then confirmed); and the indexer's
 * lag (chain head minus Ponder's indexed block) every second. {@link summariseLive} turns that
 * into percentiles (milliseconds) and the lag series (blocks).
 */
import type { ChildProcess } from "node:child_process";
import { EventSource } from "eventsource";
import { createWalletClient, getAbiItem, http, parseEther, type Address, type Hash, type PublicClient } from "viem";
import { swapRouterAbi } from "../abis/SwapRouter";
import { uniswapV3PoolAbi } from "../abis/UniswapV3Pool";
import { buyParams } from "../devnet/actions";
import { devAccount } from "../devnet/clients";
import type { DeploymentManifest } from "../devnet/manifest";
import { readPonderLog, summariseStages, type TradeTimes } from "./liveStages";
import { mean, percentile } from "./stats";

/** Blocks the indexer must pass the last trade's block by before the clients stop (30 to confirm, plus margin). */
const DRAIN_BLOCKS = 35;
/** How often the benchmark's own clients poll for receipts (ms). */
export const RECEIPT_POLL_MS = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The block Ponder has indexed up to (`/status` of the service).
 * @returns its number, or null when `/status` does not answer
 */
export async function indexedBlock(serviceUrl: string): Promise<number | null> {
  const status = await fetch(`${serviceUrl}/status`)
    .then((r) => r.json())
    .catch(() => null);
  const indexed = (Object.values(status ?? {})[0] as { block?: { number?: number } } | undefined)?.block?.number;
  return typeof indexed === "number" ? indexed : null;
}

/**
 * Chain head minus Ponder's indexed block (`/status` of the service), in blocks.
 * @returns a function answering the lag now, or null when `/status` does not answer
 */
export function lagReader(client: PublicClient, serviceUrl: string): () => Promise<number | null> {
  return async () => {
    const [head, indexed] = await Promise.all([client.getBlockNumber({ cacheTime: 0 }), indexedBlock(serviceUrl)]);
    return indexed === null ? null : Number(head) - indexed;
  };
}

/**
 * Waits until the indexer is within 2 blocks of the head in three samples in a row (250 ms apart),
 * at most `limitMs`.
 * @returns seconds since `sinceMs` (a `performance.now()` time) when caught up; null when it did
 *   not catch up within `limitMs` (a machine too busy to index 10 blocks/s)
 */
export async function waitCaughtUp(
  lagBlocksNow: () => Promise<number | null>,
  sinceMs: number,
  limitMs = 120_000,
): Promise<number | null> {
  let caughtUpSamples = 0;
  while (caughtUpSamples < 3 && performance.now() - sinceMs < limitMs) {
    const lag = await lagBlocksNow();
    caughtUpSamples = lag !== null && lag <= 2 ? caughtUpSamples + 1 : 0;
    await sleep(250);
  }
  return caughtUpSamples >= 3 ? (performance.now() - sinceMs) / 1000 : null;
}

/** Ponder debug-log messages the stage split (bench/liveStages.ts) reads. */
const STAGE_MESSAGES = ['"Received new head block"', '"Fetched block data"', '"Indexed block"', '"Finalized block"'];

/**
 * Keeps the lines of the service's stdout the stage split needs (the whole debug log is megabytes).
 * @returns the kept lines so far, joined by newlines
 */
export function captureStageLines(child: ChildProcess): () => string {
  const kept: string[] = [];
  let partial = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const l of lines) if (STAGE_MESSAGES.some((m) => l.includes(m))) kept.push(l);
  });
  return () => kept.join("\n");
}

/** Options of {@link measureLiveTrading}. */
export type LiveTradingOptions = {
  /** Reads the chain the service indexes (receipts, head, the floor's `eth_getLogs`). */
  client: PublicClient;
  /** JSON-RPC URL the traders send to. */
  rpcUrl: string;
  /** Base URL of the service (its public API and Ponder's `/status`). */
  serviceUrl: string;
  manifest: DeploymentManifest;
  /** The launched token traded, and its pool. */
  token: Address;
  pool: Address;
  durationSec: number;
  /** One buy every this many ms (each awaited until mined). */
  tradeIntervalMs: number;
  /** How often the API client polls `/api/public/trades/recent`. */
  httpPollMs: number;
  /** Ponder's `POLLING_INTERVAL_MS`: the floor client polls at the same pace. */
  ponderPollingMs: number;
  /** Dev account indexes that buy, round-robin (default 2, 3, 4). */
  traderIndexes?: number[];
  /** Longest wait after the last trade for the indexer to pass it (default 120,000 ms). */
  drainLimitMs?: number;
  /** Called just before the first trade, and just after the last one is mined. */
  onWindowStart?: () => Promise<void> | void;
  onWindowEnd?: () => Promise<void> | void;
};

/** What {@link measureLiveTrading} recorded: `performance.now()` times per trade transaction. */
export type LiveTrading = {
  durationSec: number;
  /**
   * Seconds from the last trade to the indexer being DRAIN_BLOCKS past its block (5 s at least);
   * null: not within the drain limit (the trades still missing then count as not seen).
   */
  drainSec: number | null;
  /** `performance.now()` when the trading started (lag samples count from it). */
  startedMs: number;
  sent: number;
  minedAt: Map<Hash, number>;
  blockOf: Map<Hash, number>;
  floorSeenAt: Map<Hash, number>;
  httpSeenAt: Map<Hash, number>;
  sseSeenAt: Map<Hash, number>;
  sseConfirmedAt: Map<Hash, number>;
  /** Seconds since `startedMs`, lag in blocks. */
  lagSamples: { tSec: number; lagBlocks: number }[];
};

/**
 * Trades for `durationSec` (buys from three dev accounts through the SwapRouter, one every
 * `tradeIntervalMs`, each awaited until mined) while the floor client, the polling API client, the
 * SSE client and the lag sampler run; then waits until the indexer is past the last trade's
 * confirmed frame (~30 blocks; at least 5 s, at most `drainLimitMs`).
 * @returns the raw times (see {@link LiveTrading}); summarise with {@link summariseLive}
 */
export async function measureLiveTrading(options: LiveTradingOptions): Promise<LiveTrading> {
  const { client, serviceUrl, manifest, token, pool } = options;
  const lagBlocksNow = lagReader(client, serviceUrl);
  const minedAt = new Map<Hash, number>();
  const blockOf = new Map<Hash, number>();
  const floorSeenAt = new Map<Hash, number>();
  const httpSeenAt = new Map<Hash, number>();
  const sseSeenAt = new Map<Hash, number>();
  const sseConfirmedAt = new Map<Hash, number>();
  const lagSamples: { tSec: number; lagBlocks: number }[] = [];
  let running = true;

  // Floor: a bare client following the pool's Swap logs at Ponder's polling interval.
  const floor = (async () => {
    let from = await client.getBlockNumber({ cacheTime: 0 });
    const swap = getAbiItem({ abi: uniswapV3PoolAbi, name: "Swap" });
    while (running) {
      const head = await client.getBlockNumber({ cacheTime: 0 });
      if (head >= from) {
        const logs = await client.getLogs({ address: pool, event: swap, fromBlock: from, toBlock: head });
        const now = performance.now();
        for (const log of logs) if (!floorSeenAt.has(log.transactionHash)) floorSeenAt.set(log.transactionHash, now);
        from = head + 1n;
      }
      await sleep(options.ponderPollingMs);
    }
  })();

  // What a client of the API sees: the newest trades, polled every `httpPollMs`.
  const watcher = (async () => {
    while (running) {
      const res = await fetch(`${serviceUrl}/api/public/trades/recent?limit=20`).catch(() => null);
      if (res?.ok) {
        const body = (await res.json()) as { trades: { tx_hash: Hash }[] };
        const now = performance.now();
        for (const t of body.trades) if (!httpSeenAt.has(t.tx_hash)) httpSeenAt.set(t.tx_hash, now);
      }
      await sleep(options.httpPollMs);
    }
  })();

  // What a Server-Sent Events client sees: trades pushed at the indexed head (`pending` frames),
  // then confirmed (default `message` frames). One connection, opened once.
  const sse = new EventSource(`${serviceUrl}/api/public/stream/trades?token=${token}`);
  const sseOpen = new Promise<void>((resolve) => sse.addEventListener("open", () => resolve(), { once: true }));
  sse.addEventListener("pending", (e) => {
    const now = performance.now();
    const hash = (JSON.parse(e.data) as { tx_hash: Hash }).tx_hash;
    if (!sseSeenAt.has(hash)) sseSeenAt.set(hash, now);
  });
  sse.addEventListener("message", (e) => {
    const now = performance.now();
    const hash = (JSON.parse(e.data) as { tx_hash: Hash }).tx_hash;
    if (!sseConfirmedAt.has(hash)) sseConfirmedAt.set(hash, now);
  });
  await sseOpen;

  // Indexer lag: chain head minus Ponder's indexed block, every second.
  const startedMs = performance.now();
  // Sampled over the trading only (the drain below would flatter the last samples).
  let trading = true;
  const lagSampler = (async () => {
    while (running && trading) {
      const lagBlocks = await lagBlocksNow();
      if (lagBlocks !== null) lagSamples.push({ tSec: (performance.now() - startedMs) / 1000, lagBlocks });
      await sleep(1000);
    }
  })();

  const traders = (options.traderIndexes ?? [2, 3, 4]).map((i) =>
    createWalletClient({ account: devAccount(i), transport: http(options.rpcUrl) }),
  );
  await options.onWindowStart?.();
  const deadline = performance.now() + options.durationSec * 1000;
  let sent = 0;
  console.log(`trading for ${options.durationSec} s, one buy every ${options.tradeIntervalMs} ms, 100 ms blocks`);
  while (performance.now() < deadline) {
    const trader = traders[sent % traders.length]!;
    const tickStart = performance.now();
    const hash = await trader.writeContract({
      chain: null,
      address: manifest.contracts.swapRouter,
      abi: swapRouterAbi,
      functionName: "exactInputSingle",
      args: [buyParams(manifest, token, trader.account.address, parseEther("0.001"), 2n ** 48n)],
      value: parseEther("0.001"),
      gas: 400_000n,
    });
    sent++;
    // The block is "mined" when a receipt first answers (polled every 10 ms).
    for (;;) {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
      if (receipt) {
        minedAt.set(hash, performance.now());
        blockOf.set(hash, Number(receipt.blockNumber));
        break;
      }
      await sleep(RECEIPT_POLL_MS);
    }
    await sleep(Math.max(0, options.tradeIntervalMs - (performance.now() - tickStart)));
  }
  trading = false;
  await options.onWindowEnd?.();
  // The confirmed frames come ~30 blocks (3 s) after the last trade. An indexer behind the head
  // (a loaded machine) is waited for, so that a late trade counts as late, not as missing: until
  // it has indexed DRAIN_BLOCKS past the last trade's block, at least 5 s, at most `drainLimitMs`.
  const lastTradeBlock = Math.max(0, ...blockOf.values());
  const endedMs = performance.now();
  await sleep(5000);
  let drainSec: number | null = null;
  while (performance.now() - endedMs < (options.drainLimitMs ?? 120_000)) {
    const indexed = await indexedBlock(serviceUrl);
    if (indexed !== null && indexed >= lastTradeBlock + DRAIN_BLOCKS) {
      drainSec = (performance.now() - endedMs) / 1000;
      break;
    }
    await sleep(250);
  }
  running = false;
  sse.close();
  await Promise.all([floor, watcher, lagSampler]);
  return {
    durationSec: options.durationSec,
    drainSec,
    startedMs,
    sent,
    minedAt,
    blockOf,
    floorSeenAt,
    httpSeenAt,
    sseSeenAt,
    sseConfirmedAt,
    lagSamples,
  };
}

/** p50 / p99 of a list, ms (null when empty). */
const quantiles = (values: number[]) => ({ p50: percentile(values, 0.5), p99: percentile(values, 0.99) });

/**
 * Per-trade latencies (block mined -> seen, ms, clamped at 0) over HTTP polling, SSE and the floor,
 * for the whole run and its second half; the lag's first and last third (mean blocks), max and a
 * series of one sample every ~10 s (`[seconds, blocks]`).
 */
export function summariseLive(run: LiveTrading) {
  const { minedAt, httpSeenAt, sseSeenAt, sseConfirmedAt, floorSeenAt, lagSamples } = run;
  const serviceMs: number[] = [];
  const floorMs: number[] = [];
  // Second half of the run (the run starts caught up; the halves show whether the tail drifts).
  const halfway = run.startedMs + (run.durationSec * 1000) / 2;
  const steadyMs: number[] = [];
  let missing = 0;
  const sseMs: number[] = [];
  const sseSteadyMs: number[] = [];
  const sseConfirmedMs: number[] = [];
  let sseMissing = 0;
  // Per trade, SSE receipt minus the polling client's first sight of the same trade: the push
  // path's own delay on the same indexed data, whatever the indexer's lag (negative: SSE first).
  const sseMinusPollingMs: number[] = [];
  for (const [hash, mined] of minedAt) {
    const seen = sseSeenAt.get(hash);
    if (seen === undefined) sseMissing++;
    else {
      sseMs.push(Math.max(0, seen - mined));
      if (mined >= halfway) sseSteadyMs.push(Math.max(0, seen - mined));
    }
    const polled = httpSeenAt.get(hash);
    if (seen !== undefined && polled !== undefined) sseMinusPollingMs.push(seen - polled);
    const confirmed = sseConfirmedAt.get(hash);
    if (confirmed !== undefined) sseConfirmedMs.push(Math.max(0, confirmed - mined));
  }
  for (const [hash, mined] of minedAt) {
    const seen = httpSeenAt.get(hash);
    const base = floorSeenAt.get(hash);
    if (seen === undefined) missing++;
    else {
      serviceMs.push(Math.max(0, seen - mined));
      if (mined >= halfway) steadyMs.push(Math.max(0, seen - mined));
    }
    if (base !== undefined) floorMs.push(Math.max(0, base - mined));
  }
  const third = Math.max(1, Math.floor(lagSamples.length / 3));
  const service = quantiles(serviceMs);
  const floor = quantiles(floorMs);
  const sse = quantiles(sseMs);
  const ratio = (a: number | null, b: number | null) => (a !== null && b ? a / b : null);
  return {
    tradesSent: run.sent,
    // Last trade -> the indexer 35 blocks past it (>= 5 s; null: not within the limit).
    drainSec: run.drainSec,
    tradesNotSeenOverHttp: missing,
    serviceMs: { ...service, max: serviceMs.length ? Math.max(...serviceMs) : null, samples: serviceMs.length },
    serviceSecondHalfMs: { ...quantiles(steadyMs), samples: steadyMs.length },
    floorMs: { ...floor, samples: floorMs.length },
    // Server-Sent Events (`/api/public/stream/trades`): block mined -> `pending` frame received.
    tradesNotSeenOverSse: sseMissing,
    sseMs: { ...sse, max: sseMs.length ? Math.max(...sseMs) : null, samples: sseMs.length },
    sseSecondHalfMs: { ...quantiles(sseSteadyMs), samples: sseSteadyMs.length },
    sseRatioToFloor: { p50: ratio(sse.p50, floor.p50), p99: ratio(sse.p99, floor.p99) },
    sseMinusPollingMs: {
      p1: percentile(sseMinusPollingMs, 0.01),
      ...quantiles(sseMinusPollingMs),
      samples: sseMinusPollingMs.length,
    },
    // The same trades as confirmed frames (with ids), EVENTS_CONFIRMATION_BLOCKS (30) blocks later.
    sseConfirmedMs: { ...quantiles(sseConfirmedMs), samples: sseConfirmedMs.length },
    ratioToFloor: { p50: ratio(service.p50, floor.p50), p99: ratio(service.p99, floor.p99) },
    lagBlocks: {
      firstThirdMean: mean(lagSamples.slice(0, third).map((s) => s.lagBlocks)),
      lastThirdMean: mean(lagSamples.slice(-third).map((s) => s.lagBlocks)),
      max: lagSamples.length ? Math.max(...lagSamples.map((s) => s.lagBlocks)) : null,
      samples: lagSamples.length,
      // One sample every ~10 s: shows whether the lag grows, holds or drains.
      series: lagSamples.filter((_, i) => i % 10 === 0).map((s) => [Math.round(s.tSec), s.lagBlocks]),
    },
  };
}

/**
 * Splits each SSE trade's latency into Ponder's poll, block fetch, indexing and our push, from the
 * service's debug log lines kept by {@link captureStageLines} (bench/liveStages.ts).
 */
export function stagesOf(run: LiveTrading, stageLog: string) {
  const epochMs = (t: number) => performance.timeOrigin + t;
  const trades: TradeTimes[] = [];
  for (const [hash, mined] of run.minedAt) {
    const pushed = run.sseSeenAt.get(hash);
    const blockNumber = run.blockOf.get(hash);
    if (pushed !== undefined && blockNumber !== undefined)
      trades.push({ blockNumber, minedMs: epochMs(mined), pushedMs: epochMs(pushed) });
  }
  return summariseStages(trades, readPonderLog(stageLog));
}
