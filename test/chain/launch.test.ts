/**
 * The launch write path through the real HTTP app (`createApp`, `app.request()`) with a real
 * store (PGlite in a temporary folder) and a real anvil (no Ponder: the v1 flow never reads the
 * indexer). Covers what the e2e tests cannot pin down deterministically: a pinned clock for intent
 * expiry, the daily "finalized" quota (a confirm over quota persists nothing), concurrent confirms
 * (one persisted record, one quota count), a launch being invisible to another API key, and (on
 * the test PostgreSQL, when reachable) a process losing its store connections in the middle of the
 * confirm's write: the quota count and the launch commit together or not at all.
 */
import { and, eq } from "drizzle-orm";
import { createWalletClient, http, type Hash } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appFixture, type AppFixtureOverrides, type TestApp } from "../helpers/appFixture";
import { coinQuotaBucket } from "../../store/coinQuotas";
import { routeTestHandles } from "../helpers/routeTestHandles";
import { devAccount } from "../../devnet/clients";
import pg from "pg";
import { openStore, type Store } from "../../store/index";
import { createApiKey } from "../../store/keys";
import { counters, launches } from "../../store/schema";
import { dropSchema, postgresAvailable, TEST_DATABASE_URL, uniqueSchemaName } from "../helpers/postgres";

const BASE = "http://localhost:42069";
/** anvil on the saved devnet, an empty market database and a PGlite store, per file. */
const h = routeTestHandles({ storePrefix: "launch-routes-" });

let clock = Math.floor(Date.now() / 1000);

function makeApp(limits: Record<string, number> = {}, onStore: Store = h.store, overrides: AppFixtureOverrides = {}) {
  return appFixture({ ...h.app(BASE), store: onStore }, { nowSec: () => clock, limits, ...overrides });
}

async function call(app: TestApp, key: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await app.request(`${BASE}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

let seq = 0;
async function builtLaunch(app: TestApp, key: string, wallet: number, name: string) {
  const intent = await call(
    app,
    key,
    "/api/v1/evmchain/launches/intent",
    { creator: devAccount(wallet).address, name, symbol: "RT" },
    { "Idempotency-Key": `rt-${++seq}` },
  );
  expect(intent.status).toBe(201);
  const signature = await devAccount(wallet).signMessage({ message: intent.body.intent.message });
  const built = await call(app, key, "/api/v1/evmchain/launches/build", {
    launch_id: intent.body.launch_id,
    intent_signature: signature,
  });
  expect(built.status).toBe(200);
  return { launchId: intent.body.launch_id as string, intent: intent.body, signature, built: built.body };
}

async function sendBuilt(
  wallet: number,
  tx: { to: `0x${string}`; data: `0x${string}`; value: `0x${string}`; gas: `0x${string}` },
): Promise<Hash> {
  const client = createWalletClient({ account: devAccount(wallet), transport: http(h.anvil.rpcUrl) });
  const hash = await client.sendTransaction({
    chain: null,
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
    gas: BigInt(tx.gas),
  });
  await h.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

/** The finalized-coin count of a wallet (all its keys) over every stored window. */
const finalizedToday = async (wallet: string, onStore: Store = h.store) =>
  (
    await onStore.db
      .select()
      .from(counters)
      .where(eq(counters.bucket, coinQuotaBucket("coins_finalized", wallet)))
  ).reduce((n, r) => n + r.hits, 0);

/** A fresh wallet address: quotas and the key cap count per wallet, so each test gets its own. */
const freshWallet = () => privateKeyToAccount(generatePrivateKey()).address;

describe("launch write path over app.request()", () => {
  it("expires an intent exactly at expires_at_sec on a pinned clock", async () => {
    const app = makeApp();
    const { secret } = await createApiKey(h.store, { wallet: freshWallet(), createdVia: "cli" });
    const intent = await call(
      app,
      secret,
      "/api/v1/evmchain/launches/intent",
      { creator: devAccount(1).address, name: "Clock", symbol: "CLK" },
      { "Idempotency-Key": "clock-1" },
    );
    const signature = await devAccount(1).signMessage({ message: intent.body.intent.message });
    const saved = clock;
    try {
      clock = intent.body.intent.expires_at_sec - 1;
      expect(
        (await call(app, secret, `/api/v1/evmchain/launches/status?launch_id=${intent.body.launch_id}`)).body.state,
      ).toBe("intent_created");
      clock = intent.body.intent.expires_at_sec;
      const res = await call(app, secret, "/api/v1/evmchain/launches/build", {
        launch_id: intent.body.launch_id,
        intent_signature: signature,
      });
      expect({ status: res.status, error: res.body.error, state: res.body.state }).toEqual({
        status: 410,
        error: "intent_expired",
        state: "expired",
      });
    } finally {
      clock = saved;
    }
    const row = (await h.store.db.select().from(launches).where(eq(launches.id, intent.body.launch_id)))[0]!;
    expect(row.state).toBe("expired");
    expect(row.build).toBeNull();
  });

  it("gives intents the configured lifetime and publishes it in the v1 descriptor (LAUNCH_INTENT_TTL_SEC)", async () => {
    const app = makeApp({}, h.store, { intentTtlSec: 60 });
    const { secret } = await createApiKey(h.store, { wallet: freshWallet(), createdVia: "cli" });
    const intent = await call(
      app,
      secret,
      "/api/v1/evmchain/launches/intent",
      { creator: devAccount(1).address, name: "Ttl", symbol: "TTL" },
      { "Idempotency-Key": "ttl-1" },
    );
    expect(intent.status).toBe(201);
    expect(intent.body.intent.expires_at_sec - clock).toBe(60);
    const descriptor = await app.request(`${BASE}/api/v1`);
    expect(((await descriptor.json()) as any).limits.intent_ttl_sec).toBe(60);
    // The default stays 15 minutes.
    expect(((await (await makeApp().request(`${BASE}/api/v1`)).json()) as any).limits.intent_ttl_sec).toBe(900);
  });

  it("counts one finalized coin per confirmed launch; over the quota nothing is persisted", async () => {
    const app = makeApp({ coinsFinalizedPerDay: 1 });
    const { secret, key } = await createApiKey(h.store, { wallet: freshWallet(), createdVia: "cli" });
    const a = await builtLaunch(app, secret, 2, "Quota A");
    const b = await builtLaunch(app, secret, 3, "Quota B");
    const txA = await sendBuilt(2, a.built.transaction);
    const txB = await sendBuilt(3, b.built.transaction);
    expect(
      (await call(app, secret, "/api/v1/evmchain/launches/confirm", { launch_id: a.launchId, tx_hash: txA })).status,
    ).toBe(200);
    // Replays of a confirmed launch do not count again.
    expect(
      (await call(app, secret, "/api/v1/evmchain/launches/confirm", { launch_id: a.launchId, tx_hash: txA })).status,
    ).toBe(200);
    expect(await finalizedToday(key.wallet)).toBe(1);
    const over = await call(app, secret, "/api/v1/evmchain/launches/confirm", { launch_id: b.launchId, tx_hash: txB });
    expect({ status: over.status, error: over.body.error }).toEqual({ status: 429, error: "quota_exceeded" });
    const row = (await h.store.db.select().from(launches).where(eq(launches.id, b.launchId)))[0]!;
    expect(row.state).toBe("built");
    expect(row.tokenAddress).toBeNull();
  });

  it("persists one record and counts the quota once under concurrent confirms", async () => {
    const app = makeApp();
    const { secret, key } = await createApiKey(h.store, { wallet: freshWallet(), createdVia: "cli" });
    const l = await builtLaunch(app, secret, 4, "Race");
    const tx = await sendBuilt(4, l.built.transaction);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(app, secret, "/api/v1/evmchain/launches/confirm", { launch_id: l.launchId, tx_hash: tx }),
      ),
    );
    for (const r of results) expect(r.status).toBe(200);
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    const confirmed = await h.store.db
      .select()
      .from(launches)
      .where(and(eq(launches.txHash, tx.toLowerCase()), eq(launches.state, "confirmed")));
    expect(confirmed).toHaveLength(1);
    expect(await finalizedToday(key.wallet)).toBe(1);
  });

  it("lets a key of wallet A open an intent for creator B, but builds it only with B's signature (A's own signature is refused)", async () => {
    const app = makeApp();
    const walletA = devAccount(7);
    const creatorB = devAccount(8);
    const { secret } = await createApiKey(h.store, { wallet: walletA.address, createdVia: "cli" });
    const intent = await call(
      app,
      secret,
      "/api/v1/evmchain/launches/intent",
      { creator: creatorB.address, name: "For B", symbol: "FORB", description: "B's coin" },
      { "Idempotency-Key": `for-b-${++seq}` },
    );
    expect(intent.status).toBe(201);
    expect(intent.body.intent.creator).toBe(creatorB.address);
    const launchId = intent.body.launch_id as string;
    // The key's owner signing the message: refused, nothing built.
    const byA = await call(app, secret, "/api/v1/evmchain/launches/build", {
      launch_id: launchId,
      intent_signature: await walletA.signMessage({ message: intent.body.intent.message }),
    });
    expect(byA.body).toMatchObject({ ok: false, error: "invalid_signature", state: "intent_created" });
    expect(byA.status).toBe(401);
    // B's signature of another message (different metadata hash) is refused too.
    const tampered = (intent.body.intent.message as string).replace(
      /Metadata SHA-256: [0-9a-f]{64}/,
      `Metadata SHA-256: ${"0".repeat(64)}`,
    );
    expect(tampered).not.toBe(intent.body.intent.message);
    const byBOther = await call(app, secret, "/api/v1/evmchain/launches/build", {
      launch_id: launchId,
      intent_signature: await creatorB.signMessage({ message: tampered }),
    });
    expect(byBOther.status).toBe(401);
    const row = (await h.store.db.select().from(launches).where(eq(launches.id, launchId)))[0]!;
    expect({ state: row.state, build: row.build }).toEqual({ state: "intent_created", build: null });
    // B's signature of the intent's message builds a transaction that only B can send.
    const byB = await call(app, secret, "/api/v1/evmchain/launches/build", {
      launch_id: launchId,
      intent_signature: await creatorB.signMessage({ message: intent.body.intent.message }),
    });
    expect(byB.status, JSON.stringify(byB.body)).toBe(200);
    expect(byB.body).toMatchObject({ state: "built", transaction: { from: creatorB.address } });
  });

  it("hides a launch from other API keys (404) and returns the same build to its own key", async () => {
    const app = makeApp();
    const mine = await createApiKey(h.store, { wallet: freshWallet(), createdVia: "cli" });
    const theirs = await createApiKey(h.store, { wallet: freshWallet(), createdVia: "cli" });
    const l = await builtLaunch(app, mine.secret, 5, "Private");
    const peek = await call(app, theirs.secret, `/api/v1/evmchain/launches/status?launch_id=${l.launchId}`);
    expect({ status: peek.status, error: peek.body.error }).toEqual({ status: 404, error: "launch_not_found" });
    const steal = await call(app, theirs.secret, "/api/v1/evmchain/launches/build", {
      launch_id: l.launchId,
      intent_signature: l.signature,
    });
    expect(steal.status).toBe(404);
    const again = await call(app, mine.secret, "/api/v1/evmchain/launches/build", {
      launch_id: l.launchId,
      intent_signature: l.signature,
    });
    expect(again.body).toEqual(l.built);
  });
});

describe.skipIf(!(await postgresAvailable()))("a confirm whose process loses the store mid-write (PostgreSQL)", () => {
  const schema = uniqueSchemaName("launch_routes_store");
  // `locker` holds the row lock; `watcher` reads pg_stat_activity (outside the locker's
  // transaction, whose view of it would stay frozen at its first read).
  let locker: pg.Client;
  let watcher: pg.Client;

  beforeAll(async () => {
    locker = new pg.Client({ connectionString: TEST_DATABASE_URL });
    watcher = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
    await watcher.connect();
  });

  afterAll(async () => {
    await locker?.end().catch(() => undefined);
    await watcher?.end().catch(() => undefined);
    await dropSchema(schema);
  });

  it("counts the finalized coin only together with the persisted launch; the retry counts it once", async () => {
    // The "process" that dies: an app on its own store (its own connection pool).
    const first = await openStore({ kind: "postgres", url: TEST_DATABASE_URL, schema });
    const { secret, key } = await createApiKey(first, { wallet: freshWallet(), createdVia: "cli" });
    const app = makeApp({}, first);
    const l = await builtLaunch(app, secret, 6, "Torn");
    const tx = await sendBuilt(6, l.built.transaction);

    // Hold the launch row so the confirm's UPDATE blocks after verification and the quota count.
    await locker.query("begin");
    await locker.query(`select id from "${schema}".launches where id = $1 for update`, [l.launchId]);
    const lockerPid = (await locker.query("select pg_backend_pid() as pid")).rows[0].pid as number;
    const inFlight = call(app, secret, "/api/v1/evmchain/launches/confirm", { launch_id: l.launchId, tx_hash: tx });
    let blockedPid: number | undefined;
    for (let i = 0; i < 200 && blockedPid === undefined; i++) {
      const rows = await watcher.query(
        `select pid from pg_stat_activity where wait_event_type = 'Lock' and $1 = any(pg_blocking_pids(pid)) and query ilike 'update "launches"%'`,
        [lockerPid],
      );
      blockedPid = rows.rows[0]?.pid;
      if (blockedPid === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    expect(blockedPid, "the confirm's UPDATE never blocked on the row lock").toBeDefined();

    // The process dies: its pool takes no new connection and its blocked session is ended, so
    // nothing it still meant to do (a later statement, a compensating write) reaches the store.
    const closing = first.close();
    await locker.query("select pg_terminate_backend($1)", [blockedPid]);
    const died = await inFlight;
    expect(died.status).toBe(500);
    await closing;
    await locker.query("rollback");

    // The next process on the same store sees neither the launch confirmed nor a coin counted.
    const second = await openStore({ kind: "postgres", url: TEST_DATABASE_URL, schema });
    try {
      const row = (await second.db.select().from(launches).where(eq(launches.id, l.launchId)))[0]!;
      expect(row.state).toBe("built");
      expect(await finalizedToday(key.wallet, second)).toBe(0);
      // Its retry confirms, and the coin is counted once.
      const retry = await call(makeApp({}, second), secret, "/api/v1/evmchain/launches/confirm", {
        launch_id: l.launchId,
        tx_hash: tx,
      });
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.body).toMatchObject({ state: "confirmed", tx_hash: tx });
      expect(await finalizedToday(key.wallet, second)).toBe(1);
      const confirmed = await second.db
        .select()
        .from(launches)
        .where(and(eq(launches.txHash, tx.toLowerCase()), eq(launches.state, "confirmed")));
      expect(confirmed).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
