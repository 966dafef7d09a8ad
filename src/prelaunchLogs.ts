/**
 * Pool logs seen before their pool's launch event (table `prelaunch_pool_logs`, see
 * `ponder.schema.ts`): the pool handlers record them, the launch handler takes those of its own
 * transaction. Invariant: Ponder delivers a transaction's logs in log-index order, so when the
 * launch event is handled the row holds exactly the launch transaction's earlier pool logs (a
 * different, earlier transaction's logs are replaced by the first log of the next one).
 */
import type { Context } from "ponder:registry";
import { prelaunchPoolLogs, type PrelaunchPoolLog } from "../ponder.schema";

type Db = Context["db"];

/**
 * Records one log of a pool that has no launch indexed yet.
 * @param pool - the pool's address, lowercase
 * @param txHash - the log's transaction
 * @param log - the log's index and decoded fields (amounts as decimal strings)
 */
export async function recordPrelaunchLog(db: Db, pool: `0x${string}`, txHash: `0x${string}`, log: PrelaunchPoolLog): Promise<void> {
  await db
    .insert(prelaunchPoolLogs)
    .values({ pool, txHash, logs: [log] })
    .onConflictDoUpdate((row) => (row.txHash === txHash ? { logs: [...row.logs, log] } : { txHash, logs: [log] }));
}

/**
 * Takes (returns and deletes) the pool logs of `txHash` that precede `beforeLogIndex`.
 * @returns the logs in log-index order; empty when the pool had none in this transaction
 */
export async function takePrelaunchLogs(
  db: Db,
  pool: `0x${string}`,
  txHash: `0x${string}`,
  beforeLogIndex: number,
): Promise<PrelaunchPoolLog[]> {
  const row = await db.find(prelaunchPoolLogs, { pool });
  if (!row) return [];
  await db.delete(prelaunchPoolLogs, { pool });
  if (row.txHash !== txHash) return [];
  return row.logs.filter((l) => l.logIndex < beforeLogIndex).sort((a, b) => a.logIndex - b.logIndex);
}
