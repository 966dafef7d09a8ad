import { createRequire } from "node:module";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { nextListVersion, renderTokenList, safeLabels, tokenListVersion, type ListVersion } from "./tokenList";

const schema = createRequire(import.meta.url)("@uniswap/token-lists/src/tokenlist.schema.json");

describe("nextListVersion", () => {
  const v: ListVersion = { major: 1, minor: 2, patch: 3 };
  it("bumps major on removal, minor on addition, patch on metadata", () => {
    expect(nextListVersion(v, ["0xa", "0xb"], ["0xa"])).toEqual({ major: 2, minor: 0, patch: 0 });
    expect(nextListVersion(v, ["0xa"], ["0xB", "0xa"])).toEqual({ major: 1, minor: 3, patch: 0 });
    expect(nextListVersion(v, ["0xa"], ["0xc"])).toEqual({ major: 2, minor: 0, patch: 0 });
    expect(nextListVersion(v, ["0xa"], ["0xA"], true)).toEqual({ major: 1, minor: 2, patch: 4 });
    expect(nextListVersion(v, ["0xa"], ["0xA"])).toBe(v);
  });
});

describe("tokenListVersion", () => {
  it("equals folding nextListVersion one launch at a time", () => {
    for (const limit of [1, 2, 5]) {
      let version: ListVersion = { major: 1, minor: 0, patch: 0 };
      let list: string[] = [];
      for (let n = 1; n <= 12; n++) {
        const next = [...list, `0x${n}`].slice(-limit);
        version = nextListVersion(version, list, next);
        list = next;
        expect(tokenListVersion(n, limit)).toEqual(version);
      }
    }
    expect(tokenListVersion(0, 10)).toEqual({ major: 1, minor: 0, patch: 0 });
    expect(tokenListVersion(1002, 1000)).toEqual({ major: 3, minor: 0, patch: 0 });
  });
});

describe("safeLabels", () => {
  it("rewrites what the schema rejects, keeps the rest", () => {
    expect(safeLabels("Pepe", "PEPE")).toEqual({ name: "Pepe", symbol: "PEPE", sanitized: false });
    expect(safeLabels("  My\u202E Coin ", "MY COIN")).toEqual({ name: "My Coin", symbol: "MYCOIN", sanitized: true });
    expect(safeLabels("\n\t", " ")).toEqual({ name: "Unnamed token", symbol: "UNKNOWN", sanitized: true });
    expect(safeLabels("x".repeat(70), "y".repeat(30))).toEqual({ name: "x".repeat(60), symbol: "y".repeat(20), sanitized: true });
  });
});

describe("renderTokenList", () => {
  it("validates against the Uniswap schema, hostile labels included", () => {
    const ajv = new Ajv({ allErrors: true, verbose: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const hostile = ["<script>&]]>", "a\u0000b\u202Ec", "tab\tname\nnew", "🚀".repeat(80), "", " "];
    const list = renderTokenList({
      name: "evmchain launches",
      chainId: 4663,
      version: tokenListVersion(hostile.length, 1000),
      timestampSec: 1_700_000_000,
      keywords: ["evmchain"],
      tokens: hostile.map((h, i) => ({
        address: `0x${String(i + 1).padStart(40, "0")}`,
        name: h,
        symbol: h,
        decimals: 18,
        logoURI: "https://example.test/logo.png",
        slug: `token-${i}`,
        launchTimestampSec: 1_700_000_000,
      })),
    });
    expect(validate(list), JSON.stringify(validate.errors)).toBe(true);
    expect(list.tokens).toHaveLength(hostile.length);
    expect(list.tokens[0]).toMatchObject({ name: "<script>&]]>", symbol: "<script>&]]>" });
    expect(list.tokens[1]).toMatchObject({ name: "abc", extensions: { sanitized: true } });
    expect(list.version).toEqual({ major: 1, minor: 6, patch: 0 });
  });
});
