/**
 * docs/security.md names, for every threat, the test that attacks its rule. A renamed or deleted
 * test would leave a row that proves nothing: every reference must name an existing file and an
 * existing test title in it (the format is stated at the top of docs/security.md).
 */
import { existsSync } from "node:fs";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTestCell, testReferences, testTitles } from "../helpers/testTitles";

const DOC = "docs/security.md";

describe("docs/security.md test references", () => {
  const { refs, invalid } = testReferences(readFileSync(DOC, "utf8"));

  it("every Test cell is a list of `file › title` references", () => {
    expect(refs.length).toBeGreaterThan(50);
    expect(invalid).toEqual([]);
  });

  it("every referenced test file and test title exists", () => {
    const titlesOf = new Map<string, ReturnType<typeof testTitles>>();
    const missing: string[] = [];
    for (const ref of refs) {
      if (!existsSync(ref.file)) {
        missing.push(`${DOC}:${ref.line}: no file ${ref.file}`);
        continue;
      }
      if (!titlesOf.has(ref.file)) titlesOf.set(ref.file, testTitles(ref.file));
      const titles = titlesOf.get(ref.file)!;
      for (const title of ref.titles)
        if (!titles.some((matches) => matches(title))) missing.push(`${DOC}:${ref.line}: ${ref.file} › ${title}`);
    }
    expect(missing).toEqual([]);
  });

  it("the checker finds a renamed test, a missing file and a malformed cell", () => {
    const titles = testTitles("test/unit/securityDoc.test.ts");
    expect(titles.some((m) => m("every referenced test file and test title exists"))).toBe(true);
    expect(titles.some((m) => m("every referenced test file and test title exist"))).toBe(false);
    expect(titles.some((m) => m("docs/security.md test references"))).toBe(true);
    const cell = "test/a.test.ts › one; two; api/b.test.ts › outer › inner; test/c.test.ts › x";
    expect(parseTestCell(cell, 7).refs).toEqual([
      { line: 7, file: "test/a.test.ts", titles: ["one; two"] },
      { line: 7, file: "api/b.test.ts", titles: ["outer", "inner"] },
      { line: 7, file: "test/c.test.ts", titles: ["x"] },
    ]);
    expect(parseTestCell("see the e2e suite", 3).invalid).toBe("see the e2e suite");
    const doc = "| Rule | Test |\n| --- | --- |\n| r | test/none.test.ts › t |\n| r2 | nothing |\n";
    const parsed = testReferences(doc);
    expect(parsed.refs).toEqual([{ line: 3, file: "test/none.test.ts", titles: ["t"] }]);
    expect(parsed.invalid).toEqual([{ line: 4, cell: "nothing" }]);
  });
});
