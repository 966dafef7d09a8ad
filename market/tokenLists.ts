/**
 * Token rows in list order: keyset pages in every sort order and the launch count (the rankings
 * by activity windows are `market/tokenRankings.ts`). Every list is bounded by a `limit`; keyset cursors use `launch_seq` as the unique
 * tie-breaker. Rows only: `market/tokenReads.ts` attaches the figures at one block.
 */
import { and, asc, desc, eq, gt, isNull, lt, lte, or, sql } from "ponder";
import * as schema from "../ponder.schema";
import type { MarketDb } from "./db";
import type { TokenRow } from "./tokenLookups";

type SQL = NonNullable<ReturnType<typeof and>>;

/** Sort orders of token lists; every order ends with `launch_seq` as a unique tie-breaker. */
export type TokenSort = "new" | "old" | "market_cap" | "volume" | "trades";

/** Columns behind each sort (key column; null = launch order only). */
function sortColumn(sort: TokenSort) {
  const tk = schema.token;
  return sort === "market_cap"
    ? tk.marketCapWei
    : sort === "volume"
      ? tk.volumeWei
      : sort === "trades"
        ? tk.tradeCount
        : null;
}

/** Sort key of a row for a cursor (decimal string), or undefined for launch-order sorts. */
export function sortKey(row: TokenRow, sort: TokenSort): string | undefined {
  return sort === "market_cap"
    ? row.marketCapWei.toString()
    : sort === "volume"
      ? row.volumeWei.toString()
      : sort === "trades"
        ? String(row.tradeCount)
        : undefined;
}

/**
 * One page of tokens in `sort` order after the cursor position.
 * @param opts.after - last served `{ s: launch_seq, k: sort key }`
 * @param opts.maxLaunchBlock - only launches at or below this block (confirmed launches)
 * @param opts.onlyNotGraduated - exclude graduated tokens
 * @param opts.minSeq - only `launch_seq` greater than this (ascending feeds)
 */
export async function tokenPage(
  db: MarketDb,
  opts: {
    sort: TokenSort;
    limit: number;
    after?: { s: number; k?: string };
    maxLaunchBlock?: bigint;
    onlyNotGraduated?: boolean;
    minSeq?: number;
  },
): Promise<TokenRow[]> {
  const tk = schema.token;
  const where: (SQL | undefined)[] = [];
  if (opts.maxLaunchBlock !== undefined) where.push(lte(tk.launchBlockNumber, opts.maxLaunchBlock));
  if (opts.onlyNotGraduated) where.push(isNull(tk.graduatedAtSec));
  if (opts.minSeq !== undefined) where.push(gt(tk.launchSeq, opts.minSeq));
  const col = sortColumn(opts.sort);
  if (opts.after) {
    if (opts.sort === "old") where.push(gt(tk.launchSeq, opts.after.s));
    else if (!col) where.push(lt(tk.launchSeq, opts.after.s));
    else {
      const seq = opts.after.s;
      // Keyset: a smaller sort key, or the same key and an older launch.
      if (col === tk.tradeCount) {
        const k = Number(opts.after.k ?? 0);
        where.push(or(lt(tk.tradeCount, k), and(eq(tk.tradeCount, k), lt(tk.launchSeq, seq))));
      } else {
        const weiCol = col === tk.marketCapWei ? tk.marketCapWei : tk.volumeWei;
        const k = BigInt(opts.after.k ?? 0);
        where.push(or(lt(weiCol, k), and(eq(weiCol, k), lt(tk.launchSeq, seq))));
      }
    }
  }
  const order =
    opts.sort === "old" ? [asc(tk.launchSeq)] : col ? [desc(col), desc(tk.launchSeq)] : [desc(tk.launchSeq)];
  return db
    .select()
    .from(tk)
    .where(and(...where))
    .orderBy(...order)
    .limit(opts.limit);
}

/** Number of launches at or below a block (the token list's candidates). */
export async function countLaunches(db: MarketDb, maxLaunchBlock: bigint): Promise<number> {
  const rows = await db
    .select({ n: sql<string>`count(*)::text` })
    .from(schema.token)
    .where(lte(schema.token.launchBlockNumber, maxLaunchBlock));
  return Number(rows[0]?.n ?? 0);
}
