/**
 * `kill -9` of the service in the middle of a launch intent (proof under stress;
 * docs/launch.md "Crash safety of the intent"): after a restart nothing is lost or counted twice.
 *
 * An intent makes three writes: one coin on the key's daily "created" quota, the launch record,
 * and the `Idempotency-Key` record's stored response. The test kills the real service process
 * (SIGKILL) at a point it reaches deterministically inside the request, by holding PostgreSQL
 * locks the service must wait on (the store on PostgreSQL):
 *
 * - **before the launch insert**: the test holds `launches` in SHARE mode, so the request blocks
 *   at the insert, after the quota was counted;
 * - **before the response is stored**: the test then also holds the request's idempotency record
 *   (`FOR UPDATE`) and lets the insert through, so the request blocks when it stores its response,
 *   after the quota and the launch were written.
 *
 * The blocked server session is ended after the kill (the dead process never sends another
 * statement). The key's reservation stays "in flight": the identical retry gets 409 until its
 * 60 s lock runs out; the test then moves the lock's expiry into the past (standing in for the
 * wait) and retries on the restarted service. Asserted: nothing of the killed request remains,
 * the retry creates exactly one launch and counts exactly one coin, and a further retry replays
 * the same response.
 */
import pg from "pg";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devAccount } from "../../devnet/clients";
import { loadStoreConfig, openStore } from "../../store/index";
import { idempotencyRecords, launches } from "../../store/schema";
import { startStack, jsonPost as json, type Stack } from "../helpers/harness";
import { postgresAvailable } from "../helpers/postgres";
import { scaledMs } from "../helpers/deadlines";
import {
  apiKeyRecord,
  coinQuotaCount,
  endServerSession,
  killService,
  lockWaiterPid,
  restartIfKilled,
} from "../helpers/crash";

const postgresUp = await postgresAvailable();

describe.skipIf(!postgresUp)("kill -9 in the middle of a launch intent (PostgreSQL store)", () => {
  let stack: Stack;
  /** Holds `launches` in SHARE mode. */
  let tableLocker: pg.Client;
  /** Holds the request's idempotency record. */
  let rowLocker: pg.Client;
  /** Reads `pg_stat_activity` outside any transaction (a transaction sees one snapshot of it). */
  let watcher: pg.Client;

  beforeAll(async () => {
    stack = await startStack({ schema: "e2e_crash_intent", database: "postgres" });
    tableLocker = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
    rowLocker = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
    watcher = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
    await tableLocker.connect();
    await rowLocker.connect();
    await watcher.connect();
  });

  afterAll(async () => {
    await tableLocker?.end().catch(() => undefined);
    await rowLocker?.end().catch(() => undefined);
    await watcher?.end().catch(() => undefined);
    await stack?.stop();
  });

  const storeSchema = () => stack.serviceEnv.STORE_SCHEMA!;

  const postIntent = (name: string, idempotencyKey: string) =>
    stack.request(
      "/api/v1/evmchain/launches/intent",
      json(
        { creator: devAccount(1).address, name, symbol: "CRASH", first_buy_wei: "0" },
        { "Idempotency-Key": idempotencyKey },
      ),
    );

  /** What the store holds for the harness key: launches named `name`, its "created" count and the key's record. */
  async function storeFacts(name: string, idempotencyKey: string) {
    const store = await openStore(loadStoreConfig(stack.serviceEnv));
    try {
      const key = await apiKeyRecord(store, stack.apiKey);
      const named = await store.db
        .select({ id: launches.id })
        .from(launches)
        .where(and(eq(launches.apiKeyId, key.id), eq(launches.name, name)));
      const createdCount = await coinQuotaCount(store, "coins_created", key.wallet);
      const record = (
        await store.db
          .select({ state: idempotencyRecords.state })
          .from(idempotencyRecords)
          .where(and(eq(idempotencyRecords.scope, key.id), eq(idempotencyRecords.idempotencyKey, idempotencyKey)))
      )[0];
      return { keyId: key.id, launches: named.length, createdCount, record: record?.state ?? null };
    } finally {
      await store.close();
    }
  }

  const backendPid = async (client: pg.Client) =>
    (await client.query("select pg_backend_pid() as pid")).rows[0].pid as number;

  /** SIGKILL of the service, then the end of its blocked server session (it never sends another statement). */
  async function killServiceAndSession(blockedPid: number): Promise<void> {
    await killService(stack);
    await endServerSession(watcher, blockedPid);
  }

  /** A test that failed half-way may leave a lock taken or the service killed: start clean. */
  async function startClean(): Promise<void> {
    await tableLocker.query("rollback");
    await rowLocker.query("rollback");
    await restartIfKilled(stack);
  }

  /**
   * After the kill: the killed request left nothing but its in-flight reservation; the restarted
   * service answers 409 until the lock runs out, then creates the intent exactly once.
   */
  async function expectCreatedOnceAfterRestart(
    name: string,
    idempotencyKey: string,
    before: Awaited<ReturnType<typeof storeFacts>>,
  ) {
    const crashed = await storeFacts(name, idempotencyKey);
    expect({
      launches: crashed.launches,
      created: crashed.createdCount - before.createdCount,
      record: crashed.record,
    }).toEqual({
      launches: 0,
      created: 0,
      record: "in_flight",
    });

    await stack.restart();
    const blocked = await postIntent(name, idempotencyKey);
    expect({ status: blocked.status, error: blocked.body.error }).toEqual({
      status: 409,
      error: "idempotency_in_progress",
    });
    // Stands in for the 60 s lock running out (IDEMPOTENCY_LOCK_MS).
    await watcher.query(
      `update "${storeSchema()}".idempotency_records set locked_until_ms = 0 where scope = $1 and idempotency_key = $2`,
      [crashed.keyId, idempotencyKey],
    );

    const retry = await postIntent(name, idempotencyKey);
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body).toMatchObject({ ok: true, state: "intent_created", intent: { name } });
    const replay = await postIntent(name, idempotencyKey);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(retry.body);

    const after = await storeFacts(name, idempotencyKey);
    expect({
      launches: after.launches,
      created: after.createdCount - before.createdCount,
      record: after.record,
    }).toEqual({
      launches: 1,
      created: 1,
      record: "done",
    });
  }

  /**
   * Holds `launches` in SHARE mode, sends the intent, and waits until its insert blocks there
   * (after the quota was counted and the key reserved).
   * @returns the in-flight intent (undefined when it fails) and the blocked server session's pid
   */
  async function intentHeldAtInsert(name: string, idempotencyKey: string) {
    await tableLocker.query("begin");
    await tableLocker.query(`lock table "${storeSchema()}".launches in share mode`);
    const inFlight = postIntent(name, idempotencyKey).then(
      (answer) => answer,
      () => undefined,
    );
    const blockedPid = await lockWaiterPid(watcher, await backendPid(tableLocker), 'insert into "launches"');
    return { inFlight, blockedPid };
  }

  it(
    "counts nothing when killed before the launch is inserted",
    async () => {
      await startClean();
      const name = `Crash Insert ${Date.now()}`;
      const idempotencyKey = `crash-intent-insert-${Date.now()}`;
      const before = await storeFacts(name, idempotencyKey);

      const { inFlight, blockedPid } = await intentHeldAtInsert(name, idempotencyKey);
      await killServiceAndSession(blockedPid);
      expect(await inFlight, "the intent must not have been answered before the kill").toBeUndefined();
      await tableLocker.query("rollback");

      await expectCreatedOnceAfterRestart(name, idempotencyKey, before);
    },
    scaledMs(240_000),
  );

  it(
    "creates one launch, not two, when killed before its response is stored",
    async () => {
      await startClean();
      const name = `Crash Reply ${Date.now()}`;
      const idempotencyKey = `crash-intent-reply-${Date.now()}`;
      const before = await storeFacts(name, idempotencyKey);

      // Hold the request at its insert, so that its idempotency record exists and can be locked.
      const { inFlight } = await intentHeldAtInsert(name, idempotencyKey);
      await rowLocker.query("begin");
      const locked = await rowLocker.query(
        `select state from "${storeSchema()}".idempotency_records where scope = $1 and idempotency_key = $2 for update`,
        [before.keyId, idempotencyKey],
      );
      expect(locked.rows).toEqual([{ state: "in_flight" }]);
      // Let the insert through: the request goes on until it stores its response, and waits there.
      await tableLocker.query("rollback");
      const blockedPid = await lockWaiterPid(watcher, await backendPid(rowLocker), 'update "idempotency_records"');
      await killServiceAndSession(blockedPid);
      expect(await inFlight, "the intent must not have been answered before the kill").toBeUndefined();
      await rowLocker.query("rollback");

      await expectCreatedOnceAfterRestart(name, idempotencyKey, before);
    },
    scaledMs(240_000),
  );
});
