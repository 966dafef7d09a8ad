import { createRequire } from "node:module";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { renderTokenList, safeLabels, tokenListVersion } from "./tokenList";

const schema = createRequire(import.meta.url)("@uniswap/token-lists/src/tokenlist.schema.json");

/**
 * `@uniswap/token-lists`' own version rules. The package as installed ships its TypeScript
 * sources (`src/`), which vitest transforms; the specifier is a variable so the project's type
 * check (stricter options) does not compile the library, typed here by hand instead.
 */
type Version = { major: number; minor: number; patch: number };
type TokenInfo = { chainId: number; address: string; name: string; decimals: number; symbol: string };
const tokenListsSrc: string = "@uniswap/token-lists/src/index";
const { diffTokenLists, minVersionBump, nextVersion, VersionUpgrade } = (await import(
  /* @vite-ignore */ tokenListsSrc
)) as {
  diffTokenLists: (base: TokenInfo[], update: TokenInfo[]) => { added: TokenInfo[]; removed: TokenInfo[] };
  minVersionBump: (base: TokenInfo[], update: TokenInfo[]) => number;
  nextVersion: (base: Version, bump: number) => Version;
  VersionUpgrade: { NONE: number; PATCH: number; MINOR: number; MAJOR: number };
};

describe("tokenListVersion", () => {
  /** The full confirmed list after n launches, rendered as served (hostile labels included). */
  const fullList = (n: number) =>
    renderTokenList({
      name: "evmchain launches",
      chainId: 4663,
      version: tokenListVersion(n),
      timestampSec: 1_700_000_000 + n,
      keywords: ["evmchain"],
      tokens: Array.from({ length: n }, (_, i) => ({
        address: `0x${String(i + 1).padStart(40, "0")}`,
        name: i % 3 === 0 ? `Evil\u202E <b>${i}</b>` : `Token ${i}`,
        symbol: i % 3 === 0 ? ` T ${i} ` : `T${i}`,
        decimals: 18,
        logoURI: "https://example.test/logo.png",
        slug: `t${i}`,
        launchTimestampSec: 1_700_000_000 + i,
      })),
    });

  it("equals the standard's own fold (diffTokenLists -> minVersionBump -> nextVersion) over the list's content", () => {
    let version: Version = { major: 1, minor: 0, patch: 0 };
    let previous = fullList(0).tokens as TokenInfo[];
    for (let n = 1; n <= 40; n++) {
      const tokens = fullList(n).tokens as TokenInfo[];
      const diff = diffTokenLists(previous, tokens);
      expect([diff.added.length, diff.removed.length]).toEqual([1, 0]);
      // diffTokenLists compares object fields by identity (its documented limit), so it flags
      // `extensions` of every kept token; they are deep-equal: the kept entries did not change.
      expect(tokens.slice(0, n - 1)).toEqual(previous);
      expect(minVersionBump(previous, tokens)).toBe(VersionUpgrade.MINOR);
      version = nextVersion(version, minVersionBump(previous, tokens));
      expect(tokenListVersion(n)).toEqual(version);
      previous = tokens;
    }
    expect(version).toEqual({ major: 1, minor: 40, patch: 0 });
  });

  it("depends on the content only: no major bump per launch past any size", () => {
    expect(tokenListVersion(0)).toEqual({ major: 1, minor: 0, patch: 0 });
    expect(tokenListVersion(1_002)).toEqual({ major: 1, minor: 1_002, patch: 0 });
    expect(tokenListVersion(100_001)).toEqual({ major: 1, minor: 100_001, patch: 0 });
  });
});

describe("safeLabels", () => {
  it("rewrites what the schema rejects, keeps the rest", () => {
    expect(safeLabels("Pepe", "PEPE")).toEqual({ name: "Pepe", symbol: "PEPE", sanitized: false });
    expect(safeLabels("  My\u202E Coin ", "MY COIN")).toEqual({ name: "My Coin", symbol: "MYCOIN", sanitized: true });
    expect(safeLabels("\n\t", " ")).toEqual({ name: "Unnamed token", symbol: "UNKNOWN", sanitized: true });
    expect(safeLabels("x".repeat(70), "y".repeat(30))).toEqual({
      name: "x".repeat(60),
      symbol: "y".repeat(20),
      sanitized: true,
    });
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
      version: tokenListVersion(hostile.length),
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
