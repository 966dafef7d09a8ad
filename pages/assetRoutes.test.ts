import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { assetRoutes } from "./assetRoutes";
import { modulePreloads } from "./moduleGraph";

const assetsDir = join(dirname(fileURLToPath(import.meta.url)), "assets");
const scripts = readdirSync(assetsDir).filter((name) => name.endsWith(".js"));

/** The `/assets/…` paths a browser module imports (static `import … from` and side-effect `import "…"`). */
function importedAssetPaths(source: string): string[] {
  return [...source.matchAll(/^import\s+(?:[^"']*?\s+from\s+)?["'](\/assets\/[^"']+)["'];?$/gm)].map((m) => m[1]!);
}

describe("page assets", () => {
  const app = assetRoutes();

  it("serves every script of pages/assets as JavaScript", async () => {
    expect(scripts).toContain("token.js");
    for (const name of [...scripts, "site.css"]) {
      const res = await app.request(`/assets/${name}`);
      expect(res.status, name).toBe(200);
      // Imports of other assets name fingerprinted URLs (`?v=<hash>`); otherwise the file as is.
      expect((await res.text()).replace(/\?v=[A-Za-z0-9_-]+(?=["'])/g, ""), name).toBe(
        readFileSync(join(assetsDir, name), "utf8"),
      );
      expect(res.headers.get("content-type"), name).toMatch(name.endsWith(".css") ? /^text\/css/ : /^text\/javascript/);
    }
  });

  it("serves every module the scripts import (a missing one would stop the page's script)", async () => {
    const imported = new Set(
      scripts.flatMap((name) => importedAssetPaths(readFileSync(join(assetsDir, name), "utf8"))),
    );
    expect(imported).toContain("/assets/tokenChart.js");
    expect(imported).toContain("/assets/vendor/lightweight-charts.mjs");
    for (const path of imported) expect((await app.request(path)).status, path).toBe(200);
  });

  it("answers an unknown asset with the catalogue's 404", async () => {
    const res = await app.request("/assets/nope.js");
    expect(res.status).toBe(404);
  });

  it("announces every module a page's scripts import, and nothing else (modulepreload)", async () => {
    const closure = (entries: string[]) => {
      const seen = new Set<string>();
      const walk = (path: string) => {
        if (!path.startsWith("/assets/") || path.slice(8).includes("/")) return;
        for (const imported of importedAssetPaths(readFileSync(join(assetsDir, path.slice(8)), "utf8"))) {
          if (!seen.has(imported) && !entries.includes(imported)) {
            seen.add(imported);
            walk(imported);
          }
        }
      };
      for (const entry of entries) walk(entry);
      return [...seen].sort();
    };
    for (const entries of [["/assets/token.js", "/assets/trade.js"], ["/assets/launch.js"]]) {
      const preloads = modulePreloads(entries);
      expect([...preloads].sort()).toEqual(closure(entries));
      expect(preloads).not.toContain(entries[0]);
      for (const path of preloads) expect((await app.request(path)).status, path).toBe(200);
    }
    expect(modulePreloads(["/assets/token.js"])).toEqual(
      expect.arrayContaining([
        "/assets/tokenTrades.js",
        "/assets/tokenChart.js",
        "/assets/vendor/lightweight-charts.mjs",
      ]),
    );
  });
});
