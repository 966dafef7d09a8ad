import { describe, expect, it } from "vitest";
import { confirmedBlock, confirmedEventBound } from "./confirmedBound";

describe("confirmed bound (events feed, SSE streams, webhooks)", () => {
  it("is min(head − depth, the indexer's finalized block), −1 (no id) when no block is confirmed", () => {
    // The finalized block trails the head by more than the depth: it bounds.
    expect(confirmedBlock({ headBlock: 100n, finalizedBlock: 55n }, 3)).toBe(55n);
    expect(confirmedEventBound({ headBlock: 100n, finalizedBlock: 55n }, 3)).toBe(56_000_000n);
    // A depth deeper than the finalized block's lag: the depth bounds.
    expect(confirmedBlock({ headBlock: 100n, finalizedBlock: 70n }, 64)).toBe(36n);
    // Nothing confirmed yet: no event id is below the bound.
    expect(confirmedBlock({ headBlock: 2n, finalizedBlock: 5n }, 3)).toBe(-1n);
    expect(confirmedEventBound({ headBlock: 2n, finalizedBlock: 5n }, 3)).toBe(0n);
    expect(confirmedEventBound({ headBlock: 40n, finalizedBlock: 0n }, 3)).toBe(1_000_000n);
  });
});
