import { describe, expect, it } from "vitest";
import { canonicalJson, jsonValue, toJsonText } from "./json";

describe("the JSON path", () => {
  it("serialises bigints as decimal strings", () => {
    expect(toJsonText({ a: 1n, b: [2n, { c: 10n ** 30n }] })).toBe(
      '{"a":"1","b":["2",{"c":"1000000000000000000000000000000"}]}',
    );
  });
  it("gives as a value exactly what the text parses back to", () => {
    const samples: unknown[] = [
      { a: 1n, b: undefined, c: [2n, undefined, null], d: { e: "x", f: 0, g: false, h: null } },
      [{ price_wei: 123n, usd: null }],
      "s",
      7,
      null,
    ];
    for (const sample of samples) expect(jsonValue(sample)).toEqual(JSON.parse(toJsonText(sample)));
  });
  it("sorts keys for canonical JSON", () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }] })).toBe('{"a":[{"c":null,"d":2}],"b":1}');
  });
});
