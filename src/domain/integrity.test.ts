import { describe, expect, it } from "vitest";
import {
  buyClass,
  EMPTY_INTEGRITY_SUMS,
  type IntegrityFlags,
  type IntegritySums,
  SNIPER_WINDOW_BLOCKS,
  sumsAfterBalanceChange,
  sumsAfterBuy,
  topBalancesBps,
} from "./integrity";

const NONE: IntegrityFlags = { sniper: false, bundled: false };

describe("buyClass", () => {
  it("makes the launch block bundled and sniper, the next SNIPER_WINDOW_BLOCKS blocks sniper only, later nothing", () => {
    expect(SNIPER_WINDOW_BLOCKS).toBe(10n);
    expect(buyClass(100n, 100n)).toEqual({ sniper: true, bundled: true });
    expect(buyClass(101n, 100n)).toEqual({ sniper: true, bundled: false });
    expect(buyClass(110n, 100n)).toEqual({ sniper: true, bundled: false });
    expect(buyClass(111n, 100n)).toEqual(NONE);
    // Before the launch block (impossible for a launched token): nothing.
    expect(buyClass(99n, 100n)).toEqual(NONE);
  });
});

describe("sumsAfterBuy", () => {
  it("counts an address once per class, adds every qualifying buy and the balance on entry only", () => {
    // Launch block: the address becomes bundled and sniper, with its balance after the buy.
    const first = sumsAfterBuy(EMPTY_INTEGRITY_SUMS, NONE, buyClass(100n, 100n), 40n, 40n);
    expect(first.flags).toEqual({ sniper: true, bundled: true });
    expect(first.sums).toEqual({
      sniperCount: 1,
      bundledCount: 1,
      sniperBoughtWei: 40n,
      bundledBoughtWei: 40n,
      sniperHeldWei: 40n,
      bundledHeldWei: 40n,
    });
    // A second buy in the window: bought grows, counts and held do not (held moves with balances).
    const second = sumsAfterBuy(first.sums, first.flags, buyClass(105n, 100n), 7n, 47n);
    expect(second.flags).toEqual({ sniper: true, bundled: true });
    expect(second.sums).toEqual({ ...first.sums, sniperBoughtWei: 47n });
    // Another address entering only as a sniper.
    const third = sumsAfterBuy(second.sums, NONE, buyClass(110n, 100n), 3n, 9n);
    expect(third.flags).toEqual({ sniper: true, bundled: false });
    expect(third.sums).toEqual({ ...second.sums, sniperCount: 2, sniperBoughtWei: 50n, sniperHeldWei: 49n });
  });

  it("leaves everything as it was for a buy after the window", () => {
    const s: IntegritySums = { ...EMPTY_INTEGRITY_SUMS, sniperCount: 1, sniperHeldWei: 5n, sniperBoughtWei: 5n };
    const after = sumsAfterBuy(s, { sniper: true, bundled: false }, buyClass(200n, 100n), 9n, 14n);
    expect(after.sums).toEqual(s);
    expect(after.flags).toEqual({ sniper: true, bundled: false });
  });
});

describe("sumsAfterBalanceChange", () => {
  const s: IntegritySums = { ...EMPTY_INTEGRITY_SUMS, sniperHeldWei: 100n, bundledHeldWei: 60n };
  it("moves the change into each class the address is in", () => {
    expect(sumsAfterBalanceChange(s, { sniper: true, bundled: true }, 60n, 10n)).toEqual({
      ...s,
      sniperHeldWei: 50n,
      bundledHeldWei: 10n,
    });
    expect(sumsAfterBalanceChange(s, { sniper: true, bundled: false }, 40n, 45n)).toEqual({
      ...s,
      sniperHeldWei: 105n,
    });
    expect(sumsAfterBalanceChange(s, NONE, 40n, 0n)).toEqual(s);
  });
});

describe("topBalancesBps", () => {
  it("sums the ten largest balances and rounds down once", () => {
    // Twelve balances: the two smallest (1 and 2) are left out.
    const balances = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n, 11n, 12n];
    expect(topBalancesBps(balances, 1000n)).toBe(Number(((75n * 10_000n) / 1000n).toString()));
    // Rounding on the sum, not per balance: 3 × 1/3 bp rounds to 1 bp, not 0.
    expect(topBalancesBps([1n, 1n, 1n], 30_000n)).toBe(1);
    expect(topBalancesBps([], 1000n)).toBe(0);
  });
});
