/**
 * One initialised, empty PGlite cluster per test run, copied into each stack's data folders.
 *
 * Opening PGlite on an empty folder runs `initdb` (it writes the whole cluster, ~27 MB in
 * ~1,000 files); measured on the shared 2-core machine that took 5 to 22 s per folder, against
 * ~0.5 s to copy an initialised cluster and ~2 s to open it. Each end-to-end stack opens two
 * folders (Ponder's database and the offchain store), so the e2e tier's global set-up
 * (`e2eGlobalSetup.ts`) makes the cluster once and `startStack` copies it. The copy is the
 * cluster `initdb` would have written: no table, no schema, no migration of ours is in it, so
 * Ponder's table creation and the store's migrations still run in every stack.
 */
import { cpSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";

/** Name under which the e2e global set-up provides the template folder (vitest `provide`/`inject`). */
export const PGLITE_TEMPLATE_KEY = "pgliteTemplateDir";

declare module "vitest" {
  export interface ProvidedContext {
    /** Folder of an initialised, empty PGlite cluster (`createPgliteTemplate`). */
    pgliteTemplateDir: string;
  }
}

/**
 * Initialises an empty PGlite cluster in `dir` (PGlite's own `initdb`) and closes it.
 * @param dir - folder to create (must not hold a cluster yet)
 * @throws PGlite's error when the folder cannot be written
 */
export async function createPgliteTemplate(dir: string): Promise<void> {
  const db = await PGlite.create({ dataDir: dir });
  await db.query("select 1");
  await db.close();
}

/**
 * The template folder the e2e global set-up provided, or `undefined` outside vitest or in a
 * project without that set-up (then PGlite initialises each folder itself, as before).
 */
export async function providedPgliteTemplate(): Promise<string | undefined> {
  if (!process.env.VITEST) return undefined;
  try {
    const { inject } = await import("vitest");
    return inject(PGLITE_TEMPLATE_KEY) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Fills `targetDir` with a copy of the template cluster when there is one; otherwise leaves it
 * alone (PGlite then runs `initdb` on first open).
 * @param targetDir - a PGlite data folder that does not exist yet
 * @returns true when the template was copied
 */
export async function seedPgliteDir(targetDir: string): Promise<boolean> {
  const template = await providedPgliteTemplate();
  if (!template) return false;
  cpSync(template, targetDir, { recursive: true });
  return true;
}
