/**
 * Faults the indexer must survive without losing or duplicating anything (spec: Standards, "no
 * launch, trade or key is dropped on restart, retry, reorg"):
 * - chain reorganisations of depth 1 to 5 on anvil (`anvil_reorg`) that drop and replace swaps and
 *   a launch, while the service indexes live;
 * - `kill -9` of the service in the middle of a backfill, then a restart on the same database:
 *   PostgreSQL (the production database) always; the embedded PGlite is a known failure, run with
 *   `FAULTS_CRASH_DATABASE=pglite` (see the test's comment).
 * After each, everything served over HTTP (tokens, trades, candles of every resolution, the events
 * feed including pending events) must equal a clean index of the final chain made by a second
 * service started from scratch.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeFunctionData, numberToHex, parseEther, type Address, type Hex } from "viem";
import { launchFactoryAbi } from "../../abis/LaunchFactory";
import { swapRouterAbi } from "../../abis/SwapRouter";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool";
import { buyToken, launchToken, sellToken } from "../../devnet/actions";
import { devAccount } from "../../devnet/clients";
import { findFreePort } from "../../devnet/anvil";
import { startPonder, type PonderProcess } from "../../scripts/ponderProcess";
import { waitReady } from "../../scripts/serviceReadiness";
import { openStore, loadStoreConfig } from "../../store/index";
import { createApiKey } from "../../store/keys";
import { buildHistory } from "../../bench/history";
import {
  e2eDatabase,
  emptyServiceDatabases,
  startStack,
  until,
  type ServiceDatabases,
  type Stack,
} from "../helpers/harness";
import { postgresAvailable } from "../helpers/postgres";
import { scaledMs } from "../helpers/deadlines";
import { launchTokenPair } from "../helpers/launches";

const RESOLUTIONS = ["1m", "5m", "15m", "1h", "4h", "1d"];
/** Both services must present the same URLs for their snapshots to compare. */
const PUBLIC_BASE_URL = "http://launch.test";
let stack: Stack;
const extraDirs: string[] = [];
const cleanDatabases: ServiceDatabases[] = [];
const postgresUp = await postgresAvailable();
const crashDatabase = process.env.FAULTS_CRASH_DATABASE === "pglite" ? "pglite" : "postgres";

/**
 * A second service on the same chain, indexing from scratch into its own database: a database of
 * its own on the test PostgreSQL, or PGlite folders; `requested` names one, else the e2e default
 * (`e2eDatabase`). Returns the environment so a restart can reuse exactly the same database.
 */
async function startCleanService(
  requested?: "pglite" | "postgres",
): Promise<{ service: PonderProcess; apiKey: string; env: NodeJS.ProcessEnv; schema: string }> {
  const dir = mkdtempSync(join(tmpdir(), "faults-clean-"));
  extraDirs.push(dir);
  const schema = "faults_clean";
  const storeSchema = "launch_store";
  const databases = await emptyServiceDatabases(await e2eDatabase(requested), "faults_clean", dir);
  cleanDatabases.push(databases);
  const env = {
    PUBLIC_BASE_URL,
    DEPLOYMENT_MANIFEST: stack.manifestPath,
    ...databases.env,
    STORE_SCHEMA: storeSchema,
    V1_RATE_LIMIT_PER_MINUTE: "100000",
    PUBLIC_RATE_LIMIT_PER_MINUTE: "100000",
  };
  const store = await openStore(loadStoreConfig(env));
  const { secret } = await createApiKey(store, { wallet: devAccount(0).address, label: "faults", createdVia: "cli" });
  await store.close();
  const service = await startPonder({ port: await findFreePort(), schema, env });
  return { service, apiKey: secret, env, schema };
}

async function getJson(baseUrl: string, path: string, apiKey?: string): Promise<any> {
  const res = await fetch(`${baseUrl}${path}`, { headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {} });
  const body = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Waits until the service has indexed the chain's current head. */
async function caughtUp(baseUrl: string, timeoutMs = 90_000): Promise<void> {
  const head = Number(await stack.publicClient.getBlockNumber({ cacheTime: 0 }));
  await until(
    `indexer at block ${head}`,
    async () => {
      const status = await fetch(`${baseUrl}/status`)
        .then((r) => (r.ok ? r.json() : null))
        .catch(() => null);
      const indexed = (status as Record<string, { block?: { number: number } }> | null)?.evmchain?.block?.number;
      return indexed !== undefined && indexed >= head ? true : undefined;
    },
    timeoutMs,
  );
}

/**
 * Everything the HTTP surfaces say about the chain, in a stable order. `withoutWindows` leaves
 * those activity windows out of each token record: a window is read at request time from the
 * trades and candles the snapshot also holds, against the wall clock, so a window whose edge
 * passes a trade while two services are read (minutes, for 24,000 trades) differs between reads.
 */
async function snapshot(baseUrl: string, apiKey: string, withoutWindows: readonly string[] = []) {
  const { tokens } = await getJson(baseUrl, "/api/public/tokens/new?limit=100");
  const perToken = [];
  for (const t of [...tokens].sort((a: { address: string }, b: { address: string }) =>
    a.address.localeCompare(b.address),
  )) {
    const { token: record } = await getJson(baseUrl, `/api/v1/evmchain/tokens/${t.address}`, apiKey);
    // `creator_funded` is not derived by the index: each process's funding scan reads it from the
    // RPC once the sniper window is confirmed and keeps it in its own store (docs/public.md
    // "Launch integrity"), so a clean service shows it later than the live one.
    const { creator_funded: _funded, ...integrity } = record.integrity;
    const windows =
      record.windows && Object.fromEntries(Object.entries(record.windows).filter(([w]) => !withoutWindows.includes(w)));
    const token = { ...record, integrity, windows };
    const { trades } = await getJson(baseUrl, `/api/v1/evmchain/tokens/${t.address}/trades?limit=200`, apiKey);
    const candles: Record<string, unknown> = {};
    for (const resolution of RESOLUTIONS) {
      candles[resolution] = (
        await getJson(
          baseUrl,
          `/api/v1/evmchain/tokens/${t.address}/candles?resolution=${resolution}&from=0&to=${4_000_000_000}`
            .replace("from=0", `from=${Math.max(0, Number(token.launch_timestamp_sec) - 86_400)}`)
            .replace("to=4000000000", `to=${Number(token.launch_timestamp_sec) + 86_400 * 2}`),
          apiKey,
        ).catch(async () =>
          getJson(baseUrl, `/api/v1/evmchain/tokens/${t.address}/candles?resolution=${resolution}`, apiKey),
        )
      ).candles;
    }
    // Holders come from `HolderBalances` logs of the token contract: a reorg that drops or replaces
    // a buy must leave the balances, the count and the order a clean index computes.
    const { holder_count, holders } = await getJson(baseUrl, `/api/public/token/${t.address}/holders?limit=200`);
    perToken.push({ token, trades, candles, holder_count, holders });
  }
  const events = [];
  let since = 0;
  for (;;) {
    const page = await getJson(baseUrl, `/api/public/events?since_id=${since}&limit=500&include_pending=1`);
    const batch = [...(page.events ?? []), ...(page.pending ?? [])];
    // Which events are confirmed is each process's own: the bound is the indexer's finalized block
    // (market/confirmedBound.ts), which a live indexer and a clean one reach at different steps.
    events.push(...batch.map(({ confirmed: _confirmed, ...event }: { confirmed: boolean }) => event));
    if (batch.length === 0 || (page.pending ?? []).length > 0 || page.next_since_id === since) break;
    since = page.next_since_id;
  }
  return { perToken, events };
}

/** What {@link snapshot} reads from one service. */
type Snapshot = Awaited<ReturnType<typeof snapshot>>;

async function rpc(method: string, params: unknown[]) {
  return stack.publicClient.request({ method: method as never, params: params as never });
}

/** A SwapRouter buy as a JSON transaction for `anvil_reorg` (anvil signs for its dev accounts). */
function buyTx(from: Address, token: Address, amountWei: bigint, deadline: bigint) {
  const data = encodeFunctionData({
    abi: swapRouterAbi,
    functionName: "exactInputSingle",
    args: [
      {
        tokenIn: stack.manifest.contracts.weth,
        tokenOut: token,
        fee: 10_000,
        recipient: from,
        deadline,
        amountIn: amountWei,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n,
      },
    ],
  });
  return {
    from,
    to: stack.manifest.contracts.swapRouter,
    data,
    value: numberToHex(amountWei),
    gas: numberToHex(500_000),
  };
}

/** A launch as a JSON transaction for `anvil_reorg`. */
function launchTx(from: Address, name: string, symbol: string) {
  const data: Hex = encodeFunctionData({ abi: launchFactoryAbi, functionName: "launch", args: [name, symbol, 0n] });
  return {
    from,
    to: stack.manifest.contracts.launchFactory,
    data,
    value: numberToHex(BigInt(stack.manifest.launchFactory.minimumPoolLiquidityWei)),
    gas: numberToHex(9_000_000),
  };
}

beforeAll(async () => {
  stack = await startStack({ schema: "e2e_faults", env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000", PUBLIC_BASE_URL } });
});

afterAll(async () => {
  await stack?.stop();
  for (const dir of extraDirs) rmSync(dir, { recursive: true, force: true });
  for (const databases of cleanDatabases) await databases.drop();
});

/**
 * Asserts that the clean index at `cleanUrl` serves what `readLive` serves. Activity windows count
 * trades younger than 5 min, 1 h, … of the wall clock, so two reads are comparable only between two
 * window edges: the clean index must equal the live one read just before it or just after it (an
 * edge cannot pass both gaps). That holds while edges are sparse; when many trades' edges can pass
 * during the reads (thousands of trades a few minutes old), leave that window out.
 * @param withoutWindows - activity windows left out of all three reads ({@link snapshot})
 * @returns the live snapshot read before the clean one, and the clean one
 */
async function expectEqualBetweenWindowEdges(
  readLive: () => Promise<Snapshot>,
  cleanUrl: string,
  cleanApiKey: string,
  withoutWindows: readonly string[] = [],
): Promise<{ live: Snapshot; clean: Snapshot }> {
  const before = await readLive();
  const fresh = await snapshot(cleanUrl, cleanApiKey, withoutWindows);
  const after = await readLive();
  expect(isDeepStrictEqual(before, fresh) ? before : after).toEqual(fresh);
  return { live: before, clean: fresh };
}

/**
 * Starts a clean service (`startCleanService`) that indexes the final chain from scratch, runs
 * `check` on the live service's snapshot, and requires the live snapshot to equal the clean one;
 * the clean service is stopped either way.
 */
async function expectSameAsCleanIndex(check: (live: Snapshot) => void | Promise<void>): Promise<void> {
  const clean = await startCleanService();
  try {
    await waitReady(clean.service.url);
    await caughtUp(clean.service.url);
    const { live } = await expectEqualBetweenWindowEdges(
      () => snapshot(stack.service.url, stack.apiKey),
      clean.service.url,
      clean.apiKey,
    );
    await check(live);
  } finally {
    await clean.service.stop();
  }
}

describe("fault tolerance", () => {
  it(
    "serves the same state after reorgs of depth 1 to 5 as a clean index of the final chain",
    async () => {
      const { first: a, tokens } = await launchTokenPair(
        stack,
        { name: "Steady", symbol: "STDY" },
        { name: "Shaky", symbol: "SHKY" },
      );

      for (const depth of [1, 2, 3, 4, 5]) {
        // Some blocks the live service indexes, then a reorg drops the last `depth` of them.
        for (let i = 0; i < depth; i++) {
          await buyToken(
            stack.wallet(3 + (i % 3)),
            stack.publicClient,
            stack.manifest,
            tokens[i % 2]!,
            parseEther("0.01") * BigInt(i + 1),
          );
        }
        if (depth === 3)
          await launchToken(stack.wallet(6), stack.publicClient, stack.manifest, { name: "Dropped", symbol: "DROP" });
        await caughtUp(stack.service.url);
        const head = await stack.publicClient.getBlock({ blockTag: "latest" });
        const deadline = head.timestamp + 3_600n;
        const replacements: Array<[unknown, number]> = [
          [buyTx(devAccount(7).address, tokens[0]!, parseEther("0.02") * BigInt(depth), deadline), 0],
          [buyTx(devAccount(8).address, tokens[1]!, parseEther("0.03"), deadline), Math.max(0, depth - 1)],
        ];
        if (depth === 4) replacements.push([launchTx(devAccount(9).address, "Replacement", "RPLC"), depth - 1]);
        await rpc("anvil_reorg", [depth, replacements]);
        await rpc("anvil_mine", ["0x1"]);
        await caughtUp(stack.service.url);
      }
      // A sell after the storm, so the final chain also has fresh live activity.
      await sellToken(
        stack.wallet(1),
        stack.publicClient,
        stack.manifest,
        a.event.token,
        a.event.firstBuyTokensOut / 3n,
      );
      await caughtUp(stack.service.url);

      await expectSameAsCleanIndex((live) => {
        expect(live.perToken.map((t) => t.token.symbol).sort()).toEqual(["RPLC", "SHKY", "STDY"]);
        expect(live.events.length).toBeGreaterThan(10);
        // The replacement buys' wallets hold tokens; the holder lists are compared in full after.
        const steady = live.perToken.find((t) => t.token.symbol === "STDY")!;
        expect(steady.holders.map((h: { address: string }) => h.address)).toContain(devAccount(7).address);
        expect(steady.holder_count).toBe(steady.holders.length);
      });
    },
    scaledMs(300_000),
  );

  // "A series of reorgs of depth 1-5 while blocks keep coming: no stall".
  // Found with it (2 of 3 runs here): when a reorg lands while Ponder's realtime sync fetches
  // the newest block, its `eth_getLogs({blockHash})` for the orphaned block answers "unknown
  // block" (-32000), which Ponder's RPC layer retries 9 times with exponential backoff (125 ms
  // doubling, ~64 s in all) before the sync gives that block up and polls the new head: indexing
  // stands still for about a minute (docs/operations.md "Reorgs while blocks keep coming").
  // Blocks come every second (interval mining) and a trader buys and sells without pause while
  // each reorg lands; after each one the live service must index the new head within
  // REORG_CATCH_UP_MS (no stall), and at the end serve exactly what a from-scratch index serves.
  it(
    "keeps up with reorgs of depth 1 to 5 while blocks keep coming and trades keep happening, and then serves what a clean index serves",
    async () => {
      const catchUpMs = Number(process.env.REORG_CATCH_UP_MS ?? 30_000);
      const {
        first: x,
        second: y,
        tokens,
      } = await launchTokenPair(stack, { name: "Stream X", symbol: "STRX" }, { name: "Stream Y", symbol: "STRY" });
      await caughtUp(stack.service.url);

      await rpc("evm_setIntervalMining", [1]);
      const stopTrading = new AbortController();
      const trades = { sent: 0, failed: 0 };
      // The trader: one buy after another from three wallets, each bounded (a transaction a reorg
      // dropped never gets a receipt), until told to stop.
      const trader = (async () => {
        for (let i = 0; !stopTrading.signal.aborted; i++) {
          const signal = AbortSignal.any([stopTrading.signal, AbortSignal.timeout(8_000)]);
          try {
            await buyToken(
              stack.wallet(3 + (i % 3)),
              stack.publicClient,
              stack.manifest,
              tokens[i % 2]!,
              parseEther("0.001") * BigInt(1 + (i % 4)),
              0n,
              { signal },
            );
            trades.sent++;
          } catch {
            trades.failed++;
          }
        }
      })();
      const catchUps: Array<{ depth: number; ms: number }> = [];
      try {
        for (const depth of [1, 2, 3, 4, 5]) {
          // Let a few blocks with trades come, then reorg the newest `depth` of them away.
          const before = await stack.publicClient.getBlockNumber({ cacheTime: 0 });
          const tradesBefore = trades.sent;
          await until(
            "three more blocks and two more trades",
            async () =>
              (await stack.publicClient.getBlockNumber({ cacheTime: 0 })) >= before + 3n &&
              trades.sent >= tradesBefore + 2
                ? true
                : undefined,
            90_000,
          );
          const head = await stack.publicClient.getBlock({ blockTag: "latest" });
          await rpc("anvil_reorg", [
            depth,
            [
              [
                buyTx(
                  devAccount(7).address,
                  tokens[depth % 2]!,
                  parseEther("0.002") * BigInt(depth),
                  head.timestamp + 3_600n,
                ),
                Math.max(0, depth - 1),
              ],
            ],
          ]);
          const reorgedAt = Date.now();
          await caughtUp(stack.service.url, catchUpMs).catch((err: Error) => {
            throw new Error(
              `stalled after the depth-${depth} reorg: ${err.message}; the service's last output:\n${stack.service.output().slice(-4000)}`,
            );
          });
          catchUps.push({ depth, ms: Date.now() - reorgedAt });
        }
      } finally {
        stopTrading.abort();
        await trader;
        // Interval 0 leaves anvil mining nothing at all: switch automine back on for the next tests.
        await rpc("evm_setIntervalMining", [0]);
        await rpc("evm_setAutomine", [true]);
      }
      await rpc("anvil_mine", ["0x1"]);
      await caughtUp(stack.service.url);
      console.log(JSON.stringify({ reorg_catch_up_ms: catchUps, trades }));
      expect(trades.sent).toBeGreaterThanOrEqual(10);
      // Health and readiness recover on the live service.
      await until(
        "live service ready",
        async () => ((await stack.request("/api/v1/ready")).status === 200 ? true : undefined),
        catchUpMs,
      );
      const health = await stack.request("/api/v1/health");
      expect({ status: health.status, body: health.body.status }).toEqual({ status: 200, body: "ok" });

      await expectSameAsCleanIndex(async (live) => {
        expect(live.perToken.map((t) => t.token.symbol)).toEqual(expect.arrayContaining(["STRX", "STRY"]));
        const streamed = live.perToken.filter((t) => ["STRX", "STRY"].includes(t.token.symbol));
        // Reorgs drop some of the sent trades: the served trades are exactly the Swap logs the final
        // chain holds in the two pools (the first buy included), and the series made several.
        const swapLogs = await stack.publicClient.getLogs({
          address: [x.event.pool, y.event.pool],
          event: uniswapV3PoolAbi.find((e) => e.type === "event" && e.name === "Swap")!,
          fromBlock: 0n,
          toBlock: "latest",
        });
        expect(streamed.reduce((n, t) => n + (t.trades as unknown[]).length, 0)).toBe(swapLogs.length);
        expect(swapLogs.length).toBeGreaterThanOrEqual(5);
      });
    },
    scaledMs(420_000),
  );

  // PostgreSQL (production): Ponder commits each batch of indexed events together with its
  // checkpoint, and a restart resumes from the last committed checkpoint. The history is large
  // enough for several batches, so the kill lands between commits.
  // PGlite is a known failure, kept runnable: `FAULTS_CRASH_DATABASE=pglite npx vitest run
  // test/e2e/faults.test.ts -t SIGKILL`. The restart re-runs the backfill from the start while rows
  // of the killed run are still there, and stops on a primary-key conflict in `token`. PGlite itself
  // keeps committed transactions and drops uncommitted ones across a SIGKILL (checked with a
  // bare PGlite writer), so the cause is in how Ponder drives PGlite; not found yet.
  it.skipIf(!postgresUp)(
    `loses and duplicates nothing when killed with SIGKILL mid-backfill and restarted (${crashDatabase})`,
    async () => {
      // 24,000 swaps: two of Ponder's event batches (12,000 events each), so there is a commit to
      // resume from and a batch in flight to lose.
      await buildHistory(stack.manifest, { launches: 3, swaps: 24_000, swapsPerTransaction: 300 });
      await rpc("anvil_mine", [numberToHex(100)]);
      // The reference: a service that indexes the final chain from scratch without interruption (on
      // PostgreSQL, its own database). The live service is done with (the reorg test above) and would
      // spend minutes indexing 24,000 swaps block by block beside it: it stops here.
      await stack.service.stop();
      const reference = await startCleanService("postgres");
      await waitReady(reference.service.url, scaledMs(240_000));
      await caughtUp(reference.service.url, scaledMs(240_000));

      const first = await startCleanService(crashDatabase);
      // Kill it hard once it has indexed some but not all of the history.
      const totalTrades = (await getJson(reference.service.url, "/api/public/tokens/new?limit=100")).tokens.reduce(
        (n: number, t: { trade_count: number }) => n + t.trade_count,
        0,
      );
      const indexedAtKill = await until(
        "backfill under way",
        async () => {
          const body = await getJson(first.service.url, "/api/public/tokens/new?limit=100").catch(() => null);
          const indexed = body?.tokens?.reduce((n: number, t: { trade_count: number }) => n + t.trade_count, 0) ?? 0;
          return indexed > 0 ? indexed : undefined;
        },
        90_000,
      );
      first.service.child.kill("SIGKILL");
      await new Promise((r) => first.service.child.once("exit", r));
      expect(indexedAtKill).toBeLessThan(totalTrades);

      // Restart on the same database: Ponder resumes from its last checkpoint.
      const restarted = await startPonder({ port: await findFreePort(), schema: first.schema, env: first.env });
      try {
        await waitReady(restarted.url, scaledMs(240_000)).catch((err: Error) => {
          throw new Error(`${err.message}\nrestarted service output:\n${restarted.output().slice(0, 6000)}`);
        });
        await caughtUp(restarted.url);
        // It resumed from the killed run's last commit, not from an empty schema.
        expect(restarted.output()).toContain("Detected crash recovery");
        console.log(
          JSON.stringify({ crash: crashDatabase, trades_visible_at_kill: indexedAtKill, trades_total: totalTrades }),
        );
        // The history's trades are ~5 minutes old by now: the m5 window's edge passes them while
        // the two services are read (once in CI). h1, h6 and h24 hold them all for the whole test.
        const { clean } = await expectEqualBetweenWindowEdges(
          () => snapshot(restarted.url, first.apiKey, ["m5"]),
          reference.service.url,
          reference.apiKey,
          ["m5"],
        );
        const tradeCount = clean.perToken.reduce((n, t) => n + t.token.trade_count, 0);
        expect(tradeCount).toBeGreaterThanOrEqual(24_000);
      } finally {
        await restarted.stop();
        await reference.service.stop();
      }
    },
    720_000,
  );
});
