/**
 * Launch integrity (docs/public.md "Launch integrity") kept per block in `token_integrity` and the
 * `holder.sniper` / `holder.bundled` flags, with the arithmetic of `src/domain/integrity.ts`:
 * the launch handler opens the row, the trade writer classifies each early buy's recipient, and
 * the balance handler moves every balance change of a flagged address into the held sums. No RPC
 * and no extra read per balance change (the flags ride on the holder row the handler reads anyway).
 */
import type { Context } from "ponder:registry";
import { holder, tokenIntegrity } from "../../ponder.schema";
import { lower } from "../domain/hex";
import {
  buyClass,
  EMPTY_INTEGRITY_SUMS,
  type IntegrityFlags,
  sumsAfterBalanceChange,
  sumsAfterBuy,
} from "../domain/integrity";

type Db = Context["db"];
type HolderRow = typeof holder.$inferSelect;

/**
 * Opens a token's integrity row in its launch handler: the creator's balance right after the
 * launch transaction (its `HolderBalances` precede `TokenLaunched`, so the holder row is final).
 */
export async function openIntegrity(db: Db, tokenAddress: `0x${string}`, creator: `0x${string}`): Promise<void> {
  const creatorRow = await db.find(holder, { token: tokenAddress, address: lower(creator) });
  await db.insert(tokenIntegrity).values({
    token: tokenAddress,
    creatorBalanceAtLaunchWei: creatorRow?.balanceWei ?? 0n,
    ...EMPTY_INTEGRITY_SUMS,
  });
}

/**
 * Classifies one buy: when it landed within the sniper window of the token's launch block and its
 * tokens went to an address other than the creator, flags the recipient and adds the buy to the
 * token's sums (the recipient's balance counts as held the first time it enters a class).
 * @param buy - the token (lowercase), its creator and launch block, the Swap's recipient, block
 *   and the tokens the pool sent (base units)
 */
export async function recordEarlyBuy(
  db: Db,
  buy: {
    token: `0x${string}`;
    creator: `0x${string}`;
    launchBlock: bigint;
    recipient: `0x${string}`;
    blockNumber: bigint;
    tokensWei: bigint;
    timestampSec: bigint;
    logIndex: number;
  },
): Promise<void> {
  const cls = buyClass(buy.blockNumber, buy.launchBlock);
  const recipient = lower(buy.recipient);
  if (!cls.sniper || recipient === lower(buy.creator)) return;
  const sums = await db.find(tokenIntegrity, { token: buy.token });
  if (!sums) return;
  const key = { token: buy.token, address: recipient };
  const row = await db.find(holder, key);
  const before: IntegrityFlags = { sniper: row?.sniper ?? false, bundled: row?.bundled ?? false };
  const next = sumsAfterBuy(sums, before, cls, buy.tokensWei, row?.balanceWei ?? 0n);
  if (row) await db.update(holder, key).set(next.flags);
  // A buy that delivered nothing to a new address: a row at 0 (not a holder) carries its flags.
  else
    await db.insert(holder).values({
      ...key,
      balanceWei: 0n,
      blockNumber: buy.blockNumber,
      logIndex: buy.logIndex,
      timestampSec: buy.timestampSec,
      ...next.flags,
    });
  await db.update(tokenIntegrity, { token: buy.token }).set(next.sums);
}

/**
 * Moves a flagged holder's balance change into its token's held sums (nothing for an unflagged one).
 * @param before - the holder row before the change
 * @param afterWei - the balance after it (base units)
 */
export async function moveHeldSums(db: Db, before: HolderRow, afterWei: bigint): Promise<void> {
  if (!before.sniper && !before.bundled) return;
  await db
    .update(tokenIntegrity, { token: before.token })
    .set((row) => sumsAfterBalanceChange(row, before, before.balanceWei, afterWei));
}
