import { describe, expect, it } from "vitest";
import { BURN_ADDRESS, holderCountDelta, holderLabel, holderShareBps } from "./holders";

describe("holderCountDelta", () => {
  it("counts 0 -> >0 as a new holder and >0 -> 0 as one less", () => {
    expect(holderCountDelta(false, 1n)).toBe(1);
    expect(holderCountDelta(true, 0n)).toBe(-1);
    expect(holderCountDelta(true, 7n)).toBe(0);
    // A zero-value transfer to a new address does not make a holder.
    expect(holderCountDelta(false, 0n)).toBe(0);
  });
});

describe("holderShareBps", () => {
  const SUPPLY = 1_000_000_000n * 10n ** 18n;
  it("rounds down to whole basis points", () => {
    expect(holderShareBps(SUPPLY, SUPPLY)).toBe(10_000);
    expect(holderShareBps(SUPPLY / 2n, SUPPLY)).toBe(5000);
    expect(holderShareBps(1n, 3n)).toBe(3333);
    expect(holderShareBps(2n, 3n)).toBe(6666);
    // Just under 1 bp is 0; exactly 1 bp is 1.
    expect(holderShareBps(SUPPLY / 10_000n - 1n, SUPPLY)).toBe(0);
    expect(holderShareBps(SUPPLY / 10_000n, SUPPLY)).toBe(1);
    expect(holderShareBps(5n, 0n)).toBe(0);
  });
  it("never sums above 10,000 over a split supply", () => {
    const parts = [SUPPLY / 3n, SUPPLY / 3n, SUPPLY - 2n * (SUPPLY / 3n)];
    expect(parts.reduce((s, p) => s + holderShareBps(p, SUPPLY), 0)).toBe(9999);
  });
});

describe("holderLabel", () => {
  const known = {
    pool: "0x1111111111111111111111111111111111111111",
    factory: "0x2222222222222222222222222222222222222222",
    feeLocker: "0x3333333333333333333333333333333333333333",
    positionManager: "0x4444444444444444444444444444444444444444",
  };
  it("names the launchpad's own addresses in any case, else null", () => {
    expect(holderLabel(known.pool.toUpperCase().replace("0X", "0x"), known)).toBe("pool");
    expect(holderLabel(known.factory, known)).toBe("factory");
    expect(holderLabel(known.feeLocker, known)).toBe("fee_locker");
    expect(holderLabel(known.positionManager, known)).toBe("position_manager");
    expect(holderLabel(BURN_ADDRESS.toLowerCase(), known)).toBe("burn");
    expect(holderLabel("0x5555555555555555555555555555555555555555", known)).toBeNull();
  });
});
