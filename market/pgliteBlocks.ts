/**
 * Whole blocks on PGlite (docs/public.md "One record, one block"): a reach into Ponder 0.17's
 * internals, like `ops/ponderInternals.ts` (here because the market reads take the lock).
 *
 * Why: on PGlite Ponder's query builder replaces `transaction(callback)` by `callback(db)`: a
 * block's writes (the indexing cache's flush table by table, then the checkpoint) run as separate
 * auto-committed statements on the one PGlite session, and PGlite's own mutex is taken per
 * statement only. The API's handle (`ponder:api` `db`, the same builder's `raw`) has the same
 * `transaction`, so `atOneBlock`'s REPEATABLE READ transaction is no transaction there either: a
 * record read between two of the writer's statements saw a token row that already counted a trade
 * whose `trade` and `candle` rows were not written yet (24 h figures one trade behind all-time, on
 * about half the records while trades were indexed).
 *
 * The fix: one in-process lock. {@link serializePgliteBlocks} wraps the writer's
 * `PONDER_DATABASE.userQB.transaction` (every block, reorg and backfill batch goes through it) so
 * that its callback runs holding the lock, and {@link atIndexerBlockBoundary} runs a read holding
 * it: the read sees the database between two whole blocks. Reads run side by side; a waiting block
 * goes before reads that arrive after it, so reads cannot hold the indexer back. Reentrant within one async context
 * (AsyncLocalStorage), so a nested `transaction` inside a block does not wait for itself. On
 * PostgreSQL nothing is wrapped (real transactions there). The lock holds the indexer's next block
 * for the length of a record read (a few statements).
 */
import { AsyncLocalStorage } from "node:async_hooks";

type PonderQb = { $dialect?: string; transaction?: (...args: unknown[]) => Promise<unknown> };
type PonderDatabase = { userQB?: PonderQb };

const held = new AsyncLocalStorage<true>();
let installed: boolean | undefined;
// A readers-writer lock that prefers the writer: reads run side by side between blocks, a block
// waits only for the reads already running, and reads arriving while a block waits queue behind
// it (a fair queue let sequential reads hold the indexer to one block per read: it fell behind).
let readers = 0;
let writing = false;
const waitingWriters: Array<() => void> = [];
let waitingReaders: Array<() => void> = [];

function release(): void {
  if (writing || readers > 0) return;
  const writer = waitingWriters.shift();
  if (writer) {
    writing = true;
    writer();
    return;
  }
  const ready = waitingReaders;
  waitingReaders = [];
  readers += ready.length;
  for (const r of ready) r();
}

/** Runs a block (`write`) or a read holding the lock; at once when this context already holds it. */
async function underLock<T>(kind: "read" | "write", run: () => Promise<T>): Promise<T> {
  if (held.getStore()) return run();
  if (kind === "write") {
    if (writing || readers > 0) await new Promise<void>((r) => waitingWriters.push(r));
    else writing = true;
  } else if (writing || waitingWriters.length > 0) await new Promise<void>((r) => waitingReaders.push(r));
  else readers++;
  try {
    return await held.run(true, run);
  } finally {
    if (kind === "write") writing = false;
    else readers--;
    release();
  }
}

/**
 * Wraps Ponder's writer transaction on PGlite so each block runs holding the lock. Idempotent.
 * @returns true when the writer is wrapped (Ponder on PGlite), false otherwise (PostgreSQL, or
 *   outside a Ponder process)
 */
export function serializePgliteBlocks(): boolean {
  if (installed !== undefined) return installed;
  const qb = (globalThis as { PONDER_DATABASE?: PonderDatabase }).PONDER_DATABASE?.userQB;
  if (!qb?.transaction || qb.$dialect !== "pglite") {
    // Not known yet outside Ponder: ask again next time.
    if (qb) installed = false;
    return false;
  }
  const original = qb.transaction.bind(qb);
  qb.transaction = (...args: unknown[]) => underLock("write", () => original(...args));
  installed = true;
  return true;
}

/**
 * Runs `read` between two of the indexer's blocks when the writer is serialized (PGlite), else
 * at once (PostgreSQL: `read` runs in a real snapshot transaction).
 * @param read - the reads (they must not wait for the indexer)
 * @returns what `read` returns
 */
export function atIndexerBlockBoundary<T>(read: () => Promise<T>): Promise<T> {
  return serializePgliteBlocks() ? underLock("read", read) : read();
}
