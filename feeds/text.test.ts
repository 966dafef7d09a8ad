import { describe, expect, it } from "vitest";
import { cleanText, truncateCodePoints } from "./text";

describe("cleanText", () => {
  it("strips controls, bidi marks and lone surrogates; keeps markup for the serialiser", () => {
    expect(cleanText("a\u202E<b>\u0000 c")).toBe("a<b> c");
    expect(cleanText("x\u200F\u2066y\u0085z")).toBe("xyz");
    expect(cleanText("]]> & <")).toBe("]]> & <");
    expect(cleanText("bad\uD800 half")).toBe("bad half");
    expect(cleanText("ok 🚀")).toBe("ok 🚀");
  });
  it("collapses whitespace", () => {
    expect(cleanText("  a\t\n b\u00A0 c ")).toBe("a b c");
    expect(cleanText("\u0001\u0002")).toBe("");
  });
});

describe("truncateCodePoints", () => {
  it("counts code points", () => {
    expect(truncateCodePoints("🚀🚀🚀", 2)).toBe("🚀🚀");
    expect(truncateCodePoints("abc", 5)).toBe("abc");
  });
});
