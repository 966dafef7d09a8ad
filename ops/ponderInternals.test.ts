/**
 * Upgrade smoke test of the seam in `ops/ponderInternals.ts`: every assumption the service makes
 * about Ponder's, Vite's and viem's internals, checked against the installed packages. After an
 * upgrade this file fails first, naming the assumption that broke.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { decodeCheckpointBlock, PONDER_VERSION_CHECKED, ponderCliPath, viemEsmUnitFile } from "./ponderInternals";

const require = createRequire(import.meta.url);
/** The installed ponder package folder (`ponder/dist/esm/bin/ponder.js` is four levels below). */
const ponderDir = dirname(dirname(dirname(dirname(ponderCliPath()))));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".js"))
    .map((f) => join(dir, f));
}

describe("the internals the service relies on (upgrade smoke test)", () => {
  it("runs the Ponder release the seam was checked against", () => {
    const installed = JSON.parse(readFileSync(join(ponderDir, "package.json"), "utf8")).version;
    expect(installed, "Ponder was upgraded: re-check every assumption in ops/ponderInternals.ts").toBe(
      PONDER_VERSION_CHECKED,
    );
    expect(JSON.parse(readFileSync("package.json", "utf8")).dependencies.ponder).toBe(PONDER_VERSION_CHECKED);
  });

  it("runs an indexing function's delete against the database at once (why src/ never deletes)", () => {
    const cache = readFileSync(join(ponderDir, "dist", "esm", "indexing-store", "cache.js"), "utf8");
    const at = cache.indexOf("async delete({ table, key })");
    expect(at, "Ponder's indexing cache has no delete method any more").toBeGreaterThan(0);
    expect(cache.slice(at, at + 600), "Ponder's delete no longer queries the database: src/ may delete again").toMatch(
      /db\.delete\(table\)/,
    );
  });

  it("finds Ponder's CLI entry", () => {
    expect(existsSync(ponderCliPath())).toBe(true);
    expect(readFileSync(ponderCliPath(), "utf8")).toMatch(/ponder/i);
    // `npm run ponder` (the production command) names the same file.
    const script: string = JSON.parse(readFileSync("package.json", "utf8")).scripts.ponder;
    expect(script).toContain("node_modules/ponder/dist/esm/bin/ponder.js");
    expect(ponderCliPath().endsWith(join("node_modules", "ponder", "dist", "esm", "bin", "ponder.js"))).toBe(true);
  });

  it("decodes the block number and timestamp of checkpoints made by Ponder's own encoder", async () => {
    const { encodeCheckpoint, MAX_CHECKPOINT_STRING, ZERO_CHECKPOINT_STRING } = await import(
      pathToFileURL(join(ponderDir, "dist/esm/utils/checkpoint.js")).href
    );
    const encoded: string = encodeCheckpoint({
      blockTimestamp: 1_764_000_000n,
      chainId: 4663n,
      blockNumber: 123_456_789n,
      transactionIndex: 7n,
      eventType: 5,
      eventIndex: 99n,
    });
    expect(decodeCheckpointBlock(encoded)).toEqual({ blockNumber: 123_456_789n, timestampSec: 1_764_000_000n });
    expect(decodeCheckpointBlock(ZERO_CHECKPOINT_STRING)).toEqual({ blockNumber: 0n, timestampSec: 0n });
    expect(() => decodeCheckpointBlock(MAX_CHECKPOINT_STRING)).not.toThrow();
    expect(() => decodeCheckpointBlock(`${encoded}0`)).toThrow(/unexpected checkpoint/);
  });

  it("finds PONDER_COMMON set by Ponder's build with the services the seam reads", () => {
    const build = readFileSync(join(ponderDir, "dist/esm/build/index.js"), "utf8");
    expect(build).toMatch(/globalThis\.PONDER_COMMON\s*=/);
    const sources = filesUnder(join(ponderDir, "dist/esm")).map((f) => readFileSync(f, "utf8"));
    // metrics.registry (prom-client Registry), logger, apiShutdown, options.port.
    expect(sources.some((s) => /class MetricsService[\s\S]*?this\.registry = new prometheus\.Registry/.test(s))).toBe(
      true,
    );
    expect(sources.some((s) => /apiShutdown/.test(s))).toBe(true);
  });

  it("finds Vite's SIGTERM listener under the name detachViteSigtermExit removes", () => {
    const viteDir = dirname(require.resolve("vite/package.json", { paths: [ponderDir] }));
    const sources = filesUnder(join(viteDir, "dist/node")).map((f) => readFileSync(f, "utf8"));
    expect(
      sources.some(
        (s) => /const closeServerAndExit = async/.test(s) && /setupSIGTERMListener\(closeServerAndExit\)/.test(s),
      ),
    ).toBe(true);
  });

  it("serves viem's unit helpers as self-contained ES modules (they import only Value.js)", () => {
    for (const name of ["parseEther.js", "formatEther.js", "Value.js"]) {
      const text = readFileSync(viemEsmUnitFile(name), "utf8");
      const imports = [...text.matchAll(/^(?:import|export)\b[^\n]*\bfrom ['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      expect(
        imports.filter((i) => i !== "./Value.js"),
        `${name} imports outside the served files`,
      ).toEqual([]);
    }
  });
});
