/**
 * The README stays a landing page (issue 31): short, lines a reader can see whole, a tour that needs
 * only what a fresh machine has after `npm install` (curl, node, bash; not cast, uuidgen or jq), and
 * links that resolve. The tour's blocks themselves run against a stack in `test/e2e/readme.test.ts`.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tourBlocks } from "../helpers/readmeTour";

const README = readFileSync("README.md", "utf8");
const lines = README.trimEnd().split("\n");

describe("README.md", () => {
  it("is at most 250 lines, none over 200 characters", () => {
    expect(lines.length).toBeLessThanOrEqual(250);
    const long = lines.map((line, i) => [i + 1, line.length] as const).filter(([, length]) => length > 200);
    expect(long).toEqual([]);
  });

  it("starts with the two commands of a fresh machine: npm start and npm test", () => {
    const firstBlock = README.slice(README.indexOf("```sh"), README.indexOf("```", README.indexOf("```sh") + 5));
    expect(firstBlock).toMatch(/^npm install && npm start\b/m);
    expect(firstBlock).toMatch(/^npm install && npm test\b/m);
    expect(readFileSync(".ci/run", "utf8")).toMatch(/^npm test$/m);
  });

  it("has a tour of at most ~20 command lines using only curl, node and shell built-ins", () => {
    const blocks = tourBlocks(README);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const commands = blocks.flatMap((b) => b.split("\n")).filter((line) => line.trim() !== "");
    expect(commands.length).toBeLessThanOrEqual(22);
    const code = commands.map((line) => line.replace(/\s#\s.*$/, "")); // without trailing comments
    for (const line of code) expect(line).not.toMatch(/\b(cast|uuidgen|jq|wget|python3?)\b/);
    // No address typed in: every address comes from the running service.
    for (const line of commands) expect(line).not.toMatch(/0x[0-9a-fA-F]{40}/);
  });

  it("links only to files that exist", () => {
    const targets = [...README.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((t) => !/^[a-z]+:/.test(t));
    expect(targets.length).toBeGreaterThan(5);
    expect(targets.filter((t) => !existsSync(t))).toEqual([]);
  });
});
