/**
 * Holder reads (docs/public.md "Holders"): a token's holders by balance, from the indexer's
 * `holder` table (one row per non-zero balance, `src/indexing/LaunchToken.ts`), served by its
 * (token, balance desc, address) index, the holder record presenter, and the holder page and
 * token detail record shared by the public and v1 routes.
 */
import { and, asc, desc, eq, gt, lt, or } from "ponder";
import { getAddress } from "viem";
import { z } from "zod";
import * as schema from "../ponder.schema";
import type { Deployment } from "../config/deployment";
import { holderLabel, holderShareBps } from "../src/domain/holders";
import { lower } from "../src/domain/hex";
import type { MarketDb } from "./db";
import type { RecordSettings } from "../config/public";
import { decodeCursor, encodeCursor } from "./cursor";
import { findTokenHolderFacts } from "./tokenLookups";
import { tokenRecord } from "./tokenRecord";
import { TokenNotFoundError } from "./errors";
import { tokenIntegrity } from "./integrity";

type HolderRow = typeof schema.holder.$inferSelect;

/** How many holders the token detail record carries (`top_holders`). */
export const TOP_HOLDERS = 10;

/** Cursor of holder lists: the last served holder's balance (`b`, decimal) and address (`a`, lowercase). */
const holderCursorShape = z.object({
  b: z.string().regex(/^\d{1,80}$/),
  a: z.string().regex(/^0x[0-9a-f]{40}$/),
});

/** The position after which the next holder page starts (what the cursor encodes). */
export type HolderPosition = { balanceWei: bigint; address: `0x${string}` };

/**
 * One page of a token's holders: balance descending, then address ascending (a total order, so
 * pages neither skip nor repeat a holder whose balance did not change between requests).
 * @param token - the token address (any case)
 * @param limit - page size
 * @param after - position of the previous page's last holder; none for the first page
 * @returns at most `limit` holder rows (balances > 0)
 */
async function holderPage(db: MarketDb, token: string, limit: number, after?: HolderPosition) {
  const h = schema.holder;
  // Rows at 0 are former holders (ponder.schema.ts `holder`).
  const ofToken = and(eq(h.token, lower(token)), gt(h.balanceWei, 0n));
  const where = after
    ? and(
        ofToken,
        or(lt(h.balanceWei, after.balanceWei), and(eq(h.balanceWei, after.balanceWei), gt(h.address, after.address))),
      )
    : ofToken;
  return db.select().from(h).where(where).orderBy(desc(h.balanceWei), asc(h.address)).limit(limit);
}

/** The addresses holder records label: the token's pool and factory, the deployment's locker and position manager. */
export type HolderLabelSources = { pool: string; factory: string; totalSupply: bigint };

/**
 * Holder record: `address` (checksummed), `balance_wei` (token base units), `share_bps` (of the
 * total supply, rounded down) and `label` (`pool`, `fee_locker`, `position_manager`, `factory`,
 * `burn`, else null; `src/domain/holders.ts`).
 * @param row - a `holder` row
 * @param token - the token's pool, factory and total supply
 * @param deployment - the fee locker and position manager addresses
 */
function holderRecord(row: HolderRow, token: HolderLabelSources, deployment: Pick<Deployment, "contracts">) {
  return {
    address: getAddress(row.address),
    balance_wei: row.balanceWei,
    share_bps: holderShareBps(row.balanceWei, token.totalSupply),
    label: holderLabel(row.address, {
      pool: token.pool,
      factory: token.factory,
      feeLocker: deployment.contracts.feeLocker,
      positionManager: deployment.contracts.nonfungiblePositionManager,
    }),
    updated_block_number: Number(row.blockNumber),
    updated_timestamp_sec: Number(row.timestampSec),
  };
}

/** The holder page's cursor after `rows` (null after a short page). */
function holderNextCursor(rows: HolderRow[], limit: number): HolderPosition | null {
  const last = rows.at(-1);
  return rows.length === limit && last ? { balanceWei: last.balanceWei, address: last.address } : null;
}

/**
 * The `top_holders` of a token detail record: the {@link TOP_HOLDERS} largest balances, as holder records.
 * @param token - the token row's address, pool, factory and total supply
 */
export async function topHolders(
  db: MarketDb,
  token: HolderLabelSources & { address: string },
  deployment: Pick<Deployment, "contracts">,
) {
  const rows = await holderPage(db, token.address, TOP_HOLDERS);
  return rows.map((r) => holderRecord(r, token, deployment));
}

/**
 * The holder position a holder-list cursor encodes.
 * @param cursor - a `next_cursor` of a holder page
 * @throws InvalidCursorError when it is not one a holder page issued
 */
export function holderPosition(cursor: string): HolderPosition {
  const c = decodeCursor(cursor, holderCursorShape);
  return { balanceWei: BigInt(c.b), address: c.a as `0x${string}` };
}

/**
 * One holder page of a launched token, as the public and v1 holder lists serve it:
 * `{token, holder_count, holders, next_cursor}` (holder records, `next_cursor` null after a short page).
 * @param address - the token address (checksummed; echoed as `token`)
 * @param after - the position of the previous page's last holder ({@link holderPosition}); none for the first page
 * @throws TokenNotFoundError when no launched token has this address
 */
export async function holderList(
  db: MarketDb,
  address: `0x${string}`,
  limit: number,
  after: HolderPosition | undefined,
  deployment: Pick<Deployment, "contracts">,
) {
  const facts = await findTokenHolderFacts(db, address);
  if (!facts) throw new TokenNotFoundError(`no launched token at ${address}`);
  const rows = await holderPage(db, address, limit, after);
  const next = holderNextCursor(rows, limit);
  return {
    token: address,
    holder_count: facts.holderCount,
    holders: rows.map((r) => holderRecord(r, facts, deployment)),
    next_cursor: next ? encodeCursor({ b: next.balanceWei.toString(), a: next.address }) : null,
  };
}

/**
 * The token detail record the public and v1 token endpoints serve: the token record with
 * `top_holders` (the {@link TOP_HOLDERS} largest balances) and `integrity` (market/integrity.ts).
 * @param row - a token row with its 24 h figures (`findToken`, or `withStats`)
 * @param settings - base URL and public settings of the record presenter, the deployment (fee locker) and the creator-funding rows
 */
export async function tokenDetail(
  db: MarketDb,
  row: Parameters<typeof tokenRecord>[0],
  settings: RecordSettings & Parameters<typeof tokenIntegrity>[2],
) {
  const top = await topHolders(db, row, settings.deployment);
  const integrity = await tokenIntegrity(db, row.address, settings);
  if (!integrity) throw new TokenNotFoundError(`no launched token at ${row.address}`);
  return { ...tokenRecord(row, settings), top_holders: top, integrity };
}
