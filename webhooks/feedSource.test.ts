import { describe, expect, it } from "vitest";
import { confirmedEventCursor } from "./feedSource";

describe("webhook confirmed boundary", () => {
  it("is the feed's confirmation depth below the head, but never above the indexer's finalized block", () => {
    // The finalized block trails the head by more than the depth: it is the bound.
    expect(confirmedEventCursor({ headBlock: 100n, finalizedBlock: 55n, confirmationBlocks: 3 })).toBe(55_999_999n);
    // A depth deeper than the finalized block's lag: the depth is the bound.
    expect(confirmedEventCursor({ headBlock: 100n, finalizedBlock: 70n, confirmationBlocks: 64 })).toBe(36_999_999n);
    // Nothing final yet.
    expect(confirmedEventCursor({ headBlock: 2n, finalizedBlock: 0n, confirmationBlocks: 3 })).toBe(0n);
    expect(confirmedEventCursor({ headBlock: 40n, finalizedBlock: 0n, confirmationBlocks: 3 })).toBe(999_999n);
    expect(confirmedEventCursor({ headBlock: 2n, finalizedBlock: 5n, confirmationBlocks: 3 })).toBe(0n);
  });
});
