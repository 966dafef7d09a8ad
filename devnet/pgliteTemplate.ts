/**
 * One initialised, empty PGlite cluster per machine and PGlite version, copied into every new
 * PGlite data folder of the devnet (`npm start`: the indexer's database and the offchain store)
 * and of the end-to-end tests.
 *
 * Opening PGlite on an empty folder runs `initdb`, which writes the whole cluster (~27 MB in ~1,000
 * files): 1.4 s and 1.9 s of CPU on an idle 2-core machine, 5 to 22 s on a loaded one, twice per
 * `npm start`. Copying an initialised cluster takes ~0.05 s and opening the copy ~0.2 s. The copy
 * is exactly what `initdb` would have written: no schema, table or migration of ours is in it, so
 * Ponder's table creation and the store's migrations still run on every start.
 *
 * The cluster lives in `node_modules/.cache/evmchain-launch/` (the usual place for tools' caches;
 * it goes with `node_modules`), named after the pinned PGlite version, so an upgrade makes a new
 * one. It is built in a temporary sibling folder and renamed into place, so a crash or two starts
 * at once never leave a half-written cluster behind the name.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

let pinnedVersion: string | undefined;

/** The PGlite version `package.json` pins (exactly), e.g. `0.2.13`; read once per process. */
function pinnedPgliteVersion(): string {
  if (pinnedVersion === undefined) {
    const manifest = JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    pinnedVersion = manifest.dependencies["@electric-sql/pglite"] ?? "unknown";
  }
  return pinnedVersion;
}

/**
 * The folder of the machine's empty cluster for the pinned PGlite version (it may not exist yet).
 * @param cacheRoot - where tools' caches go (default `node_modules/.cache/evmchain-launch`)
 */
export function pgliteTemplateDir(cacheRoot = join(projectRoot, "node_modules", ".cache", "evmchain-launch")): string {
  return join(cacheRoot, `pglite-${pinnedPgliteVersion()}-empty`);
}

/** True when `dir` holds a whole cluster (PostgreSQL writes `PG_VERSION` first, so the rename decides). */
const holdsCluster = (dir: string) => existsSync(join(dir, "PG_VERSION"));

/**
 * Returns the empty cluster's folder, making it first when there is none (PGlite's own `initdb`).
 * Safe when several processes call it at once: each builds in its own temporary folder, the first
 * rename wins and the others use the winner's cluster.
 * @param dir - the cluster's folder (default {@link pgliteTemplateDir})
 * @returns `dir`
 * @throws the file system's or PGlite's error when the cache folder cannot be written
 */
export async function ensurePgliteTemplate(dir = pgliteTemplateDir()): Promise<string> {
  if (holdsCluster(dir)) return dir;
  mkdirSync(dirname(dir), { recursive: true });
  const building = mkdtempSync(`${dir}.building-`);
  try {
    const db = await PGlite.create({ dataDir: building });
    await db.query("select 1");
    await db.close();
    try {
      renameSync(building, dir);
    } catch (err) {
      if (!holdsCluster(dir)) throw err; // not "another process was first"
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

/**
 * Fills `targetDir` (a PGlite data folder that does not exist yet) with a copy of the empty cluster.
 * @param targetDir - the new data folder
 * @param templateDir - the cluster to copy (default: {@link ensurePgliteTemplate}'s)
 */
export async function copyPgliteTemplate(targetDir: string, templateDir?: string): Promise<void> {
  cpSync(templateDir ?? (await ensurePgliteTemplate()), targetDir, { recursive: true });
}
