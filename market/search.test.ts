import { describe, expect, it } from "vitest";
import { likeLiteral, MAX_QUERY_WORDS, wordPrefixQuery } from "./search";

describe("likeLiteral", () => {
  it("escapes every LIKE wildcard and the escape character itself", () => {
    expect(likeLiteral("50%_off\\")).toBe("50\\%\\_off\\\\");
    expect(likeLiteral("pepe")).toBe("pepe");
  });
});

describe("wordPrefixQuery", () => {
  it("turns runs of letters and digits into required prefixes, lowercased", () => {
    expect(wordPrefixQuery("Super pe!")).toBe("super:* & pe:*");
    expect(wordPrefixQuery("Frog 50%_off")).toBe("frog:* & 50:* & off:*");
    expect(wordPrefixQuery("Über café")).toBe("über:* & café:*");
  });

  it("lets no tsquery syntax through", () => {
    expect(wordPrefixQuery("pep:* & ( | !x <-> 'y'")).toBe("pep:* & x:* & y:*");
    expect(wordPrefixQuery("%_!&|")).toBeNull();
    expect(wordPrefixQuery("")).toBeNull();
  });

  it("keeps at most MAX_QUERY_WORDS words", () => {
    const q = wordPrefixQuery(Array.from({ length: 20 }, (_, i) => `w${i}`).join(" "))!;
    expect(q.split(" & ")).toHaveLength(MAX_QUERY_WORDS);
  });
});
