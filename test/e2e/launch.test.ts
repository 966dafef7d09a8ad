/**
 * The key-authenticated launch flow end to end (docs/launch.md): the real service (Ponder + the
 * Hono API, offchain store on PGlite) on anvil with the real stack. The test acts as the creator's
 * wallet: personal_sign of `intent.message` with viem `signMessage`, then `sendTransaction` of the
 * returned `transaction` unchanged. Covers the happy paths (with and without a first buy, v1 and the
 * coin flow), every forged case (each rejected with nothing persisted), the state machine's legal
 * and illegal transitions, a restart between build and confirm, and an expired intent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress, keccak256, parseEther, toHex, type Hash, type Hex } from "viem";
import * as fx from "../fixtures/images";
import { launchToken } from "../../devnet/actions";
import { devAccount } from "../../devnet/clients";
import { deployLookAlikeFactory } from "../../devnet/deploy";
import { startStack, until, jsonPost as json, type Stack } from "../helpers/harness";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ schema: "e2e_launch" });
});

afterAll(async () => {
  await stack?.stop();
});

let idem = 0;
async function createIntent(body: Record<string, unknown>) {
  const res = await stack.request(
    "/api/v1/evmchain/launches/intent",
    json(body, { "Idempotency-Key": `e2e-launch-${++idem}-${Date.now()}` }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { launch_id: string; intent: { message: string; expires_at_sec: number } };
}

const sign = (wallet: number, message: string) => stack.wallet(wallet).signMessage({ message });
const build = (launch_id: string, intent_signature: Hex) =>
  stack.request("/api/v1/evmchain/launches/build", json({ launch_id, intent_signature }));
const confirm = (launch_id: string, tx_hash: Hash) =>
  stack.request("/api/v1/evmchain/launches/confirm", json({ launch_id, tx_hash }));
const status = (query: string) => stack.request(`/api/v1/evmchain/launches/status?${query}`);

type Tx = { chainId: Hex; from: Hex; to: Hex; value: Hex; data: Hex; gas: Hex };

/** Sends the built transaction exactly as returned (as a wallet's eth_sendTransaction would). */
async function send(wallet: number, tx: Tx, overrides: { to?: Hex; value?: bigint } = {}): Promise<Hash> {
  expect(tx.from).toBe(devAccount(wallet).address);
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

/** Intent -> personal_sign -> build, returning the build body. */
async function intentAndBuild(wallet: number, body: Record<string, unknown>) {
  const intent = await createIntent({ creator: devAccount(wallet).address, ...body });
  const signature = await sign(wallet, intent.intent.message);
  const built = await build(intent.launch_id, signature);
  expect(built.status, JSON.stringify(built.body)).toBe(200);
  return {
    launchId: intent.launch_id,
    signature,
    built: built.body as { transaction: Tx; predicted_token_address: string; [k: string]: unknown },
  };
}

async function tokenRecord(address: string) {
  return until(`token ${address} indexed`, async () => {
    const res = await stack.request(`/api/v1/evmchain/tokens/${address}`);
    return res.status === 200 ? res.body.token : undefined;
  });
}

/** Asserts a launch was not persisted: not confirmed, no token. */
async function expectNotPersisted(launchId: string) {
  const s = await status(`launch_id=${launchId}`);
  expect(s.status).toBe(200);
  expect(s.body.state).not.toBe("confirmed");
  expect(s.body.token_address).toBeNull();
  expect(s.body.token_url).toBeNull();
  return s.body;
}

let confirmedTx: Hash;
let confirmedToken: string;

describe("v1 launch flow: intent -> build -> confirm -> status", () => {
  it("launches with a first buy and creator metadata; build and confirm are idempotent; the read API shows the metadata", async () => {
    const upload = new FormData();
    upload.set("image", new Blob([new Uint8Array(await fx.png(32, 32))], { type: "image/png" }), "logo.png");
    const media = await stack.request("/api/v1/evmchain/media/upload", { method: "POST", body: upload });
    expect(media.status).toBe(201);

    const firstBuyWei = parseEther("0.05");
    const intent = await createIntent({
      creator: devAccount(1).address,
      name: "Launch One",
      symbol: "ONE",
      first_buy_wei: firstBuyWei.toString(),
      description: "The first coin of the write path.",
      website_url: "https://one.example",
      twitter_url: "https://x.com/one",
      image_url: media.body.image_url,
    });
    expect(intent.launch_id).toMatch(/^lnch_[0-9a-f]{24}$/);
    expect((await status(`launch_id=${intent.launch_id}`)).body).toMatchObject({
      state: "intent_created",
      terminal: false,
      next_actions: ["build"],
    });

    const signature = await sign(1, intent.intent.message);
    const built = await build(intent.launch_id, signature);
    expect(built.status).toBe(200);
    const minimum = BigInt(stack.manifest.launchFactory.minimumPoolLiquidityWei);
    expect(built.body).toMatchObject({
      ok: true,
      launch_id: intent.launch_id,
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
      slippage_bps: 300,
    });
    expect(BigInt(built.body.amount_out_minimum)).toBe((BigInt(built.body.expected_tokens_out) * 9_700n) / 10_000n);
    expect(BigInt(built.body.amount_out_minimum)).toBeGreaterThan(0n);
    expect(BigInt(built.body.gas_limit)).toBe(BigInt(built.body.transaction.gas));

    // Building again returns the same transaction, byte for byte.
    const again = await build(intent.launch_id, signature);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(built.body);

    const txHash = await send(1, built.body.transaction);
    const confirmed = await confirm(intent.launch_id, txHash);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({
      ok: true,
      launch_id: intent.launch_id,
      state: "confirmed",
      tx_hash: txHash,
      token_address: built.body.predicted_token_address,
      token_url: `http://localhost:${new URL(stack.service.url).port}/token/${built.body.predicted_token_address}`,
      creator: devAccount(1).address,
      name: "Launch One",
      symbol: "ONE",
      first_buy_wei: firstBuyWei.toString(),
      metadata: {
        description: "The first coin of the write path.",
        website_url: "https://one.example",
        image_url: media.body.image_url,
        is_default: false,
      },
    });
    expect(BigInt(confirmed.body.first_buy_tokens_out)).toBeGreaterThanOrEqual(BigInt(built.body.amount_out_minimum));
    // Confirming again returns the same result and keeps one record.
    const reconfirmed = await confirm(intent.launch_id, txHash);
    expect(reconfirmed.status).toBe(200);
    expect(reconfirmed.body).toEqual(confirmed.body);

    const byId = await status(`launch_id=${intent.launch_id}`);
    const byTx = await status(`tx_hash=${txHash}`);
    expect(byId.body).toMatchObject({
      state: "confirmed",
      terminal: true,
      tx_hash: txHash,
      token_address: built.body.predicted_token_address,
    });
    expect(byTx.body).toEqual(byId.body);

    const record = await tokenRecord(built.body.predicted_token_address);
    expect(record.metadata).toEqual({
      image_url: media.body.image_url,
      description: "The first coin of the write path.",
      website_url: "https://one.example",
      twitter_url: "https://x.com/one",
      telegram_url: null,
      is_default: false,
    });
    const pub = await stack.request(`/api/public/token/${built.body.predicted_token_address}`);
    expect(pub.body.token.metadata).toEqual(record.metadata);
    const meta = await stack.request(
      `/api/public/integrations/evmchain/token-metadata?address=${built.body.predicted_token_address}`,
    );
    expect(meta.body.token.description).toBe("The first coin of the write path.");
    confirmedTx = txHash;
    confirmedToken = built.body.predicted_token_address;
  });

  it("launches without a first buy; omitted metadata falls back to the platform defaults", async () => {
    const { launchId, built } = await intentAndBuild(2, { name: "Plain", symbol: "PLN" });
    expect(built.amount_out_minimum).toBe("0");
    expect(BigInt(built.transaction.value)).toBe(BigInt(stack.manifest.launchFactory.minimumPoolLiquidityWei));
    const txHash = await send(2, built.transaction);
    const confirmed = await confirm(launchId, txHash);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ state: "confirmed", first_buy_wei: "0", first_buy_tokens_out: "0" });
    const record = await tokenRecord(built.predicted_token_address);
    expect(record.metadata).toMatchObject({
      description: "Plain (PLN) launched on evmchain.",
      website_url: null,
      is_default: true,
    });
    expect(record.metadata.image_url).toMatch(/\/static\/token-default\.png$/);
  });

  it("answers 202 (state submitted) for a transaction that is not mined yet, then confirms the real one", async () => {
    const { launchId, built } = await intentAndBuild(2, { name: "Later", symbol: "LATER" });
    const unknown = keccak256(toHex(`not sent ${Date.now()}`));
    const pending = await confirm(launchId, unknown);
    expect(pending.status).toBe(202);
    expect(pending.headers.get("retry-after")).toBe("2");
    expect(pending.body).toMatchObject({
      ok: true,
      state: "submitted",
      tx_hash: unknown,
      pending: { code: "receipt_pending" },
    });
    expect((await status(`launch_id=${launchId}`)).body).toMatchObject({
      state: "submitted",
      next_actions: ["confirm"],
    });
    const txHash = await send(2, built.transaction);
    expect((await confirm(launchId, txHash)).body).toMatchObject({ state: "confirmed", tx_hash: txHash });
  });
});

describe("the coin flow (draft naming, same machinery)", () => {
  it("create-draft -> create-transaction -> finalize -> status, with a first buy", async () => {
    const res = await stack.request(
      "/api/v1/coins/create-draft",
      json(
        {
          creator: devAccount(3).address,
          name: "Drafted",
          symbol: "DRFT",
          first_buy_wei: parseEther("0.01").toString(),
          telegram_url: "https://t.me/drafted",
        },
        { "Idempotency-Key": `draft-${Date.now()}` },
      ),
    );
    expect(res.status).toBe(201);
    expect(res.body.draft_id).toMatch(/^lnch_/);
    const noKey = await stack.request(
      "/api/v1/coins/create-draft",
      json({ creator: devAccount(3).address, name: "X", symbol: "X" }),
    );
    expect(noKey.body.error).toBe("idempotency_key_missing");

    const draftId = res.body.draft_id as string;
    const signature = await sign(3, res.body.intent.message);
    const tx = await stack.request(
      "/api/v1/coins/create-transaction",
      json({ draft_id: draftId, intent_signature: signature }),
    );
    expect(tx.status).toBe(200);
    expect(tx.body).toMatchObject({ draft_id: draftId, state: "built", transaction: { chainId: "0x1237" } });
    const hash = await send(3, tx.body.transaction);
    const fin = await stack.request("/api/v1/coins/finalize", json({ draft_id: draftId, tx_hash: hash }));
    expect(fin.status).toBe(200);
    expect(fin.body).toMatchObject({
      draft_id: draftId,
      state: "confirmed",
      token_address: tx.body.predicted_token_address,
    });
    const st = await stack.request(`/api/v1/coins/status?draft_id=${draftId}`);
    expect(st.body).toMatchObject({ draft_id: draftId, state: "confirmed", terminal: true });
    expect((await stack.request("/api/v1/coins/status")).status).toBe(400);
    const record = await tokenRecord(tx.body.predicted_token_address);
    expect(record.metadata).toMatchObject({ telegram_url: "https://t.me/drafted", is_default: false });
  });
});

describe("forged cases are rejected and nothing is persisted", () => {
  it("refuses a signature by another account (401, state unchanged)", async () => {
    const intent = await createIntent({ creator: devAccount(4).address, name: "Signed", symbol: "SIG" });
    const wrong = await build(intent.launch_id, await sign(5, intent.intent.message));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({
      ok: false,
      error: "invalid_signature",
      launch_id: intent.launch_id,
      state: "intent_created",
    });
    // A signature of another message by the right account is refused too.
    const otherMessage = await build(intent.launch_id, await sign(4, `${intent.intent.message}\n`));
    expect(otherMessage.body.error).toBe("invalid_signature");
    expect((await status(`launch_id=${intent.launch_id}`)).body).toMatchObject({
      state: "intent_created",
      transaction: null,
    });
  });

  it("refuses a look-alike factory emitting the same event; the real transaction still confirms afterwards", async () => {
    const lookAlike = await deployLookAlikeFactory(stack.wallet(0), stack.publicClient, stack.manifest);
    const { launchId, built } = await intentAndBuild(4, {
      name: "Twin",
      symbol: "TWIN",
      first_buy_wei: parseEther("0.01").toString(),
    });
    const fake = await send(4, built.transaction, { to: lookAlike });
    const res = await confirm(launchId, fake);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ ok: false, error: "factory_not_accepted", state: "failed" });
    const s = await expectNotPersisted(launchId);
    expect(s).toMatchObject({ state: "failed", failure: { code: "factory_not_accepted" }, next_actions: ["confirm"] });
    // The same creator then sends the built transaction to the real factory: a failed launch may be
    // confirmed with another transaction hash.
    const real = await send(4, built.transaction);
    expect((await confirm(launchId, real)).body).toMatchObject({ state: "confirmed", tx_hash: real });
  });

  it("refuses a real launch by another creator", async () => {
    const { launchId } = await intentAndBuild(5, { name: "Mine", symbol: "MINE" });
    const other = await launchToken(stack.wallet(6), stack.publicClient, stack.manifest, {
      name: "Mine",
      symbol: "MINE",
    });
    const res = await confirm(launchId, other.hash);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("creator_mismatch");
    await expectNotPersisted(launchId);
    const record = await tokenRecord(getAddress(other.event.token));
    expect(record.metadata.is_default).toBe(true);
  });

  it("refuses a reverted transaction", async () => {
    const { launchId, built } = await intentAndBuild(5, {
      name: "Slipped",
      symbol: "SLP",
      first_buy_wei: parseEther("1").toString(),
      slippage_bps: 0,
    });
    // One wei less first buy than built: with zero slippage the router reverts ("Too little received").
    const hash = await send(5, built.transaction, { value: BigInt(built.transaction.value) - 1n });
    expect((await stack.publicClient.getTransactionReceipt({ hash })).status).toBe("reverted");
    const res = await confirm(launchId, hash);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("transaction_reverted");
    await expectNotPersisted(launchId);
  });

  it("refuses a receipt without the built first-buy swap", async () => {
    const { launchId, built } = await intentAndBuild(7, {
      name: "NoSwap",
      symbol: "NOSWP",
      first_buy_wei: parseEther("0.02").toString(),
    });
    // The same calldata with only the minimum liquidity: the launch happens, the first buy does not.
    const hash = await send(7, built.transaction, {
      value: BigInt(stack.manifest.launchFactory.minimumPoolLiquidityWei),
    });
    expect((await stack.publicClient.getTransactionReceipt({ hash })).status).toBe("success");
    const res = await confirm(launchId, hash);
    expect(res.status).toBe(422);
    expect(["value_mismatch", "first_buy_missing"]).toContain(res.body.error);
    await expectNotPersisted(launchId);
  });

  it("refuses a replayed confirm of another token's or another creator's transaction (409, nothing changes)", async () => {
    // The same creator, another token.
    const { launchId } = await intentAndBuild(1, { name: "Launch Two", symbol: "TWO" });
    const res = await confirm(launchId, confirmedTx);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "tx_already_used", state: "built" });
    expect((await expectNotPersisted(launchId)).state).toBe("built");
    // Another creator, the same name and symbol.
    const other = await intentAndBuild(2, { name: "Launch One", symbol: "ONE" });
    const refused = await confirm(other.launchId, confirmedTx);
    expect(refused.body).toMatchObject({ error: "tx_already_used", state: "built" });
    expect((await expectNotPersisted(other.launchId)).state).toBe("built");
  });

  it("refuses every forbidden body field on build, confirm and the coin flow with 400 forbidden_field, changing nothing", async () => {
    const { launchId, signature } = await intentAndBuild(8, { name: "Guarded", symbol: "GRD" });
    const extras: Record<string, unknown>[] = [
      { factory: stack.manifest.contracts.launchFactory },
      { factory_address: stack.manifest.contracts.launchFactory },
      { router: stack.manifest.contracts.swapRouter },
      { swapRouter: stack.manifest.contracts.swapRouter },
      { pool: "0x0000000000000000000000000000000000000001" },
      { fee_locker: stack.manifest.contracts.feeLocker },
      { to: stack.manifest.contracts.launchFactory },
      { data: "0xdeadbeef" },
      { calldata: "0xdeadbeef" },
      { private_key: "x" },
      { note: `0x${"ab".repeat(32)}` },
      { note: "test test test test test test test test test test test junk" },
      { nested: { mnemonic: "x" } },
    ];
    const bodies: Array<[string, Record<string, unknown>]> = [
      ["/api/v1/evmchain/launches/build", { launch_id: launchId, intent_signature: signature }],
      ["/api/v1/evmchain/launches/confirm", { launch_id: launchId, tx_hash: confirmedTx }],
      ["/api/v1/coins/create-transaction", { draft_id: launchId, intent_signature: signature }],
      ["/api/v1/coins/finalize", { draft_id: launchId, tx_hash: confirmedTx }],
    ];
    for (const [path, body] of bodies) {
      for (const extra of extras) {
        const res = await stack.request(path, json({ ...body, ...extra }));
        expect({ path, extra, status: res.status, error: res.body.error }).toEqual({
          path,
          extra,
          status: 400,
          error: "forbidden_field",
        });
      }
    }
    for (const [i, extra] of extras.entries()) {
      const res = await stack.request(
        "/api/v1/coins/create-draft",
        json(
          { creator: devAccount(8).address, name: "G", symbol: "G", ...extra },
          { "Idempotency-Key": `forbidden-draft-${i}` },
        ),
      );
      expect({ extra, status: res.status, error: res.body.error }).toEqual({
        extra,
        status: 400,
        error: "forbidden_field",
      });
    }
    expect((await status(`launch_id=${launchId}`)).body.state).toBe("built");
  });
});

describe("launch metrics", () => {
  it("counts builds, receipt verifications and confirmations by outcome on /metrics", async () => {
    const text = (await stack.request("/metrics")).body as string;
    const value = (series: string) => {
      const line = text.split("\n").find((l) => l.startsWith(`${series} `));
      return line ? Number(line.split(" ")[1]) : 0;
    };
    // Everything above ran through this service: successful launches and forged receipts.
    expect(value('launchpad_launch_builds_total{outcome="ok"}')).toBeGreaterThanOrEqual(4);
    expect(value('launchpad_launch_confirmations_total{outcome="ok"}')).toBeGreaterThanOrEqual(3);
    expect(value('launchpad_launch_verifications_total{outcome="ok"}')).toBeGreaterThanOrEqual(3);
    expect(value('launchpad_launch_verifications_total{outcome="factory_not_accepted"}')).toBeGreaterThanOrEqual(1);
    expect(value('launchpad_launch_verifications_total{outcome="transaction_reverted"}')).toBeGreaterThanOrEqual(1);
    expect(value('launchpad_launch_confirmations_total{outcome="tx_already_used"}')).toBeGreaterThanOrEqual(1);
  });
});

describe("state machine", () => {
  it("rejects illegal transitions with 409 launch_state_conflict and bad status queries with 400/404", async () => {
    const intent = await createIntent({ creator: devAccount(9).address, name: "Order", symbol: "ORD" });
    const early = await confirm(intent.launch_id, confirmedTx);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: "launch_state_conflict", state: "intent_created" });

    const signature = await sign(9, intent.intent.message);
    const built = await build(intent.launch_id, signature);
    const hash = await send(9, built.body.transaction);
    expect((await confirm(intent.launch_id, hash)).status).toBe(200);
    const rebuild = await build(intent.launch_id, signature);
    expect(rebuild.status).toBe(409);
    expect(rebuild.body).toMatchObject({ error: "launch_state_conflict", state: "confirmed" });
    const otherTx = await confirm(intent.launch_id, keccak256(toHex("other")));
    expect(otherTx.body).toMatchObject({ error: "launch_state_conflict", state: "confirmed" });

    expect((await status("")).status).toBe(400);
    expect((await status(`launch_id=${intent.launch_id}&tx_hash=${hash}`)).status).toBe(400);
    expect((await status("launch_id=nope")).status).toBe(400);
    const missing = await status(`launch_id=lnch_${"0".repeat(24)}`);
    expect({ status: missing.status, error: missing.body.error }).toEqual({ status: 404, error: "launch_not_found" });
    const unknownTx = await status(`tx_hash=${keccak256(toHex("unknown"))}`);
    expect(unknownTx.status).toBe(404);
    const bad = await stack.request(
      "/api/v1/evmchain/launches/build",
      json({ launch_id: intent.launch_id, intent_signature: signature, extra: 1 }),
    );
    expect(bad.body.error).toBe("invalid_request");
  });

  it("keeps the state across a service restart between build and confirm", async () => {
    const { launchId, built } = await intentAndBuild(6, {
      name: "Survivor",
      symbol: "SURV",
      first_buy_wei: parseEther("0.01").toString(),
    });
    await stack.restart();
    const after = await status(`launch_id=${launchId}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({
      state: "built",
      transaction: built.transaction,
      amount_out_minimum: built.amount_out_minimum,
    });
    const hash = await send(6, built.transaction);
    const confirmed = await confirm(launchId, hash);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ state: "confirmed", token_address: built.predicted_token_address });
    // The earlier confirmed launch is still there too.
    expect((await status(`tx_hash=${confirmedTx}`)).body).toMatchObject({
      state: "confirmed",
      token_address: confirmedToken,
    });
  });

  it("expires an intent that is not built in time (410 intent_expired, terminal)", async () => {
    await stack.restart({ env: { LAUNCH_INTENT_TTL_SEC: "1" } });
    const intent = await createIntent({ creator: devAccount(2).address, name: "Late", symbol: "LATE" });
    expect(intent.intent.expires_at_sec - (intent.intent as unknown as { issued_at_sec: number }).issued_at_sec).toBe(
      1,
    );
    // The service's clock is the wall clock: wait until it has passed expires_at_sec (the build
    // is refused at expires_at_sec itself).
    await expect
      .poll(() => Date.now() / 1000, { timeout: 10_000, interval: 100 })
      .toBeGreaterThan(intent.intent.expires_at_sec + 0.2);
    const signature = await sign(2, intent.intent.message);
    const res = await build(intent.launch_id, signature);
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ error: "intent_expired", state: "expired" });
    expect((await status(`launch_id=${intent.launch_id}`)).body).toMatchObject({
      state: "expired",
      terminal: true,
      next_actions: [],
    });
    expect((await build(intent.launch_id, signature)).body.error).toBe("intent_expired");
    expect((await confirm(intent.launch_id, confirmedTx)).body.error).toBe("launch_state_conflict");
    // A status read alone records the expiry too.
    const unread = await createIntent({ creator: devAccount(2).address, name: "Later2", symbol: "LTR" });
    await expect
      .poll(async () => (await status(`launch_id=${unread.launch_id}`)).body.state, { timeout: 10_000, interval: 200 })
      .toBe("expired");
  });
});
