/**
 * The static import graph of the pages' own browser modules (`pages/assets/*.js`), so a page can
 * announce every module its scripts will import (`<link rel="modulepreload">`, HTML Living Standard
 * "Link type modulepreload") and a phone fetches them side by side instead of one import level per
 * round trip. Imports are read with es-module-lexer (the lexer Vite uses), once per process.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { init, parse } from "es-module-lexer";

const assetsDir = join(dirname(fileURLToPath(import.meta.url)), "assets");
const ASSET_PREFIX = "/assets/";

await init;

/** `/assets/x.js` -> the static `/assets/…` imports of that file (ours only; vendored files import nothing of ours). */
function directImports(path: string): string[] {
  const name = path.slice(ASSET_PREFIX.length);
  if (name.includes("/")) return []; // vendored modules (`/assets/vendor/…`) come from npm packages
  const [imports] = parse(readFileSync(join(assetsDir, name), "utf8"), name);
  return imports
    .filter((entry) => entry.d === -1 && entry.n?.startsWith(ASSET_PREFIX)) // static imports only
    .map((entry) => entry.n!);
}

const preloadsByEntries = new Map<string, readonly string[]>();

/**
 * Every module the page scripts `entries` import, directly or not, without the entries themselves,
 * in first-seen order (depth first).
 * @param entries - the page's module scripts, e.g. `["/assets/token.js", "/assets/trade.js"]`
 * @returns `/assets/…` paths, e.g. `["/assets/tokenChart.js", "/assets/vendor/lightweight-charts.mjs", …]`
 * @throws the file system's error when an entry or an import of ours is not in `pages/assets`
 */
export function modulePreloads(entries: readonly string[]): readonly string[] {
  const key = entries.join("\n");
  const cached = preloadsByEntries.get(key);
  if (cached) return cached;
  const seen = new Set<string>(entries);
  const found: string[] = [];
  const visit = (path: string) => {
    for (const imported of directImports(path)) {
      if (seen.has(imported)) continue;
      seen.add(imported);
      found.push(imported);
      visit(imported);
    }
  };
  for (const entry of entries) visit(entry);
  preloadsByEntries.set(key, found);
  return found;
}
