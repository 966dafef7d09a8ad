/**
 * The SDK's generated types reject wrong calls at compile time: `tsc` over the package
 * (sdk/tsconfig.json: its sources and sdk/examples/typeChecks.ts) passes, so every
 * `@ts-expect-error` there marks a real error; and the same file with each marker removed fails
 * with the error its `EXPECT:` comment names (a wrong parameter name, a wrong candle resolution, a
 * code outside the error catalogue), so no marker passes for another reason.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runToExit } from "../helpers/runToExit";

const TSC = "node_modules/typescript/bin/tsc";
const EXAMPLES = "sdk/examples/typeChecks.ts";

describe.concurrent("sdk types", () => {
  it("the package and its compile-time examples type-check on their own (tsc -p sdk)", async () => {
    const result = await runToExit("node", [TSC, "-p", "sdk/tsconfig.json", "--noEmit"], { timeout: 120_000 });
    expect(result.status, result.stdout + result.stderr).toBe(0);
  }, 150_000);

  it("without the @ts-expect-error markers, each wrong call fails with the error it names", async () => {
    const source = readFileSync(EXAMPLES, "utf8");
    const expected = [...source.matchAll(/\/\/ EXPECT: (.+)$/gm)].map((m) => m[1]!.trim());
    expect(expected.length).toBeGreaterThanOrEqual(5);
    const dir = mkdtempSync(join(tmpdir(), "sdk-types-"));
    try {
      writeFileSync(
        join(dir, "typeChecks.ts"),
        source.replace(/^\s*\/\/ @ts-expect-error.*$/gm, "").replaceAll("../src/", `${resolve("sdk/src")}/`),
      );
      writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({ extends: resolve("sdk/tsconfig.json"), include: ["typeChecks.ts"] }),
      );
      const result = await runToExit("node", [TSC, "-p", join(dir, "tsconfig.json"), "--noEmit"], { timeout: 120_000 });
      const output = result.stdout + result.stderr;
      expect(result.status, output).not.toBe(0);
      for (const text of expected) expect(output, `expected a compile error: ${text}`).toContain(text);
      // One error per marker, none elsewhere.
      expect(output.match(/error TS\d+/g)?.length, output).toBe(expected.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
