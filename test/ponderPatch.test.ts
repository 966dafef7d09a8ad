/**
 * The Ponder patch (`patches/ponder+<version>.patch`, applied by `patch-package` on `npm install`;
 * docs/operations.md "Ponder patch") is installed: a fresh clone without it would fetch every
 * block holding any Uniswap V3 log of the chain once 1,000 pools are launched (docs/operations.md
 * "Scale"). The behaviour itself (no block holding only foreign pools' logs is fetched) is
 * asserted by `test/e2e.scale.test.ts`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

/** Folder of the installed `ponder` package (its `exports` hide package.json; tests run from the root). */
const ponderDir = join(process.cwd(), "node_modules", "ponder");
const installedVersion = (JSON.parse(readFileSync(join(ponderDir, "package.json"), "utf8")) as { version: string })
  .version;
const patchFiles = readdirSync("patches").filter((f) => f.startsWith("ponder+") && f.endsWith(".patch"));

/**
 * Per patched file (path inside the package): each hunk's new side (context and added lines, in
 * order, trimmed), which an applied patch leaves in the installed file as one contiguous run.
 */
function hunksOf(patch: string): Map<string, string[][]> {
  const files = new Map<string, string[][]>();
  let hunks: string[][] | undefined;
  for (const line of patch.split("\n")) {
    const target = /^\+\+\+ b\/node_modules\/ponder\/(.+)$/.exec(line);
    if (target) files.set(target[1]!, (hunks = []));
    else if (line.startsWith("@@")) hunks?.push([]);
    else if (hunks?.length && (line.startsWith(" ") || (line.startsWith("+") && !line.startsWith("+++"))))
      hunks.at(-1)!.push(line.slice(1).trim());
  }
  return files;
}

/** Whether `lines` holds `run` as a contiguous sequence. */
function containsRun(lines: string[], run: string[]): boolean {
  return lines.some((_, i) => run.every((line, j) => lines[i + j] === line));
}

describe("Ponder patch", () => {
  it("exists for exactly the installed Ponder version (an upgrade must drop or remake it)", () => {
    expect(patchFiles).toEqual([`ponder+${installedVersion}.patch`]);
  });

  it("is applied: each hunk's patched lines are in the installed files, in order", () => {
    const files = hunksOf(readFileSync(join("patches", `ponder+${installedVersion}.patch`), "utf8"));
    expect([...files.keys()].sort()).toEqual([
      "dist/esm/internal/options.js",
      "dist/esm/rpc/index.js",
      "dist/esm/sync-historical/index.js",
    ]);
    for (const [path, hunks] of files) {
      const installed = readFileSync(join(ponderDir, path), "utf8")
        .split("\n")
        .map((l) => l.trim());
      for (const hunk of hunks)
        expect(containsRun(installed, hunk), `${path} lacks the patched lines:\n${hunk.join("\n")}`).toBe(true);
    }
  });

  it("fetches a block in the historical sync only after its logs matched a child address", () => {
    const source = readFileSync(join(ponderDir, "dist/esm/sync-historical/index.js"), "utf8");
    const start = source.indexOf("const syncBlockData = async (blockNumber) => {");
    const logsSection = source.slice(start, source.indexOf("// Traces", start));
    const fetchAt = logsSection.indexOf("eth_getBlockByNumber(");
    const childFilterAt = logsSection.indexOf("isAddressMatched(");
    expect(start).toBeGreaterThan(0);
    expect(childFilterAt).toBeGreaterThan(0);
    expect(fetchAt, "the block is fetched before the logs are filtered by child address").toBeGreaterThan(
      childFilterAt,
    );
  });

  it("fails an eth_getLogs by block hash of an orphaned block at once instead of retrying for ~64 s", () => {
    const source = readFileSync(join(ponderDir, "dist/esm/rpc/index.js"), "utf8");
    // The retry loop gives up at once when the error is not retryable or is an orphaned block-hash query.
    expect(source).toMatch(/if \(shouldRetry\(error\) === false \|\| isOrphanedBlockHashQuery\(body, error\)\) \{/);
    const fn = source.slice(
      source.indexOf("function isOrphanedBlockHashQuery"),
      source.indexOf("function shouldRetry"),
    );
    expect(fn).toContain('body.method === "eth_getLogs"');
    expect(fn).toContain("blockHash");
    expect(fn).toMatch(/unknown block/);
  });

  describe("PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD", () => {
    const saved = process.env.PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD;
    afterEach(() => {
      if (saved === undefined) delete process.env.PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD;
      else process.env.PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD = saved;
    });
    const build = async () => {
      const { buildOptions } = (await import(pathToFileURL(join(ponderDir, "dist/esm/internal/options.js")).href)) as {
        buildOptions: (a: { cliOptions: object }) => { factoryAddressCountThreshold: number };
      };
      return buildOptions({
        cliOptions: { command: "start", version: installedVersion, root: ".", config: "ponder.config.ts" },
      });
    };

    it("keeps Ponder's default of 1,000 child addresses when unset", async () => {
      delete process.env.PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD;
      expect((await build()).factoryAddressCountThreshold).toBe(1_000);
    });

    it("sets the child-address count from which Ponder asks eth_getLogs without addresses", async () => {
      process.env.PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD = "3";
      expect((await build()).factoryAddressCountThreshold).toBe(3);
    });
  });
});
