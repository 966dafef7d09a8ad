/**
 * Static guard for the rule of `market/ponderTables.ts`: no raw SQL string of the service's
 * read side names one of Ponder's tables unqualified. Every `sql` tagged template, `sql.raw(…)`
 * and `execute("…")` string in the API, pages, feeds, launch and store sources is parsed with the
 * TypeScript compiler; its literal text (interpolations excluded: a `${table}` renders qualified)
 * must not put a Ponder table name after FROM / JOIN / INTO / UPDATE / TABLE.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as schema from "../ponder.schema";
import { ponderInternalTable } from "./ponderTables";

const root = join(import.meta.dirname, "..");
const scanned = ["http", "market", "launches", "media", "ops", "pages", "feeds", "chain", "store"];

/** Every Ponder table name: the onchain tables of ponder.schema.ts and Ponder's own `_ponder_*`. */
const ponderTableNames = (Object.values(schema) as unknown[])
  .filter((v): v is PgTable => v instanceof PgTable)
  .map((t) => getTableConfig(t).name);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The literal SQL text of every raw SQL string in `code` (template parts joined by a placeholder). */
function rawSqlTexts(code: string, fileName = "x.ts"): string[] {
  const file = ts.createSourceFile(
    fileName,
    code,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out: string[] = [];
  const textOf = (node: ts.Node): string | undefined => {
    if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isStringLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node))
      return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(" $param ");
    return undefined;
  };
  const visit = (node: ts.Node) => {
    if (ts.isTaggedTemplateExpression(node) && /(^|\.)sql$/.test(node.tag.getText(file))) {
      const text = textOf(node.template);
      if (text !== undefined) out.push(text);
    }
    if (
      ts.isCallExpression(node) &&
      /(^|\.)(raw|execute|exec|query)$/.test(node.expression.getText(file)) &&
      node.arguments[0]
    ) {
      const text = textOf(node.arguments[0]);
      if (text !== undefined) out.push(text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** Unqualified Ponder table names a SQL text reads or writes. */
function unqualifiedPonderTables(text: string, names: readonly string[] = ponderTableNames): string[] {
  const found: string[] = [];
  const re = /\b(?:from|join|into|update|table)\s+("?)([a-z_][a-z0-9_]*)\1(?!\s*\.)/gi;
  for (const m of text.matchAll(re)) {
    const name = m[2]!.toLowerCase();
    if (names.includes(name) || name.startsWith("_ponder")) found.push(name);
  }
  return found;
}

describe("raw SQL names Ponder tables only schema-qualified", () => {
  it("knows the Ponder tables", () => {
    expect(ponderTableNames).toEqual(expect.arrayContaining(["token", "trade", "candle", "event", "fee_claim"]));
  });

  it("catches the unqualified forms (the scanner can fail)", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text for the scanner, not a template
    const bad =
      "await db.execute(sql`SELECT close_wei FROM candle WHERE candle.token = ${a}`); db.execute(sql`SELECT latest_checkpoint FROM _ponder_checkpoint`); sql.raw('select 1 from \"trade\" t')";
    expect(rawSqlTexts(bad).flatMap((t) => unqualifiedPonderTables(t))).toEqual([
      "candle",
      "_ponder_checkpoint",
      "trade",
    ]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text for the scanner, not a template
    const good =
      'db.execute(sql`SELECT ${c.closeWei} FROM ${c} JOIN "s"."trade" ON true`); sql`FROM ${ponderInternalTable("_ponder_checkpoint")}`';
    expect(rawSqlTexts(good).flatMap((t) => unqualifiedPonderTables(t))).toEqual([]);
  });

  it("finds none in the service's sources", () => {
    const offenders = scanned.flatMap((dir) =>
      sourceFiles(join(root, dir)).flatMap((path) =>
        rawSqlTexts(readFileSync(path, "utf8"), path).flatMap((text) =>
          unqualifiedPonderTables(text).map((name) => `${relative(root, path)}: ${name}`),
        ),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it("qualifies Ponder's internal tables with the schema of the onchain tables", () => {
    const dialect = new PgDialect();
    // Outside Ponder the tables have no schema: the name stays bare (search_path decides).
    expect(dialect.sqlToQuery(sql`FROM ${ponderInternalTable("_ponder_checkpoint")}`).sql).toBe(
      'FROM "_ponder_checkpoint"',
    );
    // Inside Ponder the onchain tables carry the namespace schema, and so does the checkpoint.
    const tokenSchema = Symbol.for("drizzle:Schema");
    const previous = (schema.token as unknown as Record<symbol, unknown>)[tokenSchema];
    (schema.token as unknown as Record<symbol, unknown>)[tokenSchema] = "ns_1";
    try {
      expect(dialect.sqlToQuery(sql`FROM ${ponderInternalTable("_ponder_checkpoint")}`).sql).toBe(
        'FROM "ns_1"."_ponder_checkpoint"',
      );
      expect(dialect.sqlToQuery(sql`FROM ${schema.token}`).sql).toBe('FROM "ns_1"."token"');
    } finally {
      (schema.token as unknown as Record<symbol, unknown>)[tokenSchema] = previous;
    }
  });
});
