import { describe, expect, it } from "vitest";
import { splitFees } from "./split";

describe("splitFees", () => {
  it("pays 70% floored to the creator, the rest to the protocol", () => {
    expect(splitFees(10n)).toEqual({ creator: 7n, protocol: 3n });
    expect(splitFees(1n)).toEqual({ creator: 0n, protocol: 1n });
    expect(splitFees(3n)).toEqual({ creator: 2n, protocol: 1n });
    expect(splitFees(0n)).toEqual({ creator: 0n, protocol: 0n });
    expect(splitFees(10n ** 18n + 1n)).toEqual({ creator: 7n * 10n ** 17n, protocol: 3n * 10n ** 17n + 1n });
  });
});
