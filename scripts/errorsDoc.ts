/**
 * Generates docs/errors.md from the error catalogue (`ERROR_CATALOGUE` in http/errors.ts), so the
 * table of every `error` identifier, its HTTP status and meaning is never kept by hand.
 * `test/unit/errorsDoc.test.ts` fails when the committed file differs from what this generates.
 *
 *   npm run docs:errors            # writes docs/errors.md
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ERROR_CATALOGUE } from "../http/errors";

/** Where the generated document lives, relative to the checkout. */
export const ERRORS_DOC_PATH = "docs/errors.md";

/** One catalogue entry: HTTP status and meaning (one sentence or a few, markdown). */
export type CatalogueEntry = { status: number; meaning: string };

/**
 * Renders the error catalogue as a markdown document: a short introduction and one table row per
 * identifier, in catalogue order, padded as the project's formatter (biome) pads tables, so
 * `biome check` leaves the generated file unchanged.
 * @param catalogue - identifier -> `{ status, meaning }` (default: the service's catalogue)
 * @returns the whole file's text, ending with a newline
 * @example
 * renderErrorsDoc({ not_found: { status: 404, meaning: "No such endpoint." } });
 * // "# Errors\n…| `not_found` | 404    | No such endpoint. |\n"
 */
export function renderErrorsDoc(catalogue: Record<string, CatalogueEntry> = ERROR_CATALOGUE): string {
  const header = ["error", "status", "meaning"];
  const rows = Object.entries(catalogue).map(([code, { status, meaning }]) => [
    `\`${code}\``,
    String(status),
    cell(meaning),
  ]);
  const widths = header.map((h, i) => Math.max(3, h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  const table = [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
  return [
    "# Errors",
    "",
    "<!-- Generated from the error catalogue (http/errors.ts) by `npm run docs:errors`; do not edit by hand. -->",
    "",
    'Every failure is `{ "ok": false, "error": "<id>", "message": "…", "request_id": "…" }` with the status below; every',
    "response carries `X-Request-Id`. A malformed field's `message` is `<field>: <what to send>` in plain words (docs/api.md",
    '"Errors"). The served OpenAPI document (`GET /api/openapi.json`) names the errors each operation can answer.',
    "",
    ...table,
    "",
  ].join("\n");
}

/** A meaning as one table cell: one line, `|` escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const out = resolve(ERRORS_DOC_PATH);
  writeFileSync(out, renderErrorsDoc());
  console.log(`wrote ${out}`);
}
