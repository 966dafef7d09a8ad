import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { copyPgliteTemplate, ensurePgliteTemplate, pgliteTemplateDir } from "./pgliteTemplate";

const cacheRoot = mkdtempSync(join(tmpdir(), "pglite-template-test-"));
afterAll(() => rmSync(cacheRoot, { recursive: true, force: true }));

describe("the machine's empty PGlite cluster", () => {
  const dir = pgliteTemplateDir(cacheRoot);

  it("is named after the pinned PGlite version", () => {
    expect(dir).toMatch(/pglite-\d+\.\d+\.\d+-empty$/);
  });

  it("is built once when several starts ask for it at the same time, with nothing half-built left", async () => {
    const dirs = await Promise.all([ensurePgliteTemplate(dir), ensurePgliteTemplate(dir), ensurePgliteTemplate(dir)]);
    expect(new Set(dirs)).toEqual(new Set([dir]));
    expect(readdirSync(cacheRoot)).toEqual([dir.split("/").at(-1)]); // no `.building-` folder left
    const builtAtMs = statSync(join(dir, "PG_VERSION")).mtimeMs;
    await ensurePgliteTemplate(dir);
    expect(statSync(join(dir, "PG_VERSION")).mtimeMs).toBe(builtAtMs); // not built again
  });

  it("copies into a data folder that opens as an empty database, and the copy leaves the cluster as it was", async () => {
    const target = join(cacheRoot, "..", `${dir.split("/").at(-1)}-copy-${process.pid}`);
    try {
      await copyPgliteTemplate(target, dir);
      const db = await PGlite.create({ dataDir: target });
      const own = await db.query<{ n: number }>(
        "select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
      );
      expect(own.rows[0]!.n).toBe(0); // initdb's cluster only: our tables are made on every start
      await db.exec("create table written_by_the_copy (x int)");
      await db.close();
      const again = await PGlite.create({ dataDir: dir });
      const tables = await again.query("select 1 from pg_tables where tablename = 'written_by_the_copy'");
      expect(tables.rows).toHaveLength(0);
      await again.close();
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });
});
