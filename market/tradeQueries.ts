/**
 * Read queries over the indexer's `trade` table, newest first, bounded by a `limit`; keyset
 * cursors use the trade's block and log position.
 */
import { and, desc, eq, lt, or } from "ponder";
import * as schema from "../ponder.schema";
import { decodeCursor, encodeCursor, tradeCursorShape } from "./cursor";
import type { MarketDb } from "./db";

type SQL = NonNullable<ReturnType<typeof and>>;

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

/**
 * One page of trades (every token's, or one token's), newest first, and the cursor of the next
 * page (null on the last one).
 * @param opts.cursor - the previous page's `next_cursor`
 * @throws InvalidCursorError for a cursor this list did not issue
 */
export async function tradeListPage(db: MarketDb, opts: { limit: number; cursor?: string; token?: `0x${string}` }) {
  const { limit, token } = opts;
  const c = opts.cursor ? decodeCursor(opts.cursor, tradeCursorShape) : undefined;
  const rows = await tradePage(db, { limit, token, before: c ? { b: BigInt(c.b), l: c.l } : undefined });
  const last = rows.at(-1);
  return {
    rows,
    next_cursor:
      rows.length === limit && last ? encodeCursor({ b: last.blockNumber.toString(), l: last.logIndex }) : null,
  };
}
