/**
 * No app file over 300 lines (issue 31, docs/architecture.md "Small modules"): every TypeScript
 * file of the service, its tools and the SDK, except tests, benchmarks and the ABI modules
 * generated from compiled contracts (`abis/`, data rather than code) and generated types.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
/** The bound (lines per file). */
const MAX_LINES = 300;
/** Not app code: tests, benchmarks, generated ABI modules and generated types. */
const EXEMPT = [/^test\//, /\.test\.tsx?$/, /\.test-d\.ts$/, /^bench\//, /^abis\//, /\/generated\//, /^generated\//];

describe("small modules", () => {
  it(`has no app file over ${MAX_LINES} lines`, () => {
    const files = execFileSync("git", ["ls-files", "*.ts", "*.tsx"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .filter((file) => !EXEMPT.some((pattern) => pattern.test(file)));
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .map((file) => ({ file, lines: readFileSync(resolve(ROOT, file), "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(over).toEqual([]);
  });
});
