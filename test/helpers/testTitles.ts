/**
 * Reads the test references of docs/security.md and the test titles of a test file, so a unit test
 * can prove that every reference names a test that exists.
 *
 * Reference format (stated at the top of docs/security.md): the `Test` cell of a table holds one or
 * more `path/to/file.test.ts › exact title` entries separated by `; `. A title is the literal first
 * argument of an `it`/`test`/`describe` call (any modifier: `.each`, `.skipIf(…)`, `.sequential`…);
 * `describe title › it title` names a nested test.
 */
import { readFileSync } from "node:fs";
import ts from "typescript";

/** One `file › title` reference found in a markdown table's `Test` column. */
export interface TestReference {
  /** 1-based line of docs/security.md. */
  line: number;
  file: string;
  /** Title segments: `["describe", "it"]` for a nested reference, `["it"]` otherwise. */
  titles: string[];
}

const SEPARATOR = " › ";
const TEST_CALLS = new Set(["it", "test", "describe", "suite"]);
// A reference starts at a path ending in .test.ts(x) followed by the separator.
const REFERENCE_START = /(?:^|; )([\w./-]+\.test\.tsx?) › /g;

/** Splits a markdown table row into cells, honouring `\|` escapes. */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|"));
}

/** Parses one `Test` cell into references; text that is not a reference is returned as `invalid`. */
export function parseTestCell(cell: string, line: number): { refs: TestReference[]; invalid: string | null } {
  const starts = [...cell.matchAll(REFERENCE_START)];
  if (starts[0]?.index !== 0) return { refs: [], invalid: cell };
  const refs = starts.map((m, i) => {
    const titleStart = m.index + m[0].length;
    const titleEnd = starts[i + 1]?.index ?? cell.length;
    return { line, file: m[1] as string, titles: cell.slice(titleStart, titleEnd).split(SEPARATOR) };
  });
  return { refs, invalid: null };
}

/** Every reference in the `Test` column of every table of a markdown document. */
export function testReferences(markdown: string): { refs: TestReference[]; invalid: { line: number; cell: string }[] } {
  const refs: TestReference[] = [];
  const invalid: { line: number; cell: string }[] = [];
  let testColumn = -1;
  const lines = markdown.split("\n");
  lines.forEach((text, i) => {
    if (!text.trimStart().startsWith("|")) {
      testColumn = -1;
      return;
    }
    const row = cells(text);
    if (testColumn < 0) {
      // A header row (the one before the `---` divider) names the column.
      const next = lines[i + 1] ?? "";
      if (/^\s*\|\s*-{3}/.test(next)) testColumn = row.indexOf("Test");
      else testColumn = -2;
      return;
    }
    if (testColumn === -2 || /^-+$/.test(row[0] ?? "")) return;
    const parsed = parseTestCell(row[testColumn] ?? "", i + 1);
    refs.push(...parsed.refs);
    if (parsed.invalid !== null) invalid.push({ line: i + 1, cell: parsed.invalid });
  });
  return { refs, invalid };
}

/**
 * Titles of the `it`/`test`/`describe` calls in a test file, each as a matcher: literal titles
 * match exactly; a template literal with `${…}` or an `.each` title with `%s`-style placeholders
 * matches any text in those places.
 */
export function testTitles(path: string): ((title: string) => boolean)[] {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const titles: ((title: string) => boolean)[] = [];
  const rootName = (callee: ts.Expression): string | null => {
    if (ts.isIdentifier(callee)) return callee.text;
    if (ts.isPropertyAccessExpression(callee)) return rootName(callee.expression);
    if (ts.isCallExpression(callee)) return rootName(callee.expression);
    return null;
  };
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const visit = (node: ts.Node) => {
    const first = ts.isCallExpression(node) ? node.arguments[0] : undefined;
    if (ts.isCallExpression(node) && first && TEST_CALLS.has(rootName(node.expression) ?? "")) {
      if (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) {
        const text = first.text;
        if (/%[sdifjo#%]/.test(text)) {
          const pattern = new RegExp(`^${literal(text).replace(/%[sdifjo#]/g, ".+")}$`);
          titles.push((t) => t === text || pattern.test(t));
        } else titles.push((t) => t === text);
      } else if (ts.isTemplateExpression(first)) {
        const parts = [first.head.text, ...first.templateSpans.map((s) => s.literal.text)];
        const pattern = new RegExp(`^${parts.map(literal).join(".+")}$`);
        titles.push((t) => pattern.test(t));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return titles;
}
