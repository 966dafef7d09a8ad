import { describe, expect, it } from "vitest";
import { createRandom } from "./random.js";

describe("createRandom", () => {
  it("repeats the same sequence for the same seed and differs for another", () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const c = createRandom(43);
    const seqA = Array.from({ length: 8 }, () => a.next());
    expect(Array.from({ length: 8 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 8 }, () => c.next())).not.toEqual(seqA);
    expect(seqA.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it("int stays within bounds and pick rejects an empty array", () => {
    const r = createRandom(1);
    const values = Array.from({ length: 500 }, () => r.int(3, 5));
    expect(new Set(values)).toEqual(new Set([3, 4, 5]));
    expect(() => r.pick([])).toThrow(RangeError);
  });
});
