import { describe, expect, it } from "vitest";
import { mean, percentile } from "./stats";

describe("percentile (nearest rank)", () => {
  it("picks ranked values", () => {
    expect(percentile([4, 1, 3, 2], 0.5)).toBe(2);
    expect(percentile([4, 1, 3, 2], 1)).toBe(4);
    expect(percentile([4, 1, 3, 2], 0)).toBe(1);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        0.99,
      ),
    ).toBe(99);
    expect(percentile([], 0.5)).toBeNull();
  });
  it("averages", () => {
    expect(mean([1, 2, 3])).toBe(2);
    expect(mean([])).toBeNull();
  });
});
