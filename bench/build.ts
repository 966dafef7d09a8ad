/**
 * Build benchmark: latency of the v1 launch build and confirm endpoints on the devnet, and the
 * number of JSON-RPC requests the API makes per build and per confirm.
 *
 * Set-up: anvil (automine) with the full stack, the real service (`ponder start`, PGlite), and the
 * counting RPC proxy (`test/helpers/rpcProxy.ts`, mode `pass`) between the API and anvil (`RPC_URL`); the
 * indexer polls anvil directly (`INDEXER_RPC_URLS`), so the proxy sees the API's requests only.
 * For each launch, acting as the creator's wallet: intent -> personal_sign -> **build** (timed,
 * proxy counts before/after) -> floor -> send the built transaction unchanged -> wait for its
 * receipt -> receipt floor -> **confirm** (timed, counted). Launches alternate between a first buy
 * (0.01 ETH) and none, from dev accounts 1..9.
 *
 * Floors, measured in the same run right next to each call, directly against anvil with viem:
 * - build: one `simulateContract` of the same launch (same creator, name, symbol, value and
 *   `amountOutMinimum`) — the one `eth_call` no builder can avoid;
 * - confirm: one `getTransactionReceipt` of the launch transaction — the one read no verifier can
 *   avoid.
 * Ratios are service / floor at p50 and p99. For the split, the builder and the verifier are also
 * timed in the benchmark's own process on a direct anvil client (no HTTP, auth or store), and an
 * authenticated status read of the same launch (`GET …/launches/status`) and the same build request
 * repeated (answered from the store) give the API's own cost of a v1 call without chain work.
 * Every launch's RPC requests are checked against the budget (`test/helpers/rpcBudget.ts`).
 *
 * The service indexes each launch while the next one is built (one process, as in production).
 * With `--wait-indexed` the benchmark waits until each launch is indexed before the next, which
 * shows the API's own share.
 *
 * Usage: `npm run bench -- build [--launches 200] [--warmup 2] [--wait-indexed]`.
 * Result: `bench/results/latest/build[-indexed].json` (latencies in milliseconds, RPC requests per call by
 * method; the warm-up launches' build times are listed apart and left out of the figures).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  parseEther,
  type Address,
  type Hash,
  type Hex,
} from "viem";
import { launchFactoryAbi } from "../abis/LaunchFactory";
import { deploymentSchema } from "../config/deployment";
import { findFreePort, startAnvil } from "../devnet/anvil";
import { devAccount } from "../devnet/clients";
import { deployStack } from "../devnet/deploy";
import { writeManifest } from "../devnet/manifest";
import { buildLaunchTransaction } from "../chain/build";
import { verifyLaunch } from "../chain/verify";
import { startPonder } from "../scripts/ponderProcess";
import { waitIndexed, waitReady } from "../scripts/serviceReadiness";
import { loadStoreConfig, openStore } from "../store/index";
import { createApiKey } from "../store/keys";
import { addCounts, overBudget, RPC_BUDGET, type RpcCounts } from "../test/helpers/rpcBudget";
import { diffCounts, startRpcProxy } from "../test/helpers/rpcProxy";
import { mean, percentile } from "./stats";
import { machineRecord, parseBenchFlags, writeBenchResult } from "./harness";

const values = parseBenchFlags("build", {
  launches: { type: "string", default: "200" },
  warmup: { type: "string", default: "2" },
  "wait-indexed": { type: "boolean", default: false },
});
const launches = Number(values.launches);
const warmup = Number(values.warmup);
/** Wait for the indexer to index each launch before the next one (the API alone, no indexing beside it). */
const waitForIndexer = values["wait-indexed"] === true;
if (!Number.isInteger(launches) || launches < 2) throw new RangeError("--launches must be an integer >= 2");
if (!Number.isInteger(warmup) || warmup < 0) throw new RangeError("--warmup must be an integer >= 0");
/** Daily quota per wallet (all its keys) is 500 created and 500 finalized coins: a fresh key of a fresh wallet every 400 launches. */
const LAUNCHES_PER_KEY = 400;
const FIRST_BUY_WEI = parseEther("0.01");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Variant = "firstBuy" | "noFirstBuy";
type Sample = {
  variant: Variant;
  buildMs: number;
  buildFloorMs: number;
  builderInProcessMs: number;
  statusMs: number;
  buildReplayMs: number;
  confirmMs: number;
  confirmFloorMs: number;
  verifierInProcessMs: number;
  buildRpc: RpcCounts;
  confirmRpc: RpcCounts;
};

const loadAtStart = loadavg();
const anvil = await startAnvil({ port: 0 });
const dataDir = mkdtempSync(join(tmpdir(), "bench-build-"));
try {
  const manifest = await deployStack({ rpcUrl: anvil.rpcUrl });
  const manifestPath = join(dataDir, "manifest.json");
  writeManifest(manifestPath, manifest);
  const proxy = await startRpcProxy({ target: anvil.rpcUrl });

  const storeEnv = { STORE_PGLITE_DIR: join(dataDir, "store"), STORE_SCHEMA: "launch_store", DATABASE_URL: "" };
  const store = await openStore(loadStoreConfig(storeEnv));
  const apiKeys: string[] = [];
  for (let i = 0; i < Math.ceil((launches + warmup) / LAUNCHES_PER_KEY); i++) {
    // One wallet per key: the daily coin quotas count per wallet (over all its keys), and a
    // wallet holds at most 10 active keys; the creators of the launches are independent of it.
    const keyWallet = getAddress(`0x${(0xbe0c0000 + i).toString(16).padStart(40, "0")}`);
    apiKeys.push(
      (await createApiKey(store, { wallet: keyWallet, label: `bench build ${i}`, createdVia: "cli" })).secret,
    );
  }
  await store.close();

  const service = await startPonder({
    port: await findFreePort(),
    schema: "bench_build",
    env: {
      ...storeEnv,
      DEPLOYMENT_MANIFEST: manifestPath,
      PONDER_PGLITE_DIR: join(dataDir, "pglite"),
      // The API's RPC goes through the counting proxy; the indexer polls anvil directly.
      RPC_URL: proxy.url,
      INDEXER_RPC_URLS: anvil.rpcUrl,
      V1_RATE_LIMIT_PER_MINUTE: "1000000",
    },
  });
  await waitReady(service.url);

  const direct = createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 10 });
  const deployment = deploymentSchema.parse(manifest);
  const post = async (apiKey: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${service.url}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${apiKey}`, ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  /** Runs `fn`, returning its result, its wall time (ms) and the API's RPC requests meanwhile. */
  const measured = async <T>(fn: () => Promise<T>) => {
    const before = proxy.counts().pass;
    const started = performance.now();
    const result = await fn();
    const ms = performance.now() - started;
    return { result, ms, rpc: diffCounts(before, proxy.counts().pass) };
  };

  // Background check: with no API traffic the API should send nothing to the RPC.
  const idleBefore = proxy.counts().pass;
  await sleep(2000);
  const idleRpc = diffCounts(idleBefore, proxy.counts().pass);

  const samples: Sample[] = [];
  const budgetViolations: string[] = [];
  let firstBuildRpc: RpcCounts = {};
  const warmupBuildMs: number[] = [];
  const total = warmup + launches;
  console.log(`${total} launches (${warmup} warm-up), alternating first buy / none`);
  for (let i = 0; i < total; i++) {
    const variant: Variant = i % 2 === 0 ? "firstBuy" : "noFirstBuy";
    const wallet = createWalletClient({ account: devAccount(1 + (i % 9)), transport: http(anvil.rpcUrl) });
    const creator = wallet.account.address;
    const apiKey = apiKeys[Math.floor(i / LAUNCHES_PER_KEY)]!;
    const name = `Bench ${i}`;
    const symbol = `BB${i}`;
    const firstBuyWei = variant === "firstBuy" ? FIRST_BUY_WEI : 0n;

    const intent = await post(
      apiKey,
      "/api/v1/evmchain/launches/intent",
      { creator, name, symbol, first_buy_wei: firstBuyWei.toString() },
      { "Idempotency-Key": `bench-build-${i}` },
    );
    if (intent.status !== 201) throw new Error(`intent ${i}: ${intent.status} ${JSON.stringify(intent.body)}`);
    const signature = await wallet.signMessage({ message: (intent.body.intent as { message: string }).message });

    const build = await measured(() =>
      post(apiKey, "/api/v1/evmchain/launches/build", {
        launch_id: intent.body.launch_id,
        intent_signature: signature,
      }),
    );
    if (build.result.status !== 200)
      throw new Error(`build ${i}: ${build.result.status} ${JSON.stringify(build.result.body)}`);
    const tx = build.result.body.transaction as { to: Address; value: Hex; data: Hex; gas: Hex };

    // Floor: the same launch simulated once, straight against anvil.
    const floorStarted = performance.now();
    await direct.simulateContract({
      account: creator,
      address: manifest.contracts.launchFactory,
      abi: launchFactoryAbi,
      functionName: "launch",
      args: [name, symbol, BigInt(build.result.body.amount_out_minimum as string)],
      value: BigInt(tx.value),
    });
    const buildFloorMs = performance.now() - floorStarted;
    // The same build again: answered from the store (signature checked again, no chain work).
    const replay = await measured(() =>
      post(apiKey, "/api/v1/evmchain/launches/build", {
        launch_id: intent.body.launch_id,
        intent_signature: signature,
      }),
    );
    if (replay.result.status !== 200) throw new Error(`replayed build ${i}: ${replay.result.status}`);
    budgetViolations.push(...overBudget(replay.rpc, RPC_BUDGET.replay).map((v) => `launch ${i} replayed build: ${v}`));
    // An authenticated store read through the same v1 middleware (key, rate limit): the API's own floor.
    const statusStarted = performance.now();
    const status = await fetch(`${service.url}/api/v1/evmchain/launches/status?launch_id=${intent.body.launch_id}`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    await status.json();
    const statusMs = performance.now() - statusStarted;
    if (status.status !== 200) throw new Error(`status ${i}: ${status.status}`);
    // The builder alone, in this process, straight against anvil: what the endpoint adds on top is
    // HTTP, authentication, the signature check and the store.
    const builderStarted = performance.now();
    await buildLaunchTransaction(direct, deployment, { creator, name, symbol, firstBuyWei });
    const builderInProcessMs = performance.now() - builderStarted;

    const hash: Hash = await wallet.sendTransaction({
      chain: null,
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
      gas: BigInt(tx.gas),
    });
    const receipt = await direct.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    const receiptStarted = performance.now();
    await direct.getTransactionReceipt({ hash });
    const confirmFloorMs = performance.now() - receiptStarted;
    const verifierStarted = performance.now();
    const verified = await verifyLaunch(direct, deployment, {
      txHash: hash,
      creator,
      name,
      symbol,
      firstBuyWei,
      firstBuyAmountOutMinimum: BigInt(build.result.body.amount_out_minimum as string),
    });
    const verifierInProcessMs = performance.now() - verifierStarted;
    if (verified.status !== "verified") throw new Error(`verifier ${i}: ${JSON.stringify(verified)}`);

    const confirm = await measured(() =>
      post(apiKey, "/api/v1/evmchain/launches/confirm", { launch_id: intent.body.launch_id, tx_hash: hash }),
    );
    if (confirm.result.status !== 200)
      throw new Error(`confirm ${i}: ${confirm.result.status} ${JSON.stringify(confirm.result.body)}`);

    // The first build of the process also reads the factory's immutable minimum (the budget's allowance).
    const buildBudget = i === 0 ? addCounts(RPC_BUDGET.build, RPC_BUDGET.firstBuildExtra) : RPC_BUDGET.build;
    budgetViolations.push(...overBudget(build.rpc, buildBudget).map((v) => `launch ${i} build: ${v}`));
    budgetViolations.push(...overBudget(confirm.rpc, RPC_BUDGET.confirm).map((v) => `launch ${i} confirm: ${v}`));
    if (i === 0) firstBuildRpc = build.rpc;
    if (i < warmup) warmupBuildMs.push(build.ms);
    if (waitForIndexer) await waitIndexed(service.url, receipt.blockNumber);
    if (i >= warmup) {
      samples.push({
        variant,
        buildMs: build.ms,
        buildFloorMs,
        builderInProcessMs,
        statusMs,
        buildReplayMs: replay.ms,
        confirmMs: confirm.ms,
        confirmFloorMs,
        verifierInProcessMs,
        buildRpc: build.rpc,
        confirmRpc: confirm.rpc,
      });
    }
    if ((i + 1) % 50 === 0) console.log(`${i + 1}/${total}`);
  }
  await service.stop();
  await proxy.stop();

  const dist = (xs: number[]) => ({
    p50: percentile(xs, 0.5),
    p99: percentile(xs, 0.99),
    mean: mean(xs),
    max: xs.length ? Math.max(...xs) : null,
    samples: xs.length,
  });
  const ratio = (a: number | null, b: number | null) => (a !== null && b ? a / b : null);
  const pick = (variant?: Variant) => samples.filter((s) => !variant || s.variant === variant);
  /** RPC requests per call: the distinct per-method maps seen (one when every call made the same requests). */
  const rpcFigures = (maps: RpcCounts[]) => {
    const totals = maps.map((m) => Object.values(m).reduce((a, b) => a + b, 0));
    const distinct = [...new Set(maps.map((m) => JSON.stringify(Object.fromEntries(Object.entries(m).sort()))))].map(
      (s) => JSON.parse(s) as RpcCounts,
    );
    return {
      byMethod: distinct.length === 1 ? distinct[0] : distinct,
      totalMin: Math.min(...totals),
      totalMax: Math.max(...totals),
      totalMean: mean(totals),
    };
  };

  const build = {
    all: dist(pick().map((s) => s.buildMs)),
    firstBuy: dist(pick("firstBuy").map((s) => s.buildMs)),
    noFirstBuy: dist(pick("noFirstBuy").map((s) => s.buildMs)),
  };
  const buildFloor = dist(pick().map((s) => s.buildFloorMs));
  const builderInProcess = dist(pick().map((s) => s.builderInProcessMs));
  const statusRead = dist(pick().map((s) => s.statusMs));
  const buildReplay = dist(pick().map((s) => s.buildReplayMs));
  const verifierInProcess = dist(pick().map((s) => s.verifierInProcessMs));
  const confirm = {
    all: dist(pick().map((s) => s.confirmMs)),
    firstBuy: dist(pick("firstBuy").map((s) => s.confirmMs)),
    noFirstBuy: dist(pick("noFirstBuy").map((s) => s.confirmMs)),
  };
  const confirmFloor = dist(pick().map((s) => s.confirmFloorMs));
  const rpc = {
    build: {
      firstBuy: rpcFigures(pick("firstBuy").map((s) => s.buildRpc)),
      noFirstBuy: rpcFigures(pick("noFirstBuy").map((s) => s.buildRpc)),
    },
    confirm: {
      firstBuy: rpcFigures(pick("firstBuy").map((s) => s.confirmRpc)),
      noFirstBuy: rpcFigures(pick("noFirstBuy").map((s) => s.confirmRpc)),
    },
    firstBuildOfProcess: firstBuildRpc,
    idleTwoSeconds: idleRpc,
    budget: RPC_BUDGET,
    budgetViolations,
  };

  const result = {
    benchmark: "build",
    measuredAt: new Date().toISOString(),
    machine: machineRecord(loadAtStart),
    database: "pglite",
    launches,
    warmupLaunches: warmup,
    waitIndexed: waitForIndexer,
    firstBuyWei: FIRST_BUY_WEI.toString(),
    figures: {
      buildMs: build,
      warmupBuildMs,
      buildFloorMs: buildFloor,
      builderInProcessMs: builderInProcess,
      statusReadMs: statusRead,
      buildReplayMs: buildReplay,
      confirmMs: confirm,
      confirmFloorMs: confirmFloor,
      verifierInProcessMs: verifierInProcess,
      rpcRequestsPerCall: rpc,
    },
    ratios: {
      build: { p50: ratio(build.all.p50, buildFloor.p50), p99: ratio(build.all.p99, buildFloor.p99) },
      buildFirstBuy: { p50: ratio(build.firstBuy.p50, buildFloor.p50), p99: ratio(build.firstBuy.p99, buildFloor.p99) },
      buildNoFirstBuy: {
        p50: ratio(build.noFirstBuy.p50, buildFloor.p50),
        p99: ratio(build.noFirstBuy.p99, buildFloor.p99),
      },
      confirm: { p50: ratio(confirm.all.p50, confirmFloor.p50), p99: ratio(confirm.all.p99, confirmFloor.p99) },
      builderInProcess: {
        p50: ratio(builderInProcess.p50, buildFloor.p50),
        p99: ratio(builderInProcess.p99, buildFloor.p99),
      },
      verifierInProcess: {
        p50: ratio(verifierInProcess.p50, confirmFloor.p50),
        p99: ratio(verifierInProcess.p99, confirmFloor.p99),
      },
    },
    floors: {
      build: "one viem simulateContract (eth_call) of the same launch, directly against anvil",
      confirm: "one viem getTransactionReceipt of the launch transaction, directly against anvil",
      statusRead:
        "statusReadMs: GET /api/v1/evmchain/launches/status of the launch just built (API key, rate limit, one store read): what any v1 call costs before chain work",
      buildReplay:
        "buildReplayMs: the same build request again, answered from the store (API key, rate limit, store read, signature recovery; no RPC)",
      inProcess:
        "builderInProcessMs / verifierInProcessMs: chain/build.ts and chain/verify.ts called in the benchmark's process on a direct anvil client (no HTTP, auth or store)",
    },
    target:
      "no latency target set in the issue (figures reported as ratios to the floors); RPC requests per build and per confirm within the budget of docs/launch.md (test/helpers/rpcBudget.ts)",
    met: { rpcWithinBudget: budgetViolations.length === 0, noIdleRpc: Object.keys(idleRpc).length === 0 },
  };
  writeBenchResult(`build${waitForIndexer ? "-indexed" : ""}`, result);
} finally {
  await anvil.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
