/**
 * One current result per benchmark (bench/latest.ts): a re-run replaces `latest/<name>.json` and
 * moves the previous one to `history/`, and bench/README.md's current table is the one generated
 * from `bench/results/latest/`.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HISTORY_DIR, LATEST_DIR, readmeWithLatestTable, renderLatestTable, writeLatestResult } from "./latest";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("current benchmark results", () => {
  it("bench/README.md shows the table generated from bench/results/latest/ (run `npm run bench:readme`)", () => {
    const readme = readFileSync("bench/README.md", "utf8");
    expect(readme).toBe(readmeWithLatestTable(readme));
    expect(readme).toContain(renderLatestTable());
  });

  it("a re-run replaces latest/<name>.json and moves the previous run to history/", () => {
    const root = mkdtempSync(join(tmpdir(), "bench-latest-"));
    roots.push(root);
    const target = { name: "t <= 1", value: 2, met: false };
    writeLatestResult("demo", { benchmark: "demo", measuredAt: "2026-11-27T10:00:00.000Z", targets: [target] }, root);
    writeLatestResult("demo", { benchmark: "demo", measuredAt: "2026-11-28T10:00:00.000Z", targets: [] }, root);
    const latest = JSON.parse(readFileSync(join(root, LATEST_DIR, "demo.json"), "utf8")) as Record<string, unknown>;
    expect(latest.measuredAt).toBe("2026-11-28T10:00:00.000Z");
    expect(latest).toHaveProperty("commit");
    expect(latest).toHaveProperty("machine.loadAverageAtEnd");
    expect(readdirSync(join(root, HISTORY_DIR))).toEqual(["2026-11-27-demo.json"]);
    expect(existsSync(join(root, LATEST_DIR, "demo.json"))).toBe(true);
  });

  it("the table shows each target's value and whether it is met, and the load", () => {
    const root = mkdtempSync(join(tmpdir(), "bench-latest-"));
    roots.push(root);
    writeLatestResult(
      "demo",
      {
        measuredAt: "2026-11-28T10:00:00.000Z",
        commit: "abc",
        machine: { loadAverage: { start: [5], end: [6], oneMinuteSampledEvery10s: { min: 4, mean: 5.5, max: 7 } } },
        targets: [
          { name: "ratio <= 1.5", value: 1.25, met: true },
          { name: "catch-up < 10 s", value: 12, met: false },
        ],
      },
      root,
    );
    const table = renderLatestTable(root);
    const rows = table.split("\n").map((line) => line.split("|").map((cell) => cell.trim()));
    expect(rows[2]).toEqual([
      "",
      "demo",
      "2026-11-28T10:00:00.000Z",
      "abc",
      "5.5 (max 7.0)",
      "ratio <= 1.5",
      "1.25",
      "met",
      "",
    ]);
    expect(rows[3]).toEqual([
      "",
      "demo",
      "2026-11-28T10:00:00.000Z",
      "abc",
      "5.5 (max 7.0)",
      "catch-up < 10 s",
      "12",
      "**MISSED**",
      "",
    ]);
  });
});
