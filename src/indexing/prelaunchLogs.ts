/**
 * Pool logs seen before their pool's launch event (table `prelaunch_pool_logs`, see
 * `ponder.schema.ts`): the pool handlers record them, the launch handler takes those of its own
 * transaction. Invariant: Ponder delivers a transaction's logs in log-index order, so when the
 * launch event is handled the row holds exactly the launch transaction's earlier pool logs (a
 * different, earlier transaction's logs are replaced by the first log of the next one).
 */
import type { Context } from "ponder:registry";
import { prelaunchPoolLogs, type PrelaunchPoolLog } from "../../ponder.schema";
import { lower } from "../domain/hex";

type Db = Context["db"];

/** Where a pool log stands: its pool, transaction and index (as in a Ponder event). */
type PoolLogPosition = { log: { address: `0x${string}`; logIndex: number }; transaction: { hash: `0x${string}` } };

/** `Omit` applied to each member of a union. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A prelaunch log's kind and decoded fields, without its index. */
type PrelaunchFields = OmitEach<PrelaunchPoolLog, "logIndex">;

/**
 * Records one log of a pool that has no launch indexed yet.
 * @param event - the Ponder event of the log (its pool address, log index and transaction hash)
 * @param fields - the log's kind and decoded fields (amounts as decimal strings)
 */
export async function recordPrelaunchLog(db: Db, event: PoolLogPosition, fields: PrelaunchFields): Promise<void> {
  const pool = lower(event.log.address);
  const txHash = lower(event.transaction.hash);
  const log = { ...fields, logIndex: event.log.logIndex } as PrelaunchPoolLog;
  await db
    .insert(prelaunchPoolLogs)
    .values({ pool, txHash, logs: [log] })
    .onConflictDoUpdate((row) => (row.txHash === txHash ? { logs: [...row.logs, log] } : { txHash, logs: [log] }));
}

/**
 * Takes (returns and empties) the pool logs of `txHash` that precede `beforeLogIndex`. The row
 * stays, emptied, rather than being deleted: Ponder runs a `delete` against the database at once
 * (a round trip per launch), an update stays in its in-memory cache. Once the launch is indexed
 * the pool handlers never write the row again (they find the pool).
 * @returns the logs in log-index order; empty when the pool had none in this transaction
 */
export async function takePrelaunchLogs(
  db: Db,
  pool: `0x${string}`,
  txHash: `0x${string}`,
  beforeLogIndex: number,
): Promise<PrelaunchPoolLog[]> {
  const row = await db.find(prelaunchPoolLogs, { pool });
  if (!row || row.logs.length === 0) return [];
  await db.update(prelaunchPoolLogs, { pool }).set({ logs: [] });
  if (row.txHash !== txHash) return [];
  return row.logs.filter((l) => l.logIndex < beforeLogIndex).sort((a, b) => a.logIndex - b.logIndex);
}
