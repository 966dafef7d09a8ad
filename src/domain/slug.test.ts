import { describe, expect, it } from "vitest";
import { assignSlug, isSlugShaped, slugBase, slugCandidate } from "./slug";

describe("slugBase", () => {
  it("lowercases and keeps safe characters", () => {
    expect(slugBase("PEPE")).toBe("pepe");
    expect(slugBase("e2e")).toBe("e2e");
    expect(slugBase("$DOGE")).toBe("doge");
    expect(slugBase("My Coin")).toBe("my-coin");
    expect(slugBase("a--b__c")).toBe("a-b-c");
  });
  it("strips diacritics and folds compatibility forms", () => {
    expect(slugBase("Ünï Cörn!")).toBe("uni-corn");
    expect(slugBase("ＰＥＰＥ")).toBe("pepe");
  });
  it("falls back to `token` when nothing safe remains", () => {
    expect(slugBase("🚀🚀")).toBe("token");
    expect(slugBase("<&]]>")).toBe("token");
    expect(slugBase("\u202Eevil")).toBe("evil");
  });
  it("cuts to 24 characters without a trailing dash", () => {
    expect(slugBase("abcdefghijklmnopqrstuvw xyz")).toBe("abcdefghijklmnopqrstuvw");
    expect(slugBase("x".repeat(40))).toBe("x".repeat(24));
  });
  it("never produces something that looks like an address", () => {
    const addr = `0x${"ab".repeat(20)}`;
    expect(slugBase(addr)).toBe("t-0xabababababababababab");
    expect(slugBase(addr)).not.toMatch(/^0x/);
  });
});

describe("slugCandidate / assignSlug", () => {
  it("numbers collisions from 2", () => {
    expect(slugCandidate("pepe", 1)).toBe("pepe");
    expect(slugCandidate("pepe", 2)).toBe("pepe-2");
    expect(() => slugCandidate("pepe", 0)).toThrow(RangeError);
  });
  it("skips slugs another base already took", async () => {
    const taken = new Set(["pepe", "pepe-2"]);
    expect(await assignSlug("pepe", 2, async (s) => taken.has(s))).toEqual({ slug: "pepe-3", next: 4 });
    expect(await assignSlug("doge", 1, async (s) => taken.has(s))).toEqual({ slug: "doge", next: 2 });
  });
  it("recognises slug-shaped path segments", () => {
    expect(isSlugShaped("pepe-2")).toBe(true);
    expect(isSlugShaped("Pepe")).toBe(false);
    expect(isSlugShaped("-x")).toBe(false);
  });
});
