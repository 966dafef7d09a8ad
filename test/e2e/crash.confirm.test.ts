/**
 * `kill -9` of the service in the middle of a confirm (proof under stress): after a
 * restart on the same databases nothing is lost or duplicated.
 *
 * The test acts as the creator's wallet (personal_sign of the intent, `sendTransaction` of the
 * built transaction unchanged, on anvil), sends `POST /api/v1/evmchain/launches/confirm` with an
 * `Idempotency-Key`, and kills the real service process with SIGKILL at a point it reaches
 * deterministically inside that request:
 *
 * - **receipt fetch** (PGlite, the default store): the service's RPC runs through the test RPC
 *   proxy, put in `stall` mode before the confirm; the kill lands once the proxy holds the
 *   confirm's `eth_getTransactionReceipt` for this transaction (verification under way, nothing
 *   written yet);
 * - **store write, lost** (PostgreSQL): the test holds a row lock on the launch, so the confirm's
 *   conditional `UPDATE … SET state = 'confirmed'` blocks after verification (and after the daily
 *   "finalized" quota was counted); the kill lands once PostgreSQL reports that UPDATE waiting on
 *   the test's lock; the orphaned server session is then ended, so the write never lands (as when
 *   the process dies before sending it);
 * - **store write, landed** (PostgreSQL): the same, but the test releases its lock after the kill,
 *   so the dead process's statement runs to its end (the response never reaches the client).
 *
 * After each kill the identical confirm (same body, same `Idempotency-Key`) is retried on the
 * restarted service, then once more with a new key. Asserted: 200 `confirmed` (no 409 left behind
 * by the killed request), the same body for both keys, exactly one launch record with the
 * transaction, the key's "finalized" quota equal to its confirmed launches (counted once), the
 * status record, the token record and page, and the first-buy trade indexed exactly once.
 */
import pg from "pg";
import { and, eq, sql } from "drizzle-orm";
import { parseEther, type Hash, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devAccount } from "../../devnet/clients";
import { loadStoreConfig, openStore } from "../../store/index";
import { launches } from "../../store/schema";
import { startStack, until, jsonPost as json, type Stack } from "../helpers/harness";
import { postgresAvailable } from "../helpers/postgres";
import { startRpcProxy, type RpcProxy } from "../helpers/rpcProxy";
import { scaledMs } from "../helpers/deadlines";
import {
  apiKeyRecord,
  coinQuotaCount,
  endServerSession,
  killService,
  lockWaiterPid,
  restartIfKilled,
  serverSessionGone,
} from "../helpers/crash";

const postgresUp = await postgresAvailable();

type Tx = { chainId: Hex; from: Hex; to: Hex; value: Hex; data: Hex; gas: Hex };
type ConfirmBody = { launch_id: string; tx_hash: Hash };

/**
 * Intent (with an Idempotency-Key) -> personal_sign -> build -> the wallet sends the transaction
 * unchanged and waits for its receipt.
 */
async function launchUpToConfirm(
  stack: Stack,
  wallet: number,
  fields: { name: string; symbol: string; first_buy_wei: string },
) {
  const intent = await stack.request(
    "/api/v1/evmchain/launches/intent",
    json(
      { creator: devAccount(wallet).address, ...fields },
      { "Idempotency-Key": `crash-intent-${fields.symbol}-${Date.now()}` },
    ),
  );
  expect(intent.status, JSON.stringify(intent.body)).toBe(201);
  const signature = await stack.wallet(wallet).signMessage({ message: intent.body.intent.message });
  const built = await stack.request(
    "/api/v1/evmchain/launches/build",
    json({ launch_id: intent.body.launch_id, intent_signature: signature }),
  );
  expect(built.status, JSON.stringify(built.body)).toBe(200);
  const tx = built.body.transaction as Tx;
  expect(tx.from).toBe(devAccount(wallet).address);
  const hash = await stack
    .wallet(wallet)
    .sendTransaction({ chain: null, to: tx.to, data: tx.data, value: BigInt(tx.value), gas: BigInt(tx.gas) });
  const receipt = await stack.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return {
    launchId: intent.body.launch_id as string,
    hash,
    token: built.body.predicted_token_address as string,
    wallet,
    firstBuyWei: fields.first_buy_wei,
  };
}

const confirm = (stack: Stack, body: ConfirmBody, idempotencyKey: string) =>
  stack.request("/api/v1/evmchain/launches/confirm", json(body, { "Idempotency-Key": idempotencyKey }));

/** Sends the confirm without waiting: settles with the answer, or with the transport error. */
function confirmInFlight(stack: Stack, body: ConfirmBody, idempotencyKey: string) {
  return confirm(stack, body, idempotencyKey).then(
    (answer) => ({ answer, error: undefined }),
    (error: Error) => ({ answer: undefined, error }),
  );
}

/**
 * What the store holds about `hash` and the harness key: launch rows with that transaction, the
 * key's confirmed launches and its "finalized" quota count (all windows). On PGlite the service
 * must be stopped first (one process per data folder); on PostgreSQL it is read beside it.
 */
async function storeFacts(stack: Stack, hash: Hash) {
  const store = await openStore(loadStoreConfig(stack.serviceEnv));
  try {
    const key = await apiKeyRecord(store, stack.apiKey);
    const withTx = await store.db
      .select({ id: launches.id, state: launches.state })
      .from(launches)
      .where(eq(launches.txHash, hash.toLowerCase()));
    const confirmed = await store.db
      .select({ n: sql<number>`count(*)::int` })
      .from(launches)
      .where(and(eq(launches.apiKeyId, key.id), eq(launches.state, "confirmed")));
    const finalizedCount = await coinQuotaCount(store, "coins_finalized", key.wallet);
    return { withTx, confirmedOfKey: confirmed[0]!.n, finalizedCount };
  } finally {
    await store.close();
  }
}

/** Confirmed launches and finalized coins of the key added between two {@link storeFacts} reads. */
function counted(before: Awaited<ReturnType<typeof storeFacts>>, after: Awaited<ReturnType<typeof storeFacts>>) {
  return {
    confirmed: after.confirmedOfKey - before.confirmedOfKey,
    finalized: after.finalizedCount - before.finalizedCount,
  };
}

/**
 * The retries after the restart and everything the service serves about the launch.
 * @returns the confirmed body
 */
async function expectConfirmedOnce(
  stack: Stack,
  launch: Awaited<ReturnType<typeof launchUpToConfirm>>,
  body: ConfirmBody,
  idempotencyKey: string,
) {
  // The identical request (same body, same key) succeeds: nothing the killed request left blocks it.
  const retry = await confirm(stack, body, idempotencyKey);
  expect(retry.status, JSON.stringify(retry.body)).toBe(200);
  expect(retry.body).toMatchObject({
    ok: true,
    launch_id: launch.launchId,
    state: "confirmed",
    tx_hash: launch.hash,
    token_address: launch.token,
  });
  expect(retry.body.first_buy_wei).toBe(launch.firstBuyWei);
  expect(BigInt(retry.body.first_buy_tokens_out)).toBeGreaterThan(0n);
  // A new key gets the same confirmed body (the state machine answers, not a stored response).
  const fresh = await confirm(stack, body, `${idempotencyKey}-new`);
  expect(fresh.status).toBe(200);
  expect(fresh.body).toEqual(retry.body);

  const byId = await stack.request(`/api/v1/evmchain/launches/status?launch_id=${launch.launchId}`);
  expect(byId.body).toMatchObject({
    state: "confirmed",
    terminal: true,
    tx_hash: launch.hash,
    token_address: launch.token,
    failure: null,
  });
  expect((await stack.request(`/api/v1/evmchain/launches/status?tx_hash=${launch.hash}`)).body).toEqual(byId.body);

  // The indexer has the token and its first buy, once. After a crash Ponder reverts to its last
  // safe checkpoint and re-indexes the blocks after it (here the whole devnet) while its HTTP
  // server already answers, so a token read before the revert and a trades read after it can
  // disagree (seen in CI): wait until both show the launch.
  const token = await until(`token ${launch.token} and its first buy indexed`, async () => {
    const res = await stack.request(`/api/v1/evmchain/tokens/${launch.token}`);
    if (res.status !== 200 || res.body.token.trade_count < 1) return undefined;
    const listed = await stack.request(`/api/v1/evmchain/tokens/${launch.token}/trades?limit=200`);
    return listed.status === 200 && listed.body.trades.length >= 1 ? res.body.token : undefined;
  });
  expect(token).toMatchObject({ address: launch.token, trade_count: 1 });
  const trades = await stack.request(`/api/v1/evmchain/tokens/${launch.token}/trades?limit=200`);
  expect(trades.status).toBe(200);
  expect(trades.body.trades).toHaveLength(1);
  expect(trades.body.trades[0]).toMatchObject({
    tx_hash: launch.hash,
    side: "buy",
    eth_amount_wei: launch.firstBuyWei,
    trader: devAccount(launch.wallet).address,
  });
  const page = await stack.request(`/token/${launch.token}`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toMatch(/text\/html/);
  return retry.body;
}

describe("kill -9 while the confirm fetches the receipt (PGlite)", () => {
  let stack: Stack;
  let proxy: RpcProxy;

  beforeAll(async () => {
    stack = await startStack({
      schema: "e2e_crash_confirm",
      database: "pglite",
      // Attempts that outlast the test's kill: the stalled receipt fetch must not time out first.
      env: { API_RPC_TIMEOUT_MS: "120000" },
      serviceRpcUrl: async (anvilRpcUrl) => {
        proxy = await startRpcProxy({ target: anvilRpcUrl });
        return proxy.url;
      },
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await proxy?.stop();
  });

  it(
    "confirms exactly once after a restart; the identical retry is not blocked",
    async () => {
      const launch = await launchUpToConfirm(stack, 1, {
        name: "Crash Receipt",
        symbol: "CRSH",
        first_buy_wei: parseEther("0.03").toString(),
      });
      const body = { launch_id: launch.launchId, tx_hash: launch.hash };
      const idempotencyKey = `crash-confirm-receipt-${Date.now()}`;

      proxy.setMode("stall");
      const inFlight = confirmInFlight(stack, body, idempotencyKey);
      await until("the confirm's receipt fetch held by the proxy", async () =>
        proxy
          .heldCalls()
          .some(
            (call) =>
              call.method === "eth_getTransactionReceipt" &&
              String(call.params[0]).toLowerCase() === launch.hash.toLowerCase(),
          )
          ? true
          : undefined,
      );
      await killService(stack);
      const killed = await inFlight;
      expect(killed.answer, "the confirm must not have been answered before the kill").toBeUndefined();
      proxy.setMode("pass");

      await stack.restart();
      const confirmed = await expectConfirmedOnce(stack, launch, body, idempotencyKey);
      expect(confirmed.token_url).toMatch(new RegExp(`/token/${launch.token}$`));

      // One record with the transaction, and the quota counted once (PGlite: read with the service stopped).
      await stack.service.stop();
      const facts = await storeFacts(stack, launch.hash);
      expect(facts.withTx).toEqual([{ id: launch.launchId, state: "confirmed" }]);
      expect(facts.confirmedOfKey).toBe(1);
      expect(facts.finalizedCount).toBe(1);
    },
    scaledMs(240_000),
  );
});

describe.skipIf(!postgresUp)("kill -9 while the confirm writes the launch (PostgreSQL store)", () => {
  let stack: Stack;
  /** Holds the launch row's lock. */
  let locker: pg.Client;
  /** Reads `pg_stat_activity` outside any transaction (a transaction sees one snapshot of it). */
  let watcher: pg.Client;

  beforeAll(async () => {
    stack = await startStack({ schema: "e2e_crash_pg", database: "postgres" });
    locker = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
    watcher = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
    await locker.connect();
    await watcher.connect();
  });

  afterAll(async () => {
    await locker?.end().catch(() => undefined);
    await watcher?.end().catch(() => undefined);
    await stack?.stop();
  });

  const storeSchema = () => stack.serviceEnv.STORE_SCHEMA!;

  /**
   * Locks the launch row (`SELECT … FOR UPDATE` in an open transaction), sends the confirm, and
   * waits until PostgreSQL reports the service's UPDATE of that row waiting on the lock.
   * @returns the in-flight confirm and the server pid of the blocked session
   */
  async function confirmBlockedOnWrite(launchId: string, body: ConfirmBody, idempotencyKey: string) {
    await locker.query("begin");
    const locked = await locker.query(`select id from "${storeSchema()}".launches where id = $1 for update`, [
      launchId,
    ]);
    expect(locked.rowCount).toBe(1);
    const lockerPid = (await locker.query("select pg_backend_pid() as pid")).rows[0].pid as number;
    const inFlight = confirmInFlight(stack, body, idempotencyKey);
    const blockedPid = await lockWaiterPid(watcher, lockerPid, 'update "launches"');
    return { inFlight, blockedPid };
  }

  /** A test that failed half-way may leave the service killed or the lock taken: start clean. */
  async function startClean(): Promise<void> {
    await locker.query("rollback");
    await restartIfKilled(stack);
  }

  /**
   * Starts clean, launches up to the confirm as dev account `wallet`, holds the confirm's write at
   * the test's row lock and kills the service there; the confirm must not have been answered.
   * @returns the launch, the confirm's body and key, the store before, and the blocked session's pid
   */
  async function killedWhileWriting(
    wallet: number,
    fields: { name: string; symbol: string; first_buy_wei: string },
    keyName: string,
  ) {
    await startClean();
    const launch = await launchUpToConfirm(stack, wallet, fields);
    const body = { launch_id: launch.launchId, tx_hash: launch.hash };
    const idempotencyKey = `crash-confirm-${keyName}-${Date.now()}`;

    const before = await storeFacts(stack, launch.hash);
    const { inFlight, blockedPid } = await confirmBlockedOnWrite(launch.launchId, body, idempotencyKey);
    await killService(stack);
    expect((await inFlight).answer, "the confirm must not have been answered before the kill").toBeUndefined();
    return { launch, body, idempotencyKey, before, blockedPid };
  }

  /** Restarts the service; the retries confirm the launch once, and the key counts it once. */
  async function expectConfirmedOnceAfterRestart(crash: Awaited<ReturnType<typeof killedWhileWriting>>) {
    await stack.restart();
    await expectConfirmedOnce(stack, crash.launch, crash.body, crash.idempotencyKey);
    const facts = await storeFacts(stack, crash.launch.hash);
    expect(facts.withTx).toEqual([{ id: crash.launch.launchId, state: "confirmed" }]);
    expect(counted(crash.before, facts)).toEqual({ confirmed: 1, finalized: 1 });
  }

  it(
    "loses nothing and counts nothing twice when the write never lands",
    async () => {
      const crash = await killedWhileWriting(
        2,
        { name: "Crash Write", symbol: "CWRT", first_buy_wei: parseEther("0.02").toString() },
        "lost",
      );
      // The dead process's statement never completes: its server session is ended before the lock goes.
      await endServerSession(watcher, crash.blockedPid);
      await locker.query("rollback");

      // Nothing half-done is left: not confirmed, and no finalized coin counted for it.
      const crashed = await storeFacts(stack, crash.launch.hash);
      expect(crashed.withTx).toEqual([]);
      expect(counted(crash.before, crashed)).toEqual({ confirmed: 0, finalized: 0 });

      await expectConfirmedOnceAfterRestart(crash);
    },
    scaledMs(240_000),
  );

  it(
    "loses nothing and counts nothing twice when the dead process's write lands after the kill",
    async () => {
      const crash = await killedWhileWriting(
        3,
        { name: "Crash Landed", symbol: "CLND", first_buy_wei: parseEther("0.04").toString() },
        "landed",
      );
      // The lock goes while the dead process's statement still waits: it runs to its end.
      await locker.query("commit");
      await serverSessionGone(watcher, crash.blockedPid);

      // Whatever the dead request did, it did all of it (confirmed and counted) or none of it.
      const crashed = await storeFacts(stack, crash.launch.hash);
      const partial = counted(crash.before, crashed);
      expect([
        { confirmed: 0, finalized: 0 },
        { confirmed: 1, finalized: 1 },
      ]).toContainEqual(partial);
      expect(crashed.withTx).toEqual(partial.confirmed ? [{ id: crash.launch.launchId, state: "confirmed" }] : []);

      await expectConfirmedOnceAfterRestart(crash);
    },
    scaledMs(240_000),
  );
});
