import { describe, expect, it } from "vitest";
import {
  CREATOR_FUNDING_LOOKBACK_BLOCKS,
  creatorFundedSnipers,
  type DirectTransfer,
  type EarlyBuy,
  fundingWindow,
  isBefore,
} from "./creatorFunding";

const buy = (recipient: string, trader: string, blockNumber: bigint, txIndex: number): EarlyBuy => ({
  recipient,
  trader,
  blockNumber,
  txIndex,
});
const sent = (to: string, valueWei: bigint, blockNumber: bigint, txIndex: number): DirectTransfer => ({
  to,
  valueWei,
  blockNumber,
  txIndex,
  txHash: `0x${blockNumber}${txIndex}`,
});

describe("creator funding rule", () => {
  it("reads 24 h of blocks before the launch up to the sniper window's last block, never below block 0", () => {
    expect(fundingWindow(1_000_000n)).toEqual({
      fromBlock: 1_000_000n - CREATOR_FUNDING_LOOKBACK_BLOCKS,
      toBlock: 1_000_010n,
    });
    expect(fundingWindow(5n)).toEqual({ fromBlock: 0n, toBlock: 15n });
  });

  it("orders by block, then by transaction index", () => {
    expect(isBefore({ blockNumber: 7n, txIndex: 3 }, { blockNumber: 7n, txIndex: 4 })).toBe(true);
    expect(isBefore({ blockNumber: 7n, txIndex: 4 }, { blockNumber: 7n, txIndex: 4 })).toBe(false);
    expect(isBefore({ blockNumber: 6n, txIndex: 9 }, { blockNumber: 7n, txIndex: 0 })).toBe(true);
    expect(isBefore({ blockNumber: 8n, txIndex: 0 }, { blockNumber: 7n, txIndex: 9 })).toBe(false);
  });

  it("counts a sniper funded strictly before its first buy, at its address or its first buy's sender", () => {
    const buys = [
      buy("0xA", "0xa", 10n, 2), // funded before (earlier block)
      buy("0xb", "0xb", 10n, 5), // funded in the same block, lower index
      buy("0xc", "0xc", 10n, 5), // funded in the same block, same index: not before
      buy("0xd", "0xrouterUser", 11n, 0), // the buy's sender was funded
      buy("0xe", "0xe", 12n, 1), // funded only after its first buy …
      buy("0xe", "0xe", 14n, 0), // … which a later buy does not change
      buy("0xf", "0xf", 12n, 0), // never funded
    ];
    const transfers = [
      sent("0xa", 5n, 9n, 0),
      sent("0xA", 1n, 9n, 1),
      sent("0xb", 7n, 10n, 4),
      sent("0xc", 9n, 10n, 5),
      sent("0xrouteruser", 3n, 10n, 9),
      sent("0xe", 2n, 13n, 0),
      sent("0xa", 100n, 10n, 3), // after 0xa's first buy: not summed
    ];
    expect(creatorFundedSnipers(buys, transfers)).toEqual([
      { address: "0xa", fundedWei: 6n, transferCount: 2 },
      { address: "0xb", fundedWei: 7n, transferCount: 1 },
      { address: "0xd", fundedWei: 3n, transferCount: 1 },
    ]);
  });

  it("finds nothing without transfers or without buys", () => {
    expect(creatorFundedSnipers([buy("0xa", "0xa", 1n, 0)], [])).toEqual([]);
    expect(creatorFundedSnipers([], [sent("0xa", 1n, 0n, 0)])).toEqual([]);
  });
});
