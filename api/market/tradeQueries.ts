/**
 * Read queries over the indexer's `trade` table, newest first, bounded by a `limit`; keyset
 * cursors use the trade's block and log position.
 */
import { and, desc, eq, lt, or } from "ponder";
import * as schema from "../../ponder.schema";
import type { MarketDb } from "./db";

type SQL = NonNullable<ReturnType<typeof and>>;

/** Trades across every launched token, newest first. */
export async function recentTrades(db: MarketDb, limit: number) {
  return db
    .select()
    .from(schema.trade)
    .orderBy(desc(schema.trade.blockNumber), desc(schema.trade.logIndex))
    .limit(limit);
}

/**
 * Trades of every token (or one), newest first, strictly before the cursor position and, with
 * `beforeTimestampSec`, with a block timestamp strictly below it (unix seconds).
 */
export async function tradePage(
  db: MarketDb,
  opts: { limit: number; token?: `0x${string}`; before?: { b: bigint; l: number }; beforeTimestampSec?: bigint },
) {
  const t = schema.trade;
  const where: (SQL | undefined)[] = [];
  if (opts.token) where.push(eq(t.token, opts.token));
  if (opts.before)
    where.push(
      or(lt(t.blockNumber, opts.before.b), and(eq(t.blockNumber, opts.before.b), lt(t.logIndex, opts.before.l))),
    );
  if (opts.beforeTimestampSec !== undefined) where.push(lt(t.timestampSec, opts.beforeTimestampSec));
  return db
    .select()
    .from(t)
    .where(and(...where))
    .orderBy(desc(t.blockNumber), desc(t.logIndex))
    .limit(opts.limit);
}
