/**
 * docs/errors.md is generated from the error catalogue (scripts/errorsDoc.ts, `npm run docs:errors`):
 * a code added, removed or reworded in http/errors.ts without regenerating the file fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CATALOGUE } from "../../http/errors";
import { ERRORS_DOC_PATH, renderErrorsDoc } from "../../scripts/errorsDoc";

describe("docs/errors.md", () => {
  it("is exactly what the catalogue generates (run `npm run docs:errors` after changing http/errors.ts)", () => {
    expect(readFileSync(ERRORS_DOC_PATH, "utf8")).toBe(renderErrorsDoc());
  });

  it("has one row per catalogue code, with its status", () => {
    const doc = renderErrorsDoc();
    for (const [code, { status }] of Object.entries(ERROR_CATALOGUE))
      expect(doc).toMatch(new RegExp(`^\\| \`${code}\` +\\| ${status} +\\|`, "m"));
  });

  it("changes when the catalogue changes", () => {
    const changed = { ...ERROR_CATALOGUE, not_found: { status: 404, meaning: "Reworded." } };
    expect(renderErrorsDoc(changed)).not.toBe(renderErrorsDoc());
    expect(renderErrorsDoc(changed)).toContain("| Reworded.");
  });
});
