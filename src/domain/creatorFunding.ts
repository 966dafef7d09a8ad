/**
 * Creator funding of snipers (docs/public.md "Launch integrity", `creator_funded`): which of a
 * launch's snipers the creator's own address paid native ETH to before their first buy. Native
 * transfers emit no log, so the facts come from the creator's transactions (found by its nonce,
 * `chain/directTransfers.ts`), not from the indexer; this module holds the window and the rule.
 * Pure functions, exact bigint math, addresses compared in lower case.
 */
import { SNIPER_WINDOW_BLOCKS } from "./integrity";

/**
 * How far before the launch block the creator's transactions are read: 864,000 blocks, 24 h at
 * the chain's 100 ms blocks. Funding older than that is not seen.
 */
export const CREATOR_FUNDING_LOOKBACK_BLOCKS = 864_000n;

/**
 * Most creator transactions read per launch. A creator that sent more inside the window is not
 * measured (`unavailable`): the cost of finding them is bounded per launch.
 */
export const CREATOR_FUNDING_MAX_TRANSACTIONS = 64;

/** A transaction's place in the chain. */
export type ChainPosition = { blockNumber: bigint; txIndex: number };

/** A buy in the sniper window: the Swap's recipient and the transaction's sender. */
export type EarlyBuy = ChainPosition & { recipient: string; trader: string };

/** A transaction from the creator that carried native ETH (`value` > 0) to `to`. */
export type DirectTransfer = ChainPosition & { to: string; valueWei: bigint; txHash: string };

/** One creator-funded sniper: the ETH it (or the sender of its first buy) received before that buy. */
export type FundedSniper = { address: string; fundedWei: bigint; transferCount: number };

/**
 * The blocks whose creator transactions are read for a launch: from 24 h of blocks before the
 * launch block (never below block 0) to the last block of the sniper window.
 * @example fundingWindow(1_000_000n) // { fromBlock: 136_000n, toBlock: 1_000_010n }
 * @example fundingWindow(5n) // { fromBlock: 0n, toBlock: 15n }
 */
export function fundingWindow(launchBlock: bigint): { fromBlock: bigint; toBlock: bigint } {
  const from = launchBlock - CREATOR_FUNDING_LOOKBACK_BLOCKS;
  return { fromBlock: from < 0n ? 0n : from, toBlock: launchBlock + SNIPER_WINDOW_BLOCKS };
}

/**
 * Whether `a` was included before `b` (earlier block, or same block and lower transaction index).
 * @example isBefore({ blockNumber: 7n, txIndex: 3 }, { blockNumber: 7n, txIndex: 4 }) // true
 */
export function isBefore(a: ChainPosition, b: ChainPosition): boolean {
  return a.blockNumber < b.blockNumber || (a.blockNumber === b.blockNumber && a.txIndex < b.txIndex);
}

/**
 * The creator-funded snipers: a sniper (recipient of an early buy, the creator excluded by the
 * caller) is creator-funded when a transfer from the creator reached its address, or the sender
 * of its first early buy, strictly before that first buy.
 * @param earlyBuys - the launch's buys in the sniper window (any order)
 * @param transfers - the creator's native transfers in {@link fundingWindow}
 * @returns one entry per funded sniper, by address; `fundedWei` sums the transfers that qualify
 * @example creatorFundedSnipers([{ recipient: "0xb", trader: "0xb", blockNumber: 9n, txIndex: 0 }],
 *   [{ to: "0xb", valueWei: 5n, txHash: "0x1", blockNumber: 8n, txIndex: 0 }])
 *   // [{ address: "0xb", fundedWei: 5n, transferCount: 1 }]
 */
export function creatorFundedSnipers(
  earlyBuys: readonly EarlyBuy[],
  transfers: readonly DirectTransfer[],
): FundedSniper[] {
  const firstBuys = new Map<string, EarlyBuy>();
  for (const buy of earlyBuys) {
    const recipient = buy.recipient.toLowerCase();
    const seen = firstBuys.get(recipient);
    if (!seen || isBefore(buy, seen)) firstBuys.set(recipient, buy);
  }
  const funded: FundedSniper[] = [];
  for (const [address, first] of firstBuys) {
    const payees = new Set([address, first.trader.toLowerCase()]);
    const before = transfers.filter((t) => payees.has(t.to.toLowerCase()) && isBefore(t, first));
    if (before.length === 0) continue;
    funded.push({ address, fundedWei: before.reduce((s, t) => s + t.valueWei, 0n), transferCount: before.length });
  }
  return funded.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}
