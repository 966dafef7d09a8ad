/**
 * Swap builds through the real HTTP app (`createApp`, `app.request()`; docs/trade.md): a real
 * store (PGlite in a temporary folder), a real anvil with the stack deployed and a token launched
 * through the real factory, and Ponder's tables (pushed from `ponder.schema.ts`) holding that
 * token's row as the indexer writes it. A dev account signs and sends exactly what was built; the
 * balances must change as quoted, within the slippage. No mocks.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import {
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  erc20Abi,
  http,
  parseEther,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { swapRouterAbi } from "../../abis/SwapRouter";
import { appFixture, type TestApp } from "../helpers/appFixture";
import type { MarketDb } from "../../market/db";
import { deploymentSchema, type Deployment } from "../../config/deployment";
import { encodePositionIds } from "../../src/domain/positions";
import { launchToken } from "../../devnet/actions";
import type { AnvilInstance } from "../../devnet/anvil";
import { startDeployedDevnet } from "../helpers/chainDevnet";
import { devAccount } from "../../devnet/clients";
import type { DeploymentManifest } from "../../devnet/manifest";
import * as ponderSchema from "../../ponder.schema";
import { openStore, type Store } from "../../store/index";
import { createApiKey } from "../../store/keys";
import { apiKeys } from "../../store/schema";
import { answer, sessionPost, signedInSession, type BrowserSession } from "../helpers/session";

const { pushSchema } = createRequire(import.meta.url)("drizzle-kit/api") as typeof import("drizzle-kit/api");

const BASE = "http://localhost:42069";
const TRADER = devAccount(7);
const OTHER = devAccount(8);

let anvil: AnvilInstance;
let manifest: DeploymentManifest;
let deployment: Deployment;
let publicClient: PublicClient;
let marketClient: PGlite;
let store: Store;
let dir: string;
let app: TestApp;
let token: Address;
let session: BrowserSession;
let apiKey: string;

const fetcher = async (path: string, init?: RequestInit) => app.request(`${BASE}${path}`, init);

beforeAll(async () => {
  const devnet = await startDeployedDevnet();
  anvil = devnet.anvil;
  manifest = devnet.manifest;
  deployment = deploymentSchema.parse(manifest);
  publicClient = createPublicClient({ transport: http(anvil.rpcUrl) });
  const launched = await launchToken(
    createWalletClient({ account: devAccount(2), transport: http(anvil.rpcUrl) }),
    publicClient,
    manifest,
    { name: "Trade Coin", symbol: "TRADE", firstBuyWei: parseEther("0.05") },
  );
  token = launched.event.token;
  marketClient = new PGlite();
  const marketDb = drizzle(marketClient);
  await (await pushSchema(ponderSchema as unknown as Record<string, unknown>, marketDb as never)).apply();
  await marketDb.insert(ponderSchema.token).values(tokenRow(launched.event, launched.receipt.blockNumber));
  dir = mkdtempSync(join(tmpdir(), "trade-routes-"));
  store = await openStore({ kind: "pglite", dir, schema: "trade_store" });
  app = appFixture(
    { db: marketDb as unknown as MarketDb, publicBaseUrl: BASE, store, deployment, publicClient },
    { limits: { swapBuildsPerMinute: 1_000 } },
  );
  session = await signedInSession(fetcher, BASE, TRADER);
  apiKey = (await createApiKey(store, { wallet: OTHER.address, createdVia: "cli" })).secret;
});

afterAll(async () => {
  await store?.close();
  await marketClient?.close();
  await anvil?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The token's row as the indexer writes it from the launch (market figures zero: not read here). */
function tokenRow(event: Awaited<ReturnType<typeof launchToken>>["event"], block: bigint) {
  const zero = 0n;
  return {
    address: event.token.toLowerCase() as Hex,
    launchSeq: 1,
    slug: "trade",
    factory: deployment.contracts.launchFactory.toLowerCase() as Hex,
    creator: event.creator.toLowerCase() as Hex,
    name: event.name,
    symbol: event.symbol,
    decimals: 18,
    totalSupply: event.totalSupply,
    pool: event.pool.toLowerCase() as Hex,
    weth: deployment.contracts.weth.toLowerCase() as Hex,
    tokenIsToken0: event.token.toLowerCase() < deployment.contracts.weth.toLowerCase(),
    positionIdsCsv: encodePositionIds(event.positionIds),
    liquidityWei: event.liquidityWei,
    firstBuyWei: event.firstBuyWei,
    firstBuyTokensOut: event.firstBuyTokensOut,
    launchTxHash: `0x${"0".repeat(64)}` as Hex,
    launchBlockNumber: block,
    launchLogIndex: 0,
    launchTimestampSec: zero,
    launchPriceWei: zero,
    launchTxIndex: 0,
    launchMintLogIndex: 0,
    launchMintToken: zero,
    launchMintWei: zero,
    launchReserveToken: zero,
    launchReserveWei: zero,
    reserveWei: zero,
    reserveToken: zero,
    sqrtPriceX96: zero,
    tick: 0,
    priceWei: zero,
    marketCapWei: zero,
    volumeWei: zero,
    volumeToken: zero,
    tradeCount: 0,
    buyCount: 0,
    sellCount: 0,
    creatorFeesWei: zero,
    creatorFeesToken: zero,
    protocolFeesWei: zero,
    protocolFeesToken: zero,
    volumeUsdE18: zero,
    holderCount: 0,
  };
}

const buildSession = (body: Record<string, unknown>, s: BrowserSession = session) =>
  sessionPost(fetcher, BASE, s, "build-swap", body);

async function buildV1(body: Record<string, unknown>, key = apiKey) {
  return answer(
    await fetcher("/api/v1/evmchain/swaps/build", {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

type BuiltTx = { from: Address; to: Address; data: Hex; value: Hex; gas: Hex; chainId: Hex };

/** Sends a built transaction unchanged from its `from` dev account; returns the fee paid (wei). */
async function send(account: typeof TRADER, tx: BuiltTx): Promise<bigint> {
  expect(tx.from).toBe(account.address);
  const wallet = createWalletClient({ account, transport: http(anvil.rpcUrl) });
  const hash = await wallet.sendTransaction({
    chain: null,
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
    gas: BigInt(tx.gas),
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt.gasUsed * receipt.effectiveGasPrice;
}

const tokenBalance = (owner: Address) =>
  publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
const ethBalance = (owner: Address) => publicClient.getBalance({ address: owner });

describe("swap builds that a wallet sends", () => {
  it("buys on the session surface: the wallet gets the quoted tokens, at least the minimum, for exactly the ETH paid", async () => {
    const amount = parseEther("0.1");
    const res = await buildSession({ wallet: TRADER.address, token, side: "buy", amount_in_wei: amount.toString() });
    expect(res.status).toBe(200);
    const b = res.json;
    expect(b.transaction.to).toBe(deployment.contracts.swapRouter);
    expect(b.transaction.chainId).toBe("0x1237");
    expect(BigInt(b.transaction.value)).toBe(amount);
    expect(b.approval).toBeNull();
    expect(b.slippage_bps).toBe(100);
    expect(b.pool_fee).toBe(10_000);
    expect([b.token_in, b.token_out]).toEqual([deployment.contracts.weth, token]);
    const expected = BigInt(b.expected_amount_out_wei);
    const minimum = BigInt(b.minimum_amount_out_wei);
    expect(expected).toBeGreaterThan(0n);
    expect(minimum).toBe((expected * 9_900n) / 10_000n);
    // The calldata is the router's multicall: the swap to the wallet, then the ETH refund.
    const call = decodeFunctionData({ abi: swapRouterAbi, data: b.transaction.data });
    expect(call.functionName).toBe("multicall");

    const [tokensBefore, ethBefore] = [await tokenBalance(TRADER.address), await ethBalance(TRADER.address)];
    const fee = await send(TRADER, b.transaction);
    const received = (await tokenBalance(TRADER.address)) - tokensBefore;
    expect(received).toBeGreaterThanOrEqual(minimum);
    expect(received).toBe(expected); // nothing traded between the quote and the swap
    expect(ethBefore - (await ethBalance(TRADER.address))).toBe(amount + fee);
    // No ETH stays behind in the router.
    expect(await ethBalance(deployment.contracts.swapRouter)).toBe(0n);
  });

  it("sells on the session surface: approval first when the allowance is short, then ETH as quoted", async () => {
    const held = await tokenBalance(TRADER.address);
    const amount = held / 2n;
    const res = await buildSession({
      wallet: TRADER.address,
      token,
      side: "sell",
      amount_in_wei: amount.toString(),
      slippage_bps: 50,
    });
    expect(res.status).toBe(200);
    const b = res.json;
    expect(b.allowance_wei).toBe("0");
    expect(b.approval.to).toBe(token);
    expect(b.approval.from).toBe(TRADER.address);
    const approve = decodeFunctionData({ abi: erc20Abi, data: b.approval.data });
    expect(approve).toEqual({ functionName: "approve", args: [deployment.contracts.swapRouter, amount] });
    expect(b.gas_estimated).toBe(false);
    expect(b.transaction.value).toBe("0x0");
    const expected = BigInt(b.expected_amount_out_wei);
    const minimum = BigInt(b.minimum_amount_out_wei);
    expect(minimum).toBe((expected * 9_950n) / 10_000n);

    const ethBefore = await ethBalance(TRADER.address);
    const fees = (await send(TRADER, b.approval)) + (await send(TRADER, b.transaction));
    expect(await tokenBalance(TRADER.address)).toBe(held - amount);
    const receivedWei = (await ethBalance(TRADER.address)) - ethBefore + fees;
    expect(receivedWei).toBeGreaterThanOrEqual(minimum);
    expect(receivedWei).toBe(expected);
  });

  it("sells again without an approval once the allowance covers the amount, with a gas estimate", async () => {
    // Approve a little more than the next sell, from the wallet directly.
    const held = await tokenBalance(TRADER.address);
    const amount = held / 4n;
    const wallet = createWalletClient({ account: TRADER, transport: http(anvil.rpcUrl) });
    await publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        chain: null,
        address: token,
        abi: erc20Abi,
        functionName: "approve",
        args: [deployment.contracts.swapRouter, amount],
      }),
    });
    const res = await buildSession({ wallet: TRADER.address, token, side: "sell", amount_in_wei: amount.toString() });
    expect(res.status).toBe(200);
    expect(res.json.approval).toBeNull();
    expect(res.json.gas_estimated).toBe(true);
    expect(res.json.allowance_wei).toBe(amount.toString());
    const ethBefore = await ethBalance(TRADER.address);
    const fee = await send(TRADER, res.json.transaction);
    expect((await ethBalance(TRADER.address)) - ethBefore + fee).toBe(BigInt(res.json.expected_amount_out_wei));
  });

  it("buys on /api/v1 for the key's wallet", async () => {
    const amount = parseEther("0.02");
    const res = await buildV1({ wallet: OTHER.address, token, side: "buy", amount_in_wei: amount.toString() });
    expect(res.status).toBe(200);
    expect(res.json.transaction.from).toBe(OTHER.address);
    const before = await tokenBalance(OTHER.address);
    await send(OTHER, res.json.transaction);
    expect((await tokenBalance(OTHER.address)) - before).toBe(BigInt(res.json.expected_amount_out_wei));
  });
});

describe("swap builds are described", () => {
  it("in the v1 descriptor and the OpenAPI document, with their catalogue errors and the v1 scope", async () => {
    const descriptor = await answer(await fetcher("/api/v1"));
    expect(descriptor.json.endpoints.swap_build).toBe("POST /api/v1/evmchain/swaps/build");
    expect(descriptor.json.authentication.endpoint_scopes["POST /api/v1/evmchain/swaps/build"]).toBe(
      "evmchain:launch:build",
    );
    const doc = (await answer(await fetcher("/api/openapi.json"))).json;
    for (const path of ["/api/evm/evmchain/build-swap", "/api/v1/evmchain/swaps/build"]) {
      const op = doc.paths[path].post;
      expect(op.summary, path).toMatch(/^Build the unsigned buy or sell of a launched token/);
      expect(op.responses["404"].description, path).toContain("`token_not_found`");
      expect(op.responses["422"].description, path).toContain("`no_liquidity`");
      expect(op.responses["400"].description, path).toContain("`amount_out_of_range`");
    }
  });
});

describe("swap builds refuse what they must, changing nothing", () => {
  const valid = () => ({ wallet: TRADER.address, token, side: "buy", amount_in_wei: "1000000000000000" });

  it("a token this service did not launch (WETH, an unknown address)", async () => {
    for (const other of [deployment.contracts.weth, "0x000000000000000000000000000000000000dEaD"]) {
      const res = await buildSession({ ...valid(), token: other });
      expect({ status: res.status, error: res.json.error }).toEqual({ status: 404, error: "token_not_found" });
    }
  });

  it("another wallet than the one proven (session and API key), and a session that never signed in", async () => {
    const session1 = await buildSession({ ...valid(), wallet: OTHER.address });
    expect({ status: session1.status, error: session1.json.error }).toEqual({ status: 403, error: "wallet_mismatch" });
    const v1 = await buildV1({ ...valid(), wallet: TRADER.address });
    expect({ status: v1.status, error: v1.json.error }).toEqual({ status: 403, error: "wallet_mismatch" });
    const fresh = await answer(await fetcher("/api/evm/evmchain/session"));
    const anonymous: BrowserSession = {
      cookie: fresh.headers.getSetCookie()[0]!.split(";")[0]!,
      csrf: fresh.json.csrf_token,
    };
    const unsigned = await buildSession(valid(), anonymous);
    expect({ status: unsigned.status, error: unsigned.json.error }).toEqual({
      status: 403,
      error: "sign_in_required",
    });
  });

  it("fields that choose a contract or calldata (to, data, router, pool, swap_router)", async () => {
    for (const field of ["to", "data", "router", "pool", "swap_router", "calldata"]) {
      for (const res of [
        await buildSession({ ...valid(), [field]: deployment.contracts.swapRouter }),
        await buildV1({ ...valid(), wallet: OTHER.address, [field]: deployment.contracts.swapRouter }),
      ]) {
        expect({ field, status: res.status, error: res.json.error }).toEqual({
          field,
          status: 400,
          error: "forbidden_field",
        });
      }
    }
  });

  it("slippage out of range or not an integer, an unknown side, a malformed amount", async () => {
    for (const over of [
      { slippage_bps: 5001 },
      { slippage_bps: -1 },
      { slippage_bps: 0.5 },
      { slippage_bps: "50" },
      { side: "swap" },
      { amount_in_wei: "1e18" },
      { amount_in_wei: "-1" },
      { amount_in_wei: 1000 },
      { extra: 1 },
    ]) {
      const res = await buildSession({ ...valid(), ...over });
      expect({ over, status: res.status, error: res.json.error }).toEqual({
        over,
        status: 400,
        error: "invalid_request",
      });
      expect(res.json.message).toMatch(/^[a-z_]+: /);
    }
  });

  it("amounts out of bounds: zero, a buy above 1,000 ETH, a sell above the supply", async () => {
    for (const over of [
      { amount_in_wei: "0" },
      { amount_in_wei: (parseEther("1000") + 1n).toString() },
      { side: "sell", amount_in_wei: (10n ** 27n + 1n).toString() },
    ]) {
      const res = await buildSession({ ...valid(), ...over });
      expect({ over, status: res.status, error: res.json.error }).toEqual({
        over,
        status: 400,
        error: "amount_out_of_range",
      });
    }
  });

  it("a sell of more than the wallet holds, in words", async () => {
    const held = await tokenBalance(TRADER.address);
    const res = await buildSession({ ...valid(), side: "sell", amount_in_wei: (held + 1n).toString() });
    expect({ status: res.status, error: res.json.error }).toEqual({ status: 422, error: "insufficient_balance" });
    expect(res.json.message).toBe("your wallet holds less TRADE than this amount");
  });

  it("an amount too small to return anything", async () => {
    const res = await buildSession({ ...valid(), side: "sell", amount_in_wei: "1" });
    expect({ status: res.status, error: res.json.error }).toEqual({ status: 422, error: "no_liquidity" });
  });

  it("a key without the build scope", async () => {
    const { secret, key } = await createApiKey(store, { wallet: devAccount(9).address, createdVia: "cli" });
    await store.db
      .update(apiKeys)
      .set({ scopes: ["evmchain:market:read"] })
      .where(eq(apiKeys.id, key.id));
    const res = await buildV1({ ...valid(), wallet: devAccount(9).address }, secret);
    expect({ status: res.status, error: res.json.error }).toEqual({ status: 403, error: "insufficient_scope" });
  });

  it("more builds per wallet and minute than the limit", async () => {
    const limited = appFixture(
      { db: drizzle(marketClient) as unknown as MarketDb, publicBaseUrl: BASE, store, deployment, publicClient },
      { limits: { swapBuildsPerMinute: 2 } },
    );
    const { secret } = await createApiKey(store, { wallet: devAccount(3).address, createdVia: "cli" });
    // Fixed one-minute windows: keep the three requests inside one.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await limited.request(`${BASE}/api/v1/evmchain/swaps/build`, {
        method: "POST",
        headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
        body: JSON.stringify({ ...valid(), wallet: devAccount(3).address }),
      });
      statuses.push(res.status);
      if (i === 2) {
        expect(((await res.json()) as { error: string }).error).toBe("rate_limited");
        expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      }
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
