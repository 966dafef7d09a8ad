/**
 * `HolderBalances` of launched tokens -> `holder` rows and `token.holderCount`. Tokens are
 * discovered from `TokenLaunched` (`ponder.config.ts`); only this launchpad's tokens emit the
 * event, so its topic never brings other contracts' logs (docs/operations.md "Scale"). Each event
 * carries the balances after the change, so a row always equals `balanceOf` at its block,
 * whatever happened before. No RPC request, and no database round trip: a balance that drops to 0
 * keeps its row at 0 (Ponder runs every `delete` against the database at once, while finds,
 * inserts and updates stay in its in-memory cache; docs/operations.md "Scale").
 */
import { ponder } from "ponder:registry";
import { zeroAddress } from "viem";
import { holder, prelaunchHolderCount, token } from "../../ponder.schema";
import { lower } from "../domain/hex";
import { holderCountDelta } from "../domain/holders";
import { moveHeldSums } from "./integrity";

ponder.on("LaunchToken:HolderBalances", async ({ event, context }) => {
  const tokenAddress = lower(event.log.address);
  const at = { blockNumber: event.block.number, logIndex: event.log.logIndex, timestampSec: event.block.timestamp };

  /** Stores one post-change balance; returns the change in the holder count (-1, 0, +1). */
  const setBalance = async (address: `0x${string}`, balanceWei: bigint): Promise<number> => {
    const key = { token: tokenAddress, address: lower(address) };
    const before = await context.db.find(holder, key);
    if (before) {
      await moveHeldSums(context.db, before, balanceWei);
      await context.db.update(holder, key).set({ balanceWei, ...at });
    } else if (balanceWei > 0n)
      await context.db.insert(holder).values({ ...key, balanceWei, ...at, sniper: false, bundled: false });
    return holderCountDelta(before !== null && before.balanceWei > 0n, balanceWei);
  };

  const { from, to, fromBalanceWei, toBalanceWei } = event.args;
  let delta = 0;
  if (from !== zeroAddress) delta += await setBalance(from, fromBalanceWei);
  // A transfer to self reports the same balance twice: one write.
  if (to !== zeroAddress && lower(to) !== lower(from)) delta += await setBalance(to, toBalanceWei);
  if (delta === 0) return;

  if (await context.db.find(token, { address: tokenAddress })) {
    await context.db.update(token, { address: tokenAddress }).set((row) => ({ holderCount: row.holderCount + delta }));
  } else {
    // Before its launch event (same transaction): counted for the launch handler.
    await context.db
      .insert(prelaunchHolderCount)
      .values({ token: tokenAddress, holderCount: delta })
      .onConflictDoUpdate((row) => ({ holderCount: row.holderCount + delta }));
  }
});
