/**
 * The indexing functions never call `context.db.delete`: Ponder 0.17 runs every delete against
 * the database at once (`DELETE ... RETURNING`, awaited inside the event), while finds, inserts
 * and updates stay in its in-memory cache until the batch is flushed. Three deletes per launch
 * made the 10,000-launch backfill ~1.6x the Ponder floor (docs/operations.md "Scale"); rows are
 * emptied or set to 0 instead (src/indexing/prelaunchLogs.ts, src/indexing/LaunchToken.ts, src/indexing/LaunchFactory.ts).
 * ops/ponderInternals.test.ts checks that Ponder still runs deletes that way.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

describe("indexing functions", () => {
  it("never delete a row (a database round trip per call in Ponder)", () => {
    const files = readdirSync("src/indexing")
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .map((f) => join("src/indexing", f));
    expect(files.length).toBeGreaterThan(3);
    const deleting = files.filter((f) => /\.delete\s*\(/.test(readFileSync(f, "utf8")));
    expect(deleting).toEqual([]);
  });
});
