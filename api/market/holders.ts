/**
 * Holder reads (docs/public.md "Holders"): a token's holders by balance, from the indexer's
 * `holder` table (one row per non-zero balance, `src/LaunchToken.ts`), served by its
 * (token, balance desc, address) index, and the holder record presenter.
 */
import { and, asc, desc, eq, gt, lt, or } from "ponder";
import { getAddress } from "viem";
import { z } from "zod";
import * as schema from "../../ponder.schema";
import type { Deployment } from "../../config/deployment";
import { holderLabel, holderShareBps } from "../../src/domain/holders";
import { lower } from "../../src/domain/hex";
import type { MarketDb } from "./db";

type HolderRow = typeof schema.holder.$inferSelect;

/** How many holders the token detail record carries (`top_holders`). */
export const TOP_HOLDERS = 10;

/** Cursor of holder lists: the last served holder's balance (`b`, decimal) and address (`a`, lowercase). */
export const holderCursorShape = z.object({
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
export async function holderPage(db: MarketDb, token: string, limit: number, after?: HolderPosition) {
  const h = schema.holder;
  const ofToken = eq(h.token, lower(token));
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
export function holderRecord(row: HolderRow, token: HolderLabelSources, deployment: Pick<Deployment, "contracts">) {
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
export function holderNextCursor(rows: HolderRow[], limit: number): HolderPosition | null {
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
