/**
 * The session surface's launch write path end to end (docs/launch.md "Session surface"): a browser
 * session with its CSRF token, `GET /api/evm/evmchain/status`, `build-direct-v3-launch` (the one
 * builder), the wallet sending the returned transaction unchanged, and `verify-direct-v3-launch`
 * (the one verifier, against this session's stored build) with and without `write`. Forged cases
 * are rejected with nothing persisted; `redirect_ready` turns true only once the launch is
 * persisted and indexed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress, keccak256, parseEther, toHex, type Hash, type Hex } from "viem";
import { launchToken } from "../devnet/actions";
import { devAccount } from "../devnet/clients";
import { deployLookAlikeFactory } from "../devnet/deploy";
import { startStack, until, type Stack } from "./harness";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ schema: "e2e_launch_session", env: { SESSION_RATE_LIMIT_PER_MINUTE: "100000" } });
});

afterAll(async () => {
  await stack?.stop();
});

type Session = { cookie: string; csrf: string };
type Tx = { chainId: Hex; from: Hex; to: Hex; value: Hex; data: Hex; gas: Hex };

async function newSession(): Promise<Session> {
  const res = await stack.request("/api/evm/evmchain/session");
  return { cookie: (res.headers.get("set-cookie") ?? "").split(";")[0]!, csrf: res.body.csrf_token };
}

function post(session: Session, path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return stack.request(`/api/evm/evmchain/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: stack.service.url, Cookie: session.cookie, "X-CSRF-Token": session.csrf, ...headers },
    body: JSON.stringify({ ...body, csrf_token: session.csrf }),
  });
}

async function sessionBuild(session: Session, wallet: number, body: Record<string, unknown>) {
  const res = await post(session, "build-direct-v3-launch", { creator: devAccount(wallet).address, first_buy_wei: "0", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { launch_id: string; transaction: Tx; predicted_token_address: string; amount_out_minimum: string; policy: Record<string, string> };
}

async function send(wallet: number, tx: Tx, overrides: { to?: Hex; value?: bigint } = {}): Promise<Hash> {
  const hash = await stack.wallet(wallet).sendTransaction({
    chain: null,
    to: overrides.to ?? tx.to,
    data: tx.data,
    value: overrides.value ?? BigInt(tx.value),
    gas: BigInt(tx.gas),
  });
  await stack.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

const verify = (session: Session, wallet: number, tx_hash: Hash, write: boolean, metadata?: Record<string, unknown>) =>
  post(session, "verify-direct-v3-launch", { tx_hash, creator: devAccount(wallet).address, write, ...(metadata ? { metadata } : {}) });

async function tokenMetadataOf(address: string) {
  return until(`token ${address} indexed`, async () => {
    const res = await stack.request(`/api/public/token/${address}`);
    return res.status === 200 ? res.body.token.metadata : undefined;
  });
}

let session: Session;
let confirmedTx: Hash;

describe("session surface: status, build, verify", () => {
  beforeAll(async () => {
    session = await newSession();
  });

  it("GET /status describes the network for wallet_addEthereumChain and the service's readiness", async () => {
    const res = await stack.request("/api/evm/evmchain/status");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      chain_id: "0x1237",
      chain_id_decimal: 4663,
      chain_name: "evmchain",
      native_currency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpc_urls: [stack.anvil.rpcUrl],
      block_explorer_urls: [],
      wallet_add_ethereum_chain: {
        chainId: "0x1237",
        chainName: "evmchain",
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: [stack.anvil.rpcUrl],
      },
      factory: {
        address: stack.manifest.contracts.launchFactory,
        accepted_factories: [stack.manifest.contracts.launchFactory],
        fee_locker: stack.manifest.contracts.feeLocker,
        minimum_pool_liquidity_wei: stack.manifest.launchFactory.minimumPoolLiquidityWei,
      },
      readiness: { ready: true, rpc: { ok: true, chain_id: 4663 }, indexer: { ok: true } },
    });
    expect(res.body.wallet_add_ethereum_chain).not.toHaveProperty("blockExplorerUrls");
    expect(res.body.readiness.indexer.lag_blocks).toBeGreaterThanOrEqual(0);
  });

  it("builds and verifies a launch with a first buy: a dry run persists nothing, write persists, redirect_ready after indexing", async () => {
    const firstBuyWei = parseEther("0.03");
    const built = await sessionBuild(session, 1, { name: "Browser Coin", symbol: "BRWS", first_buy_wei: firstBuyWei.toString(), website_url: "https://browser.example" });
    const minimum = BigInt(stack.manifest.launchFactory.minimumPoolLiquidityWei);
    expect(built).toMatchObject({
      ok: true,
      state: "built",
      transaction: { chainId: "0x1237", from: devAccount(1).address, to: stack.manifest.contracts.launchFactory, value: toHex(minimum + firstBuyWei) },
      policy: { minimum_pool_liquidity_wei: minimum.toString(), first_buy_amount_wei: firstBuyWei.toString(), total_transaction_value_wei: (minimum + firstBuyWei).toString() },
    });
    const hash = await send(1, built.transaction);

    const dry = await verify(session, 1, hash, false, { name: "Browser Coin", symbol: "BRWS" });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ ok: true, verified: true, persisted: false, redirect_ready: false, token_address: built.predicted_token_address });
    expect((await tokenMetadataOf(built.predicted_token_address)).is_default).toBe(true);

    const res = await verify(session, 1, hash, true, { name: "Browser Coin", symbol: "BRWS", description: "Made in a browser." });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      state: "confirmed",
      verified: true,
      persisted: true,
      indexed: true,
      redirect_ready: true,
      token_address: built.predicted_token_address,
      token_url: `http://localhost:${new URL(stack.service.url).port}/token/${built.predicted_token_address}`,
      first_buy_wei: firstBuyWei.toString(),
    });
    expect(BigInt(res.body.first_buy_tokens_out)).toBeGreaterThanOrEqual(BigInt(built.amount_out_minimum));
    // The token page resolves, with the creator's metadata.
    expect(await tokenMetadataOf(built.predicted_token_address)).toMatchObject({ description: "Made in a browser.", website_url: "https://browser.example", is_default: false });
    // Repeating verify returns the same result and keeps one record.
    const again = await verify(session, 1, hash, true, { name: "Browser Coin", symbol: "BRWS", description: "Made in a browser." });
    expect(again.body).toEqual(res.body);
    confirmedTx = hash;
  });

  it("builds and verifies a launch without a first buy (metadata defaults)", async () => {
    const built = await sessionBuild(session, 2, { name: "Browser Plain", symbol: "BPLN" });
    expect(built.amount_out_minimum).toBe("0");
    const hash = await send(2, built.transaction);
    const res = await verify(session, 2, hash, true);
    expect(res.body).toMatchObject({ state: "confirmed", persisted: true, redirect_ready: true, first_buy_wei: "0" });
    expect(await tokenMetadataOf(built.predicted_token_address)).toMatchObject({ description: "Browser Plain (BPLN) launched on evmchain.", is_default: true });
  });

  it("answers 202 while the transaction is not mined", async () => {
    await sessionBuild(session, 2, { name: "Browser Wait", symbol: "BWAIT" });
    const res = await verify(session, 2, keccak256(toHex(`never ${Date.now()}`)), true, { name: "Browser Wait", symbol: "BWAIT" });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ ok: true, state: "submitted", verified: false, redirect_ready: false, token_url: null, pending: { code: "receipt_pending" } });
  });

  it("returns ok:false with a message for a failed build", async () => {
    const res = await post(session, "build-direct-v3-launch", { creator: devAccount(1).address, name: "   ", symbol: "X", first_buy_wei: "0" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, error: "invalid_request" });
    expect(res.body.message).toMatch(/name/);
  });
});

describe("session surface: forged cases are rejected, nothing persisted", () => {
  it("refuses a look-alike factory that emits the same event", async () => {
    const lookAlike = await deployLookAlikeFactory(stack.wallet(0), stack.publicClient, stack.manifest);
    const built = await sessionBuild(session, 3, { name: "Fake Twin", symbol: "FTWN", first_buy_wei: parseEther("0.01").toString() });
    const hash = await send(3, built.transaction, { to: lookAlike });
    const res = await verify(session, 3, hash, true, { name: "Fake Twin", symbol: "FTWN" });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ ok: false, error: "factory_not_accepted", verified: false, persisted: false, redirect_ready: false, token_url: null, state: "failed" });
  });

  it("refuses a real launch by another creator, and a creator with no build in this session", async () => {
    await sessionBuild(session, 4, { name: "Taken", symbol: "TKN" });
    const other = await launchToken(stack.wallet(5), stack.publicClient, stack.manifest, { name: "Taken", symbol: "TKN" });
    const res = await verify(session, 4, other.hash, true, { name: "Taken", symbol: "TKN" });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("creator_mismatch");
    // Claiming the launch as its real creator fails too: this session never built for wallet 5.
    const claim = await verify(session, 5, other.hash, true, { name: "Taken", symbol: "TKN" });
    expect({ status: claim.status, error: claim.body.error }).toEqual({ status: 404, error: "launch_not_found" });
    expect((await tokenMetadataOf(getAddress(other.event.token))).is_default).toBe(true);
  });

  it("refuses a reverted transaction and a receipt without the built first-buy swap", async () => {
    const slipped = await sessionBuild(session, 6, { name: "Slip", symbol: "SLIP", first_buy_wei: parseEther("1").toString(), slippage_bps: 0 });
    const reverted = await send(6, slipped.transaction, { value: BigInt(slipped.transaction.value) - 1n });
    expect((await verify(session, 6, reverted, true, { name: "Slip", symbol: "SLIP" })).body.error).toBe("transaction_reverted");

    const noSwap = await sessionBuild(session, 7, { name: "No Swap", symbol: "NSWP", first_buy_wei: parseEther("0.02").toString() });
    const hash = await send(7, noSwap.transaction, { value: BigInt(stack.manifest.launchFactory.minimumPoolLiquidityWei) });
    const res = await verify(session, 7, hash, true, { name: "No Swap", symbol: "NSWP" });
    expect(res.status).toBe(422);
    expect(["value_mismatch", "first_buy_missing"]).toContain(res.body.error);
    expect((await tokenMetadataOf(noSwap.predicted_token_address)).is_default).toBe(true);
  });

  it("never lets another session verify (and choose the metadata of) this session's build", async () => {
    const built = await sessionBuild(session, 8, { name: "Mine Only", symbol: "MINE" });
    const hash = await send(8, built.transaction);
    const intruder = await newSession();
    const res = await verify(intruder, 8, hash, true, { name: "Mine Only", symbol: "MINE", description: "hijacked" });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 404, error: "launch_not_found" });
    const mine = await verify(session, 8, hash, true, { name: "Mine Only", symbol: "MINE" });
    expect(mine.body).toMatchObject({ state: "confirmed", persisted: true });
  });

  it("refuses a replayed transaction of another launch, on both surfaces", async () => {
    await sessionBuild(session, 1, { name: "Browser Coin", symbol: "BRWS", first_buy_wei: parseEther("0.03").toString() });
    const res = await verify(session, 1, confirmedTx, true, { name: "Browser Coin", symbol: "BRWS" });
    expect(res.status).toBe(200); // the same launch: idempotent, the build confirmed with this hash answers
    expect(res.body.state).toBe("confirmed");
    // Another build of this session cannot be confirmed with that transaction.
    const other = await sessionBuild(session, 1, { name: "Second Coin", symbol: "SCND" });
    const replayed = await verify(session, 1, confirmedTx, true, { name: "Second Coin", symbol: "SCND" });
    expect({ status: replayed.status, error: replayed.body.error, state: replayed.body.state }).toEqual({ status: 409, error: "tx_already_used", state: "built" });
    expect((await verify(session, 1, confirmedTx, true, { name: "Second Coin", symbol: "SCND", description: "x" })).status).toBe(409);
    expect((other as unknown as { state: string }).state).toBe("built");

    // A v1 launch (same creator, name, symbol) cannot confirm with the session's transaction.
    const intent = await stack.request("/api/v1/evmchain/launches/intent", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": `session-replay-${Date.now()}` },
      body: JSON.stringify({ creator: devAccount(1).address, name: "Browser Coin", symbol: "BRWS", first_buy_wei: parseEther("0.03").toString() }),
    });
    const signature = await stack.wallet(1).signMessage({ message: intent.body.intent.message });
    const built = await stack.request("/api/v1/evmchain/launches/build", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ launch_id: intent.body.launch_id, intent_signature: signature }) });
    expect(built.status).toBe(200);
    const replay = await stack.request("/api/v1/evmchain/launches/confirm", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ launch_id: intent.body.launch_id, tx_hash: confirmedTx }) });
    expect({ status: replay.status, error: replay.body.error }).toEqual({ status: 409, error: "tx_already_used" });
  });

  it("refuses every forbidden body field and a missing CSRF token, changing nothing", async () => {
    const extras: Record<string, unknown>[] = [
      { factory: stack.manifest.contracts.launchFactory },
      { launch_factory: stack.manifest.contracts.launchFactory },
      { router: stack.manifest.contracts.swapRouter },
      { pool_address: "0x0000000000000000000000000000000000000001" },
      { feeLocker: stack.manifest.contracts.feeLocker },
      { to: stack.manifest.contracts.launchFactory },
      { data: "0xdeadbeef" },
      { calldata: "0xdeadbeef" },
      { privateKey: "x" },
      { description: `0x${"cd".repeat(32)}` },
      { description: "test test test test test test test test test test test junk" },
      { metadata: { name: "A", symbol: "A", seed: "x" } },
    ];
    for (const extra of extras) {
      const b = await post(session, "build-direct-v3-launch", { creator: devAccount(9).address, name: "Guard", symbol: "GRD", first_buy_wei: "0", ...extra });
      expect({ extra, status: b.status, error: b.body.error }).toEqual({ extra, status: 400, error: "forbidden_field" });
      const v = await post(session, "verify-direct-v3-launch", { tx_hash: confirmedTx, creator: devAccount(9).address, write: true, ...extra });
      expect({ extra, status: v.status, error: v.body.error }).toEqual({ extra, status: 400, error: "forbidden_field" });
    }
    // Nothing was built for wallet 9 by those requests.
    const none = await verify(session, 9, confirmedTx, true);
    expect(none.body.error).toBe("launch_not_found");

    const noHeader = await stack.request("/api/evm/evmchain/build-direct-v3-launch", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: stack.service.url, Cookie: session.cookie },
      body: JSON.stringify({ creator: devAccount(9).address, name: "Guard", symbol: "GRD", csrf_token: session.csrf }),
    });
    expect({ status: noHeader.status, error: noHeader.body.error }).toEqual({ status: 403, error: "csrf_failed" });
  });
});
