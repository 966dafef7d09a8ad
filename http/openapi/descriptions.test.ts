/**
 * The operation descriptions (http/openapi/descriptions.ts) against the document the app generates:
 * every operation has one, and every entry of the table names an operation (no stale entry).
 */
import { describe, expect, it } from "vitest";
import { OPERATION_DESCRIPTIONS } from "./descriptions";
import { placeholderApp } from "./placeholderApp";

async function generatedDocument() {
  const app = placeholderApp();
  const res = await app.request("/api/openapi.json");
  return (await res.json()) as { paths: Record<string, Record<string, { description?: string }>> };
}

describe("operation descriptions", () => {
  it("describe every operation of the generated document, and name no operation it lacks", async () => {
    const doc = await generatedDocument();
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(operations.filter(({ op }) => !op.description?.trim()).map(({ key }) => key)).toEqual([]);
    const keys = new Set(operations.map(({ key }) => key));
    expect(Object.keys(OPERATION_DESCRIPTIONS).filter((key) => !keys.has(key))).toEqual([]);
  });
});
