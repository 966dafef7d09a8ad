/**
 * No app file over 300 lines (issue 31, docs/architecture.md "Small modules"): every TypeScript
 * file of the service, its tools and the SDK, except tests, benchmarks and the ABI modules
 * generated from compiled contracts (`abis/`, data rather than code) and generated types.
 */
import { readdirSync, readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
/** The bound (lines per file). */
const MAX_LINES = 300;
/** Not app code: tests, benchmarks, generated ABI modules and generated types. */
const EXEMPT = [/^test\//, /\.test\.tsx?$/, /\.test-d\.ts$/, /^bench\//, /^abis\//, /\/generated\//, /^generated\//];

/** Folders that hold the project's own code (what is below them, recursively), and the root's modules. */
const CODE_FOLDERS = [
  "src",
  "http",
  "market",
  "launches",
  "chain",
  "store",
  "feeds",
  "media",
  "webhooks",
  "config",
  "ops",
  "pages",
  "devnet",
  "scripts",
  "sdk",
];
/** Not ours or not source: installed packages, build output, run data. */
const SKIPPED = /(^|\/)(node_modules|dist|\.ponder|\.devnet|\.data)(\/|$)/;

/** Every `.ts`/`.tsx` file of the code folders and the root, as paths relative to the root. */
function appSourceFiles(): string[] {
  const isSource = (file: string) => /\.tsx?$/.test(file) && !SKIPPED.test(file);
  const below = CODE_FOLDERS.flatMap((folder) =>
    readdirSync(resolve(ROOT, folder), { recursive: true, encoding: "utf8" }).map((file) => `${folder}/${file}`),
  );
  const root = readdirSync(ROOT).filter((file) => /\.tsx?$/.test(file));
  return [...below, ...root].filter(isSource).map((file) => relative(ROOT, resolve(ROOT, file)));
}

describe("small modules", () => {
  it(`has no app file over ${MAX_LINES} lines`, () => {
    const files = appSourceFiles().filter((file) => !EXEMPT.some((pattern) => pattern.test(file)));
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .map((file) => ({ file, lines: readFileSync(resolve(ROOT, file), "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(over).toEqual([]);
  });
});
