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
import { launchToken } from "../../devnet/actions";
import { devAccount } from "../../devnet/clients";
import { deployLookAlikeFactory } from "../../devnet/deploy";
import { seedDemo } from "../../devnet/seed";
import { launchFactoryAbi } from "../../abis/LaunchFactory";
import { startStack, until, type Stack } from "../helpers/harness";
import { openSession, sessionPost, signedInSession, type BrowserSession, type Fetcher } from "../helpers/session";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ schema: "e2e_launch_session", env: { SESSION_RATE_LIMIT_PER_MINUTE: "100000" } });
});

afterAll(async () => {
  await stack?.stop();
});

type Session = BrowserSession;
type Tx = { chainId: Hex; from: Hex; to: Hex; value: Hex; data: Hex; gas: Hex };

const fetcher: Fetcher = (path, init) => fetch(`${stack.service.url}${path}`, init);
const newSession = () => openSession(fetcher);
const post = (session: Session, path: string, body: Record<string, unknown>) =>
  sessionPost(fetcher, stack.service.url, session, path, body);

/** One browser session per dev account, signed in as that account (EIP-4361). */
const signedIn = new Map<number, Session>();
async function sessionOf(wallet: number): Promise<Session> {
  if (!signedIn.has(wallet))
    signedIn.set(wallet, await signedInSession(fetcher, stack.service.url, devAccount(wallet)));
  return signedIn.get(wallet)!;
}

async function sessionBuild(wallet: number, body: Record<string, unknown>) {
  const res = await post(await sessionOf(wallet), "build-direct-v3-launch", {
    creator: devAccount(wallet).address,
    first_buy_wei: "0",
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    launch_id: string;
    transaction: Tx;
    predicted_token_address: string;
    amount_out_minimum: string;
    policy: Record<string, string>;
  };
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

const verifyIn = (
  session: Session,
  wallet: number,
  tx_hash: Hash,
  write: boolean,
  metadata?: Record<string, unknown>,
) =>
  post(session, "verify-direct-v3-launch", {
    tx_hash,
    creator: devAccount(wallet).address,
    write,
    ...(metadata ? { metadata } : {}),
  });

const verify = async (wallet: number, tx_hash: Hash, write: boolean, metadata?: Record<string, unknown>) =>
  verifyIn(await sessionOf(wallet), wallet, tx_hash, write, metadata);

async function tokenMetadataOf(address: string) {
  return until(`token ${address} indexed`, async () => {
    const res = await stack.request(`/api/public/token/${address}`);
    return res.status === 200 ? res.body.token.metadata : undefined;
  });
}

/** A v1 launch (the harness key, dev account 0's) for `wallet` as creator, built with its signature. */
async function v1IntentAndBuild(
  wallet: number,
  body: Record<string, unknown>,
): Promise<{ launch_id: string; transaction: Tx }> {
  const intent = await stack.request("/api/v1/evmchain/launches/intent", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": `session-e2e-${Math.random()}` },
    body: JSON.stringify({ creator: devAccount(wallet).address, first_buy_wei: "0", ...body }),
  });
  expect(intent.status, JSON.stringify(intent.body)).toBe(201);
  const intent_signature = await stack.wallet(wallet).signMessage({ message: intent.body.intent.message });
  const built = await stack.request("/api/v1/evmchain/launches/build", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ launch_id: intent.body.launch_id, intent_signature }),
  });
  expect(built.status, JSON.stringify(built.body)).toBe(200);
  return { launch_id: intent.body.launch_id, transaction: built.body.transaction };
}

const v1Confirm = (launch_id: string, tx_hash: Hash) =>
  stack.request("/api/v1/evmchain/launches/confirm", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ launch_id, tx_hash }),
  });

let confirmedTx: Hash;

describe("session surface: status, build, verify", () => {
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
    const built = await sessionBuild(1, {
      name: "Browser Coin",
      symbol: "BRWS",
      first_buy_wei: firstBuyWei.toString(),
      website_url: "https://browser.example",
    });
    const minimum = BigInt(stack.manifest.launchFactory.minimumPoolLiquidityWei);
    expect(built).toMatchObject({
      ok: true,
      state: "built",
      transaction: {
        chainId: "0x1237",
        from: devAccount(1).address,
        to: stack.manifest.contracts.launchFactory,
        value: toHex(minimum + firstBuyWei),
      },
      policy: {
        minimum_pool_liquidity_wei: minimum.toString(),
        first_buy_amount_wei: firstBuyWei.toString(),
        total_transaction_value_wei: (minimum + firstBuyWei).toString(),
      },
    });
    const hash = await send(1, built.transaction);

    const dry = await verify(1, hash, false, { name: "Browser Coin", symbol: "BRWS" });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      ok: true,
      verified: true,
      persisted: false,
      redirect_ready: false,
      token_address: built.predicted_token_address,
    });
    expect((await tokenMetadataOf(built.predicted_token_address)).is_default).toBe(true);

    const res = await verify(1, hash, true, {
      name: "Browser Coin",
      symbol: "BRWS",
      description: "Made in a browser.",
    });
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
    expect(await tokenMetadataOf(built.predicted_token_address)).toMatchObject({
      description: "Made in a browser.",
      website_url: "https://browser.example",
      is_default: false,
    });
    // Repeating verify returns the same result and keeps one record.
    const again = await verify(1, hash, true, {
      name: "Browser Coin",
      symbol: "BRWS",
      description: "Made in a browser.",
    });
    expect(again.body).toEqual(res.body);
    confirmedTx = hash;
  });

  it("builds and verifies a launch without a first buy (metadata defaults)", async () => {
    const built = await sessionBuild(2, { name: "Browser Plain", symbol: "BPLN" });
    expect(built.amount_out_minimum).toBe("0");
    const hash = await send(2, built.transaction);
    const res = await verify(2, hash, true);
    expect(res.body).toMatchObject({ state: "confirmed", persisted: true, redirect_ready: true, first_buy_wei: "0" });
    expect(await tokenMetadataOf(built.predicted_token_address)).toMatchObject({
      description: "Browser Plain (BPLN) launched on evmchain.",
      is_default: true,
    });
  });

  it("answers 202 while the transaction is not mined", async () => {
    await sessionBuild(2, { name: "Browser Wait", symbol: "BWAIT" });
    const res = await verify(2, keccak256(toHex(`never ${Date.now()}`)), true, {
      name: "Browser Wait",
      symbol: "BWAIT",
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      ok: true,
      state: "submitted",
      verified: false,
      redirect_ready: false,
      token_url: null,
      pending: { code: "receipt_pending" },
    });
  });

  it("returns ok:false with a message for a failed build", async () => {
    const res = await post(await sessionOf(1), "build-direct-v3-launch", {
      creator: devAccount(1).address,
      name: "   ",
      symbol: "X",
      first_buy_wei: "0",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, error: "invalid_request" });
    expect(res.body.message).toMatch(/name/);
  });
});

describe("session surface: forged cases are rejected, nothing persisted", () => {
  it("refuses a look-alike factory that emits the same event", async () => {
    const lookAlike = await deployLookAlikeFactory(stack.wallet(0), stack.publicClient, stack.manifest);
    const built = await sessionBuild(3, {
      name: "Fake Twin",
      symbol: "FTWN",
      first_buy_wei: parseEther("0.01").toString(),
    });
    const hash = await send(3, built.transaction, { to: lookAlike });
    const res = await verify(3, hash, true, { name: "Fake Twin", symbol: "FTWN" });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      ok: false,
      error: "factory_not_accepted",
      verified: false,
      persisted: false,
      redirect_ready: false,
      token_url: null,
      state: "failed",
    });
  });

  it("refuses a real launch by another creator, and a creator with no build in this session", async () => {
    await sessionBuild(4, { name: "Taken", symbol: "TKN" });
    const other = await launchToken(stack.wallet(5), stack.publicClient, stack.manifest, {
      name: "Taken",
      symbol: "TKN",
    });
    const res = await verify(4, other.hash, true, { name: "Taken", symbol: "TKN" });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("creator_mismatch");
    // This session cannot act for the real creator (wallet 5): it signed in as wallet 4.
    const claim = await verifyIn(await sessionOf(4), 5, other.hash, true, { name: "Taken", symbol: "TKN" });
    expect({ status: claim.status, error: claim.body.error }).toEqual({ status: 403, error: "wallet_mismatch" });
    // The real creator's own session never built it: nothing to confirm.
    const own = await verify(5, other.hash, true, { name: "Taken", symbol: "TKN" });
    expect({ status: own.status, error: own.body.error }).toEqual({ status: 404, error: "launch_not_found" });
    expect((await tokenMetadataOf(getAddress(other.event.token))).is_default).toBe(true);
  });

  it("refuses a reverted transaction and a receipt without the built first-buy swap", async () => {
    const slipped = await sessionBuild(6, {
      name: "Slip",
      symbol: "SLIP",
      first_buy_wei: parseEther("1").toString(),
      slippage_bps: 0,
    });
    const reverted = await send(6, slipped.transaction, { value: BigInt(slipped.transaction.value) - 1n });
    expect((await verify(6, reverted, true, { name: "Slip", symbol: "SLIP" })).body.error).toBe("transaction_reverted");

    const noSwap = await sessionBuild(7, {
      name: "No Swap",
      symbol: "NSWP",
      first_buy_wei: parseEther("0.02").toString(),
    });
    const hash = await send(7, noSwap.transaction, {
      value: BigInt(stack.manifest.launchFactory.minimumPoolLiquidityWei),
    });
    const res = await verify(7, hash, true, { name: "No Swap", symbol: "NSWP" });
    expect(res.status).toBe(422);
    expect(["value_mismatch", "first_buy_missing"]).toContain(res.body.error);
    expect((await tokenMetadataOf(noSwap.predicted_token_address)).is_default).toBe(true);
  });

  it("never lets another session verify (and choose the metadata of) this session's build", async () => {
    const built = await sessionBuild(8, { name: "Mine Only", symbol: "MINE" });
    const hash = await send(8, built.transaction);
    const anonymous = await newSession();
    const res = await verifyIn(anonymous, 8, hash, true, {
      name: "Mine Only",
      symbol: "MINE",
      description: "hijacked",
    });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 403, error: "sign_in_required" });
    // Another session of the same wallet never built it.
    const secondTab = await signedInSession(fetcher, stack.service.url, devAccount(8));
    const other = await verifyIn(secondTab, 8, hash, true, {
      name: "Mine Only",
      symbol: "MINE",
      description: "hijacked",
    });
    expect({ status: other.status, error: other.body.error }).toEqual({ status: 404, error: "launch_not_found" });
    const mine = await verify(8, hash, true, { name: "Mine Only", symbol: "MINE" });
    expect(mine.body).toMatchObject({ state: "confirmed", persisted: true });
  });

  it("confirms a transaction only for its own launch, whichever surface sees it", async () => {
    await sessionBuild(1, { name: "Browser Coin", symbol: "BRWS", first_buy_wei: parseEther("0.03").toString() });
    const res = await verify(1, confirmedTx, true, { name: "Browser Coin", symbol: "BRWS" });
    expect(res.status).toBe(200); // the same launch: idempotent, the build confirmed with this hash answers
    expect(res.body.state).toBe("confirmed");
    // Another build of this session (another token) cannot be confirmed with that transaction.
    const other = await sessionBuild(1, { name: "Second Coin", symbol: "SCND" });
    const replayed = await verify(1, confirmedTx, true, { name: "Second Coin", symbol: "SCND" });
    expect({ status: replayed.status, error: replayed.body.error, state: replayed.body.state }).toEqual({
      status: 409,
      error: "tx_already_used",
      state: "built",
    });
    expect((await verify(1, confirmedTx, true, { name: "Second Coin", symbol: "SCND", description: "x" })).status).toBe(
      409,
    );
    expect((other as unknown as { state: string }).state).toBe("built");

    // The creator's v1 launch of the same token confirms with the session's transaction (200, not
    // 409): one launch, one confirmation; the token keeps the first confirmation's metadata.
    const v1 = await v1IntentAndBuild(1, {
      name: "Browser Coin",
      symbol: "BRWS",
      first_buy_wei: parseEther("0.03").toString(),
      description: "from v1",
    });
    const confirmed = await v1Confirm(v1.launch_id, confirmedTx);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({
      ok: true,
      launch_id: v1.launch_id,
      state: "confirmed",
      tx_hash: confirmedTx,
      token_address: res.body.token_address,
      canonical_launch_id: res.body.launch_id,
    });
    expect((await v1Confirm(v1.launch_id, confirmedTx)).body).toEqual(confirmed.body);
    expect((await tokenMetadataOf(res.body.token_address)).description).toBe("Made in a browser.");
    // A v1 launch of another token cannot.
    const foreign = await v1IntentAndBuild(1, { name: "Third Coin", symbol: "THRD" });
    const refused = await v1Confirm(foreign.launch_id, confirmedTx);
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 409, error: "tx_already_used" });
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
      const b = await post(await sessionOf(9), "build-direct-v3-launch", {
        creator: devAccount(9).address,
        name: "Guard",
        symbol: "GRD",
        first_buy_wei: "0",
        ...extra,
      });
      expect({ extra, status: b.status, error: b.body.error }).toEqual({
        extra,
        status: 400,
        error: "forbidden_field",
      });
      const v = await post(await sessionOf(9), "verify-direct-v3-launch", {
        tx_hash: confirmedTx,
        creator: devAccount(9).address,
        write: true,
        ...extra,
      });
      expect({ extra, status: v.status, error: v.body.error }).toEqual({
        extra,
        status: 400,
        error: "forbidden_field",
      });
    }
    // Nothing was built for wallet 9 by those requests.
    const none = await verify(9, confirmedTx, true);
    expect(none.body.error).toBe("launch_not_found");

    const session = await sessionOf(9);
    const noHeader = await stack.request("/api/evm/evmchain/build-direct-v3-launch", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: stack.service.url, Cookie: session.cookie },
      body: JSON.stringify({ creator: devAccount(9).address, name: "Guard", symbol: "GRD", csrf_token: session.csrf }),
    });
    expect({ status: noHeader.status, error: noHeader.body.error }).toEqual({ status: 403, error: "csrf_failed" });
  });
});

/**
 * The critical finding of the hostile-client review (docs/security.md, row S-1): an anonymous
 * session built for another wallet's launch and confirmed it with that wallet's transaction,
 * taking over its metadata and leaving the creator's own v1 launch `built` forever.
 */
describe("session surface: nobody confirms, or attaches metadata to, another wallet's launch", () => {
  const attackerWallet = 9;
  const attack = async (session: Session, victim: number, tx_hash: Hash, token: { name: string; symbol: string }) => {
    const build = await post(session, "build-direct-v3-launch", {
      creator: devAccount(victim).address,
      ...token,
      first_buy_wei: "0",
      website_url: "https://attacker.example",
      description: "attacker",
    });
    const verified = await verifyIn(session, victim, tx_hash, true, { ...token, description: "attacker" });
    const dry = await verifyIn(session, victim, tx_hash, false, token);
    return [build, verified, dry].map((r) => ({ status: r.status, error: r.body.error }));
  };
  const refusedAs = (error: string) => [
    { status: 403, error },
    { status: 403, error },
    { status: 403, error },
  ];

  it("v1 first, then the session: the attack is refused and the creator's v1 confirm succeeds", async () => {
    const victim = 3;
    const token = { name: "Victim One", symbol: "VONE" };
    const v1 = await v1IntentAndBuild(victim, {
      ...token,
      first_buy_wei: parseEther("0.01").toString(),
      website_url: "https://victim.example",
    });
    const hash = await send(victim, v1.transaction);
    expect(await attack(await newSession(), victim, hash, token)).toEqual(refusedAs("sign_in_required"));
    expect(await attack(await sessionOf(attackerWallet), victim, hash, token)).toEqual(refusedAs("wallet_mismatch"));
    const confirmed = await v1Confirm(v1.launch_id, hash);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({ state: "confirmed", canonical_launch_id: null });
    expect(await tokenMetadataOf(confirmed.body.token_address)).toMatchObject({
      website_url: "https://victim.example",
    });
    // After the confirmation the attack still fails, and changes nothing.
    expect(await attack(await sessionOf(attackerWallet), victim, hash, token)).toEqual(refusedAs("wallet_mismatch"));
    expect(await tokenMetadataOf(confirmed.body.token_address)).toMatchObject({
      website_url: "https://victim.example",
    });
  });

  it("v1 first, then the creator's own session: its verify with write:true is 200 confirmed with the v1 transaction, idempotently", async () => {
    const victim = 4;
    const token = { name: "Victim Three", symbol: "VTHR" };
    const v1 = await v1IntentAndBuild(victim, { ...token, website_url: "https://v1-first.example" });
    const hash = await send(victim, v1.transaction);
    const viaV1 = await v1Confirm(v1.launch_id, hash);
    expect(viaV1.status, JSON.stringify(viaV1.body)).toBe(200);
    expect(viaV1.body).toMatchObject({ state: "confirmed", tx_hash: hash, canonical_launch_id: null });
    // The creator, signed in, then builds and verifies the same launch on the session surface.
    await sessionBuild(victim, { ...token, website_url: "https://session-second.example" });
    const viaSession = await verify(victim, hash, true, token);
    expect(viaSession.status, JSON.stringify(viaSession.body)).toBe(200);
    expect(viaSession.body).toMatchObject({
      ok: true,
      state: "confirmed",
      verified: true,
      persisted: true,
      token_address: viaV1.body.token_address,
      canonical_launch_id: v1.launch_id,
    });
    expect((await verify(victim, hash, true, token)).body).toEqual(viaSession.body);
    // One launch, one confirmation: v1's answer is unchanged and the token keeps v1's metadata.
    expect((await v1Confirm(v1.launch_id, hash)).body).toEqual(viaV1.body);
    expect(await tokenMetadataOf(viaV1.body.token_address)).toMatchObject({
      website_url: "https://v1-first.example",
    });
  });

  it("the session first, then v1: the creator's own session confirms, and its v1 intent becomes confirmed with that transaction", async () => {
    const victim = 6;
    const token = { name: "Victim Two", symbol: "VTWO" };
    const v1 = await v1IntentAndBuild(victim, { ...token, website_url: "https://v1.example" });
    const hash = await send(victim, v1.transaction);
    expect(await attack(await newSession(), victim, hash, token)).toEqual(refusedAs("sign_in_required"));
    expect(await attack(await sessionOf(attackerWallet), victim, hash, token)).toEqual(refusedAs("wallet_mismatch"));
    // The creator, signed in, confirms through the session surface first.
    await sessionBuild(victim, { ...token, website_url: "https://session.example" });
    const viaSession = await verify(victim, hash, true, token);
    expect(viaSession.status, JSON.stringify(viaSession.body)).toBe(200);
    expect(viaSession.body).toMatchObject({ state: "confirmed", canonical_launch_id: null });
    // Its v1 intent sees the same launch as confirmed (200, not 409), idempotently.
    const viaV1 = await v1Confirm(v1.launch_id, hash);
    expect(viaV1.status, JSON.stringify(viaV1.body)).toBe(200);
    expect(viaV1.body).toMatchObject({
      launch_id: v1.launch_id,
      state: "confirmed",
      tx_hash: hash,
      token_address: viaSession.body.token_address,
      canonical_launch_id: viaSession.body.launch_id,
    });
    const status = await stack.request(`/api/v1/evmchain/launches/status?launch_id=${v1.launch_id}`);
    expect(status.body).toMatchObject({
      state: "confirmed",
      tx_hash: hash,
      token_address: viaSession.body.token_address,
    });
    expect(await tokenMetadataOf(viaSession.body.token_address)).toMatchObject({
      website_url: "https://session.example",
    });
  });

  it("a launch made directly through the factory, and the seeded demo tokens, cannot be claimed by another session", async () => {
    const direct = await launchToken(stack.wallet(7), stack.publicClient, stack.manifest, {
      name: "Direct Victim",
      symbol: "DVIC",
    });
    expect(await attack(await newSession(), 7, direct.hash, { name: "Direct Victim", symbol: "DVIC" })).toEqual(
      refusedAs("sign_in_required"),
    );
    expect(
      await attack(await sessionOf(attackerWallet), 7, direct.hash, { name: "Direct Victim", symbol: "DVIC" }),
    ).toEqual(refusedAs("wallet_mismatch"));
    expect((await tokenMetadataOf(getAddress(direct.event.token))).is_default).toBe(true);

    const seeded = await seedDemo(stack.manifest, { trades: 0 });
    for (const t of seeded.tokens) {
      const creatorIndex = Array.from({ length: 10 }, (_, i) => i).find((i) => devAccount(i).address === t.creator)!;
      const launch = await stack.publicClient.getContractEvents({
        address: stack.manifest.contracts.launchFactory,
        abi: launchFactoryAbi,
        eventName: "TokenLaunched",
        args: { token: t.token },
        fromBlock: 0n,
      });
      const hash = launch[0]!.transactionHash;
      expect(
        await attack(await sessionOf(attackerWallet), creatorIndex, hash, { name: t.name, symbol: t.symbol }),
      ).toEqual(refusedAs("wallet_mismatch"));
      expect((await tokenMetadataOf(t.token)).is_default).toBe(true);
    }
  });
});

describe("CORS only on the public read surface (the running service, behind Ponder's own server)", () => {
  const EVIL = "https://evil.example";
  const raw = (path: string, init: RequestInit = {}) => fetch(`${stack.service.url}${path}`, init);
  const corsHeaders = (res: Response) => [...res.headers.keys()].filter((name) => name.startsWith("access-control-"));
  const preflight = (path: string, method: string, requestHeaders: string) =>
    raw(path, {
      method: "OPTIONS",
      headers: {
        Origin: EVIL,
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": requestHeaders,
      },
    });

  it("grants any origin on the public read surface (reads and their preflights)", async () => {
    for (const path of [
      "/api/public",
      "/api/public/tokens/new?limit=1",
      "/token-list/evmchain.json",
      "/feed/new-launches.xml",
      "/api/openapi.json",
    ]) {
      const res = await raw(path, { headers: { Origin: EVIL } });
      expect({ path, allow: res.headers.get("access-control-allow-origin") }).toEqual({ path, allow: "*" });
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    }
    const pre = await preflight("/api/public/tokens/new", "GET", "content-type");
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("grants nothing on the session surface, /api/v1, the pages and the operational routes: no Access-Control-* header, preflights included", async () => {
    const responses: [string, Response][] = [
      ["GET session", await raw("/api/evm/evmchain/session", { headers: { Origin: EVIL } })],
      ["GET status", await raw("/api/evm/evmchain/status", { headers: { Origin: EVIL } })],
      [
        "POST build (cross-origin)",
        await raw("/api/evm/evmchain/build-direct-v3-launch", {
          method: "POST",
          headers: { Origin: EVIL, "Content-Type": "application/json" },
          body: "{}",
        }),
      ],
      [
        "OPTIONS build",
        await preflight("/api/evm/evmchain/build-direct-v3-launch", "POST", "content-type,x-csrf-token"),
      ],
      ["OPTIONS api-keys", await preflight("/api/evm/evmchain/api-keys", "POST", "content-type,x-csrf-token")],
      ["GET v1 descriptor", await raw("/api/v1", { headers: { Origin: EVIL } })],
      [
        "GET v1 token (key)",
        await raw(`/api/v1/evmchain/tokens/${stack.manifest.contracts.launchFactory}`, {
          headers: { Origin: EVIL, Authorization: `Bearer ${stack.apiKey}` },
        }),
      ],
      [
        "OPTIONS v1 intent",
        await preflight("/api/v1/evmchain/launches/intent", "POST", "authorization,content-type,idempotency-key"),
      ],
      ["GET launch page", await raw("/launch", { headers: { Origin: EVIL } })],
      ["GET /status (Ponder)", await raw("/status", { headers: { Origin: EVIL } })],
      ["OPTIONS /metrics (Ponder)", await preflight("/metrics", "GET", "authorization")],
    ];
    for (const [what, res] of responses) expect({ what, cors: corsHeaders(res) }).toEqual({ what, cors: [] });
    // The session POST from another origin is refused on its own merits too.
    expect(responses[2]![1].status).toBe(403);
  });
});
