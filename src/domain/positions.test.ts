import { describe, expect, it } from "vitest";
import { decodePositionIds, encodePositionIds } from "./positions";

describe("position ids text", () => {
  it("round-trips ids in order, beyond 2^53 too", () => {
    const ids = [7n, 8n, 2n ** 200n + 1n];
    expect(encodePositionIds(ids)).toBe(`7,8,${2n ** 200n + 1n}`);
    expect(decodePositionIds(encodePositionIds(ids))).toEqual(ids);
  });
  it("encodes no ids as the empty text and decodes it to none (not [0n])", () => {
    expect(encodePositionIds([])).toBe("");
    expect(decodePositionIds("")).toEqual([]);
  });
});
