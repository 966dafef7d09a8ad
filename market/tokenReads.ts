/**
 * Token records' data read at one indexed block (docs/public.md "One record, one block"): the rows
 * and every figure `tokenRecord` renders (all-time, 24 h, activity windows, ETH/USD) come from one
 * snapshot ({@link atOneBlock}), and each row carries the block (`asOf`, served as `as_of_block`).
 */
import { eq, inArray } from "ponder";
import type { Address } from "viem";
import * as schema from "../ponder.schema";
import { lower } from "../src/domain/hex";
import { decodeCursor, encodeCursor, tokenCursorShape } from "./cursor";
import type { MarketDb } from "./db";
import { TokenNotFoundError } from "./errors";
import type { MetadataSource } from "./metadata";
import { atOneBlock } from "./snapshot";
import type { ActivityWindowName, TopSort } from "../src/domain/activityWindows";
import { sortKey, type TokenSort, tokenPage } from "./tokenLists";
import { topTokens, trendingTokens } from "./tokenRankings";
import type { TokenRow } from "./tokenLookups";
import { type EthUsdNow, ethUsdAgeAt, type TokenWithStats, withStats } from "./tokenStats";

/** Most addresses one batch read takes (`GET /api/public/tokens?addresses=`, docs/public.md "Batch reads"). */
export const TOKEN_BATCH_MAX = 30;

/**
 * Selects items holding token rows and attaches every row's figures, all in one snapshot.
 * @param select - the row read (through the `tx` it gets: lists, search, trending)
 * @param rowOf - the token row of an item
 * @returns the items in `select`'s order, each with its row's figures and the snapshot's block (`asOf`)
 * @example await itemsAtOneBlock(db, now, (tx) => searchTokens(tx, "pep", 10), (h) => h.row) // [{ item, token }]
 */
export async function itemsAtOneBlock<T>(
  db: MarketDb,
  nowSec: number,
  select: (tx: MarketDb) => Promise<T[]>,
  rowOf: (item: T) => TokenRow,
  storedMetadata?: MetadataSource,
): Promise<Array<{ item: T; token: TokenWithStats }>> {
  return atOneBlock(db, async (tx, asOf) => {
    const items = await select(tx);
    const rows = await withStats(tx, items.map(rowOf), nowSec, storedMetadata);
    // The reference price's age is measured at the snapshot's head: one answer for one block.
    const aged = (ref: EthUsdNow | null | undefined) =>
      ref && asOf ? ethUsdAgeAt(ref, Number(asOf.timestampSec)) : ref;
    return items.map((item, i) => ({ item, token: { ...rows[i]!, ethUsd: aged(rows[i]!.ethUsd), asOf } }));
  });
}

/** {@link itemsAtOneBlock} for a plain row read: the rows with their figures, in `select`'s order. */
export async function tokensAtOneBlock(
  db: MarketDb,
  nowSec: number,
  select: (tx: MarketDb) => Promise<TokenRow[]>,
  storedMetadata?: MetadataSource,
): Promise<TokenWithStats[]> {
  return (await itemsAtOneBlock(db, nowSec, select, (r) => r, storedMetadata)).map((x) => x.token);
}

/**
 * The token with this address, its 24 h figures and activity windows at `nowSec` and its stored
 * creator metadata (`withStats`), all at one block; or null.
 */
export async function findToken(db: MarketDb, address: Address, nowSec: number, storedMetadata?: MetadataSource) {
  const rows = await tokensAtOneBlock(
    db,
    nowSec,
    (tx) =>
      tx
        .select()
        .from(schema.token)
        .where(eq(schema.token.address, lower(address)))
        .limit(1),
    storedMetadata,
  );
  return rows[0] ?? null;
}

/** The token with this slug and its figures at one block ({@link findToken}), or null. */
export async function findTokenRecordBySlug(
  db: MarketDb,
  slug: string,
  nowSec: number,
  storedMetadata?: MetadataSource,
) {
  const rows = await tokensAtOneBlock(
    db,
    nowSec,
    (tx) => tx.select().from(schema.token).where(eq(schema.token.slug, slug)).limit(1),
    storedMetadata,
  );
  return rows[0] ?? null;
}

/**
 * The tokens with these addresses, in the order given, each with its figures at one block for all
 * of them (`withStats`), or null for an address with no launched token. One primary-key read for
 * the rows, then `withStats` once for all of them, in one snapshot.
 * @param addresses - distinct addresses (any case), at most {@link TOKEN_BATCH_MAX} (the route bounds them)
 */
export async function findTokens(
  db: MarketDb,
  addresses: readonly Address[],
  nowSec: number,
  storedMetadata?: MetadataSource,
) {
  if (addresses.length === 0) return [];
  const withFigures = await tokensAtOneBlock(
    db,
    nowSec,
    (tx) =>
      tx
        .select()
        .from(schema.token)
        .where(inArray(schema.token.address, addresses.map(lower)))
        .limit(addresses.length),
    storedMetadata,
  );
  const byAddress = new Map(withFigures.map((r) => [r.address.toLowerCase(), r]));
  return addresses.map((a) => byAddress.get(lower(a)) ?? null);
}

/**
 * The token with this address and its figures ({@link findToken}).
 * @throws TokenNotFoundError when no launched token has this address
 */
export async function requireToken(db: MarketDb, address: Address, nowSec: number, storedMetadata?: MetadataSource) {
  const row = await findToken(db, address, nowSec, storedMetadata);
  if (!row) throw new TokenNotFoundError(`no launched token at ${address}`);
  return row;
}

/**
 * Trending tokens (`trendingTokens`, docs/public.md "Trending") with their figures, ranked and
 * read at one block and one clock, so each record's windows are the ones it was ranked by.
 * @returns highest score first, at most `limit`
 */
export async function trendingRecords(db: MarketDb, nowSec: number, limit: number, storedMetadata?: MetadataSource) {
  return tokensAtOneBlock(db, nowSec, (tx) => trendingTokens(tx, nowSec, limit), storedMetadata);
}

/**
 * A top list (`topTokens`, docs/public.md "Top lists"): the tokens traded in `window`, in `sort`
 * order, with their figures, ranked and read at one block and one clock.
 * @returns at most `limit` records in list order
 */
export async function topRecords(
  db: MarketDb,
  nowSec: number,
  opts: { window: ActivityWindowName; sort: TopSort; limit: number },
  storedMetadata?: MetadataSource,
) {
  return tokensAtOneBlock(db, nowSec, (tx) => topTokens(tx, nowSec, opts), storedMetadata);
}

/**
 * One page of a token list with the rows' figures at one block ({@link tokensAtOneBlock}), and the cursor of the
 * next page (null on the last one).
 * @param opts.cursor - the previous page's `next_cursor`
 * @param storedMetadata - creator metadata of confirmed launches (none when not given)
 * @throws InvalidCursorError for a cursor this list did not issue
 */
export async function tokenListPage(
  db: MarketDb,
  nowSec: number,
  opts: { sort: TokenSort; limit: number; cursor?: string; onlyNotGraduated?: boolean },
  storedMetadata?: MetadataSource,
) {
  const { sort, limit } = opts;
  const after = opts.cursor ? decodeCursor(opts.cursor, tokenCursorShape) : undefined;
  const rows = await tokensAtOneBlock(
    db,
    nowSec,
    (tx) => tokenPage(tx, { sort, limit, after, onlyNotGraduated: opts.onlyNotGraduated }),
    storedMetadata,
  );
  const last = rows.at(-1);
  const key = last ? sortKey(last, sort) : undefined;
  return {
    rows,
    next_cursor: rows.length === limit && last ? encodeCursor({ s: last.launchSeq, ...(key ? { k: key } : {}) }) : null,
  };
}
