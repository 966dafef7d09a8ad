/**
 * Crash-test steps shared by the write-path crash tests (`test/e2e.crash.*.test.ts`): killing the
 * service with `SIGKILL`, starting it again after a test that failed half-way, finding the server
 * session a request holds at a test's lock, ending it, and reading the harness key's counts from
 * the offchain store.
 */
import { eq, sql } from "drizzle-orm";
import type pg from "pg";
import { expect } from "vitest";
import { coinQuotaBucket, type CoinQuotaKind } from "../../store/coinQuotas";
import type { Store } from "../../store/index";
import { hashApiKey } from "../../store/keys";
import { apiKeys, counters } from "../../store/schema";
import { until, type Stack } from "./harness";

/**
 * `SIGKILL` of the stack's running service; resolves when the process is gone.
 * @throws (assertion) when the service was not running, or died of something else than the signal
 */
export async function killService(stack: Stack): Promise<void> {
  const { child, exited } = stack.service;
  expect(child.exitCode).toBeNull();
  child.kill("SIGKILL");
  expect(await exited).toBeNull();
  expect(child.signalCode).toBe("SIGKILL");
}

/**
 * Starts the stack's service again (`stack.restart`, resolves when ready) when it is not running,
 * e.g. because a test failed between its kill and its restart; a running service is left alone.
 */
export async function restartIfKilled(stack: Stack): Promise<void> {
  const { child } = stack.service;
  if (child.exitCode !== null || child.signalCode !== null) await stack.restart();
}

/**
 * Waits until a server session whose statement starts with `statementPrefix` (case-insensitive)
 * waits on a lock that the session `lockerPid` holds.
 * @param watcher - a connected client outside any transaction (a transaction sees one snapshot of
 *   `pg_stat_activity`)
 * @param lockerPid - server pid of the session holding the lock (`pg_backend_pid()`)
 * @param statementPrefix - start of the blocked statement, e.g. `update "launches"`
 * @returns the blocked session's server pid
 * @throws Error naming the statement when none blocks within `until`'s deadline
 */
export function lockWaiterPid(watcher: pg.Client, lockerPid: number, statementPrefix: string): Promise<number> {
  return until(`a ${statementPrefix}… waiting on the test's lock`, async () => {
    const rows = (
      await watcher.query(
        `select pid from pg_stat_activity where wait_event_type = 'Lock' and $1 = any(pg_blocking_pids(pid)) and query ilike $2`,
        [lockerPid, `${statementPrefix}%`],
      )
    ).rows as Array<{ pid: number }>;
    return rows[0]?.pid;
  });
}

/**
 * Waits until server session `pid` has ended.
 * @param watcher - a connected client outside any transaction
 */
export async function serverSessionGone(watcher: pg.Client, pid: number): Promise<void> {
  await until(`server session ${pid} ended`, async () =>
    (await watcher.query("select 1 from pg_stat_activity where pid = $1", [pid])).rows.length === 0 ? true : undefined,
  );
}

/**
 * Ends server session `pid` (`pg_terminate_backend`: a killed service's blocked statement never
 * completes) and waits until it is gone.
 * @param watcher - a connected client outside any transaction
 */
export async function endServerSession(watcher: pg.Client, pid: number): Promise<void> {
  await watcher.query("select pg_terminate_backend($1)", [pid]);
  await serverSessionGone(watcher, pid);
}

/**
 * The stored record of an API key.
 * @param apiKey - the key's secret (e.g. `stack.apiKey`, the harness key)
 * @returns its id and wallet (checksummed, as stored)
 * @throws Error when the store has no such key
 */
export async function apiKeyRecord(store: Store, apiKey: string): Promise<{ id: string; wallet: string }> {
  const rows = await store.db
    .select({ id: apiKeys.id, wallet: apiKeys.wallet })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, hashApiKey(apiKey)));
  if (!rows[0]) throw new Error("the API key is not in the store");
  return rows[0];
}

/**
 * Coins a wallet's daily quota of `kind` has counted, summed over all its windows.
 * @param wallet - the key's wallet as stored ({@link apiKeyRecord})
 * @returns the number of counted coins
 */
export async function coinQuotaCount(store: Store, kind: CoinQuotaKind, wallet: string): Promise<number> {
  const rows = await store.db
    .select({ n: sql<number>`coalesce(sum(${counters.hits}), 0)::int` })
    .from(counters)
    .where(eq(counters.bucket, coinQuotaBucket(kind, wallet)));
  return rows[0]!.n;
}
