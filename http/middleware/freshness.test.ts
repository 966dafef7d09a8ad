import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MarketDb } from "../../market/db";
import { metrics } from "../../ops/metrics/registry";
import { headAgeSec, observeStreamEmit, rowVisibleObserver } from "../../ops/metrics/freshness";
import { freshnessHeader } from "./freshness";

/** A Ponder 0.17 checkpoint string: 10 digits timestamp, 16 chain id, 16 block, 16 tx index, 1 type, 16 event index. */
function checkpoint(timestampSec: number, block: number): string {
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  return `${pad(timestampSec, 10)}${pad(4663, 16)}${pad(block, 16)}${pad(0, 16)}9${pad(0, 16)}`;
}

/** Observations so far of a histogram (its `_count`), optionally of one label set. */
async function countOf(
  h: { get(): Promise<{ values: Array<{ metricName?: string; value: number; labels: object }> }> },
  labels: object = {},
) {
  const { values } = await h.get();
  return (
    values.find((v) => v.metricName?.endsWith("_count") && JSON.stringify(v.labels) === JSON.stringify(labels))
      ?.value ?? 0
  );
}

describe("freshness", () => {
  let pg: PGlite;
  let db: MarketDb;
  let nowMs = 0;
  let app: Hono;

  beforeAll(async () => {
    pg = new PGlite();
    await pg.exec(`CREATE TABLE _ponder_checkpoint (chain_name text PRIMARY KEY, latest_checkpoint text NOT NULL)`);
    db = drizzle(pg) as unknown as MarketDb;
    app = new Hono()
      .use(
        "/api/public/tokens/*",
        freshnessHeader(db, () => nowMs),
      )
      .get("/api/public/tokens/new", (c) => c.json({ ok: true }));
  });
  afterAll(async () => {
    await pg.close();
  });

  it("Freshness-Sec is the clock minus the indexed head's block time, absent before the first block", async () => {
    nowMs = 1_700_000_010_900;
    expect((await app.request("/api/public/tokens/new")).headers.get("Freshness-Sec")).toBeNull();
    await pg.query(`INSERT INTO _ponder_checkpoint VALUES ('evmchain', $1)`, [checkpoint(1_700_000_007, 120)]);
    const res = await app.request("/api/public/tokens/new");
    expect(res.status).toBe(200);
    expect(res.headers.get("Freshness-Sec")).toBe("3");
    nowMs = 1_700_000_000_000; // a clock behind the block: age 0, never negative
    expect((await app.request("/api/public/tokens/new")).headers.get("Freshness-Sec")).toBe("0");
  });

  it("headAgeSec floors to whole seconds", () => {
    expect(headAgeSec(checkpoint(1_000, 1), 1_003_999)).toBe(3);
    expect(headAgeSec(checkpoint(1_000, 1), 1_004_000)).toBe(4);
  });

  it("the row-visible histogram observes each new head once, the time since its block", async () => {
    let clock = 2_000_500;
    const observe = rowVisibleObserver(() => clock);
    const before = await countOf(metrics.freshnessRowVisible);
    const sumBefore = (await metrics.freshnessRowVisible.get()).values.find((v) =>
      v.metricName?.endsWith("_sum"),
    )!.value;
    observe(null);
    observe(checkpoint(2_000, 10));
    observe(checkpoint(2_000, 10)); // the same head again: no observation
    clock = 2_002_250;
    observe(checkpoint(2_001, 11));
    expect((await countOf(metrics.freshnessRowVisible)) - before).toBe(2);
    const sumAfter = (await metrics.freshnessRowVisible.get()).values.find((v) =>
      v.metricName?.endsWith("_sum"),
    )!.value;
    expect(sumAfter - sumBefore).toBeCloseTo(0.5 + 1.25, 6);
  });

  it("the stream histogram observes per stream and frame kind", async () => {
    const labels = { stream: "trades", frame: "pending" };
    const before = await countOf(metrics.freshnessSseEmit, labels);
    observeStreamEmit("trades", "pending", 3_000, 3_000_700);
    expect((await countOf(metrics.freshnessSseEmit, labels)) - before).toBe(1);
    expect(await countOf(metrics.freshnessSseEmit, { stream: "events", frame: "confirmed" })).toBe(0);
  });
});
