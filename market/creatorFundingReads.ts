/**
 * The indexed rows the creator-funding scan needs (launches/creatorFunding.ts; docs/public.md
 * "Launch integrity", `creator_funded`): launches whose sniper window is confirmed, in launch
 * order, and a launch's early buys. Both read bounded ranges of an index.
 */
import { sql } from "ponder";
import * as schema from "../ponder.schema";
import type { EarlyBuy } from "../src/domain/creatorFunding";
import { lower } from "../src/domain/hex";
import { SNIPER_WINDOW_BLOCKS } from "../src/domain/integrity";
import { rowsOf, type MarketDb } from "./db";

/** A launch the scan reads: its token, creator, launch block and `launch_seq`. */
export type LaunchToScan = { token: string; creator: string; launchBlockNumber: bigint; launchSeq: number };

/**
 * Launches after `afterSeq` (by `token.launch_seq`) whose whole sniper window is at or below
 * `confirmedBlock`, oldest first (the `launch_seq` index). The confirmed bound makes the set of
 * early buys final before it is read.
 * @param limit - most launches returned
 */
export async function launchesToScan(
  db: MarketDb,
  input: { afterSeq: number; confirmedBlock: bigint; limit: number },
): Promise<LaunchToScan[]> {
  const t = schema.token;
  const rows = rowsOf(
    await db.execute(sql`
      SELECT ${t.address} AS token, ${t.creator} AS creator, ${t.launchBlockNumber}::text AS launch_block,
        ${t.launchSeq} AS launch_seq
      FROM ${t}
      WHERE ${t.launchSeq} > ${input.afterSeq}
      ORDER BY ${t.launchSeq} ASC LIMIT ${input.limit}`),
  );
  const launches = rows.map((r) => ({
    token: String(r.token).toLowerCase(),
    creator: String(r.creator).toLowerCase(),
    launchBlockNumber: BigInt(String(r.launch_block)),
    launchSeq: Number(r.launch_seq),
  }));
  // Launch order is chain order: the first launch whose window is not confirmed ends the batch.
  const pending = launches.findIndex((l) => l.launchBlockNumber + SNIPER_WINDOW_BLOCKS > input.confirmedBlock);
  return pending === -1 ? launches : launches.slice(0, pending);
}

/**
 * The buys of a token in its sniper window whose tokens went to an address other than the
 * creator (the trades' (token, block, log index) index, at most 11 blocks of it).
 * @param launch - the token (lower case), its creator and launch block
 */
export async function earlyBuysOf(db: MarketDb, launch: Omit<LaunchToScan, "launchSeq">): Promise<EarlyBuy[]> {
  const tr = schema.trade;
  const rows = rowsOf(
    await db.execute(sql`
      SELECT ${tr.recipient} AS recipient, ${tr.trader} AS trader, ${tr.blockNumber}::text AS block, ${tr.txIndex} AS tx_index
      FROM ${tr}
      WHERE ${tr.token} = ${lower(launch.token)}
        AND ${tr.blockNumber} BETWEEN ${launch.launchBlockNumber} AND ${launch.launchBlockNumber + SNIPER_WINDOW_BLOCKS}
        AND ${tr.side} = 'buy' AND ${tr.recipient} <> ${lower(launch.creator)}
      ORDER BY ${tr.blockNumber}, ${tr.logIndex}`),
  );
  return rows.map((r) => ({
    recipient: String(r.recipient).toLowerCase(),
    trader: String(r.trader).toLowerCase(),
    blockNumber: BigInt(String(r.block)),
    txIndex: Number(r.tx_index),
  }));
}
