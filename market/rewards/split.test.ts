import { describe, expect, it } from "vitest";
import { splitFees, splitFeesPerPosition } from "./split";

describe("splitFees", () => {
  it("pays 70% floored to the creator, the rest to the protocol", () => {
    expect(splitFees(10n)).toEqual({ creator: 7n, protocol: 3n });
    expect(splitFees(1n)).toEqual({ creator: 0n, protocol: 1n });
    expect(splitFees(3n)).toEqual({ creator: 2n, protocol: 1n });
    expect(splitFees(0n)).toEqual({ creator: 0n, protocol: 0n });
    expect(splitFees(10n ** 18n + 1n)).toEqual({ creator: 7n * 10n ** 17n, protocol: 3n * 10n ** 17n + 1n });
  });
});

describe("splitFeesPerPosition", () => {
  it("floors per position, so the creator's total can be below 70% of the sum", () => {
    expect(splitFeesPerPosition([1n, 1n])).toEqual({ creator: 0n, protocol: 2n });
    expect(splitFees(2n)).toEqual({ creator: 1n, protocol: 1n });
    // Two positions whose 70 % fractions (0.7 + 0.7) add up to more than one base unit.
    expect(splitFeesPerPosition([11n, 21n])).toEqual({ creator: 21n, protocol: 11n });
    expect(splitFees(32n).creator).toBe(22n);
    // Fractions below one in sum: both ways agree.
    expect(splitFeesPerPosition([3n, 3n])).toEqual(splitFees(6n));
    expect(splitFeesPerPosition([11n, 1n])).toEqual({ creator: 7n, protocol: 5n });
    expect(splitFees(12n).creator).toBe(8n);
  });
  it("equals the sum of the per-position splits and conserves the amount", () => {
    const amounts = [8_330_103_451_898_791n, 5n, 0n, 9n];
    const { creator, protocol } = splitFeesPerPosition(amounts);
    expect(creator).toBe(amounts.reduce((s, a) => s + (a * 7000n) / 10000n, 0n));
    expect(creator + protocol).toBe(amounts.reduce((s, a) => s + a, 0n));
    expect(splitFeesPerPosition([])).toEqual({ creator: 0n, protocol: 0n });
  });
});
