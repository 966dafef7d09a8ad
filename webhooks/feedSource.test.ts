import { describe, expect, it } from "vitest";
import { deliveryDepthBlocks, INDEXER_FINALITY_BLOCKS } from "./feedSource";

describe("webhook delivery depth", () => {
  it("is the feed's confirmation depth, but never above the indexer's finalized block", () => {
    expect(deliveryDepthBlocks(3)).toBe(INDEXER_FINALITY_BLOCKS);
    expect(deliveryDepthBlocks(INDEXER_FINALITY_BLOCKS)).toBe(INDEXER_FINALITY_BLOCKS);
    expect(deliveryDepthBlocks(64)).toBe(64);
  });
});
