import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { readCache } from "./readCache";

/** An app whose one route counts its computations; the head and content version are set by the test. */
function makeApp(options: { ttlMs: number; status?: number; delayMs?: number }) {
  const state = { head: "cp-1" as string | null, version: 0, computed: 0, clockMs: 1_000 };
  const cache = readCache({
    nowMs: () => state.clockMs,
    readHead: async () => state.head,
    contentVersion: () => state.version,
    ttlMs: options.ttlMs,
    headRefreshMs: 0,
  });
  const app = new Hono();
  app.use("/data/*", cache.middleware);
  app.get("/data/:id", async (c) => {
    state.computed++;
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    return c.json({ id: c.req.param("id"), n: state.computed }, (options.status ?? 200) as 200);
  });
  return { app, state, cache };
}

describe("read cache keyed by the indexer checkpoint", () => {
  it("reuses an answer while the checkpoint is unchanged, recomputes when it moves", async () => {
    const { app, state, cache } = makeApp({ ttlMs: 60_000 });
    const first = await app.request("/data/a");
    expect(first.headers.get("x-cache")).toBe("miss");
    const again = await app.request("/data/a");
    expect(again.headers.get("x-cache")).toBe("hit");
    expect(await again.json()).toEqual(await first.json());
    expect(state.computed).toBe(1);
    // Another URL is another entry.
    await app.request("/data/b");
    expect(state.computed).toBe(2);
    // A new block indexed: new answers.
    state.head = "cp-2";
    expect(await (await app.request("/data/a")).json()).toEqual({ id: "a", n: 3 });
    expect(cache.stats()).toEqual({ hits: 1, misses: 3 });
  });

  it("recomputes when the content version changes (a confirm stored creator metadata)", async () => {
    const { app, state } = makeApp({ ttlMs: 60_000 });
    await app.request("/data/a");
    state.version++;
    await app.request("/data/a");
    expect(state.computed).toBe(2);
  });

  it("shares one computation among concurrent identical requests", async () => {
    const { app, state } = makeApp({ ttlMs: 60_000, delayMs: 30 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => app.request("/data/x")));
    expect(state.computed).toBe(1);
    expect(new Set(await Promise.all(answers.map((r) => r.text()))).size).toBe(1);
    expect(answers.filter((r) => r.headers.get("x-cache") === "hit")).toHaveLength(9);
  });

  it("never stores an error answer", async () => {
    const { app, state } = makeApp({ ttlMs: 60_000, status: 404 });
    for (let i = 0; i < 3; i++) expect((await app.request("/data/a")).status).toBe(404);
    expect(state.computed).toBe(3);
  });

  it("expires entries after ttlMs even at the same checkpoint", async () => {
    const { app, state } = makeApp({ ttlMs: 20 });
    await app.request("/data/a");
    state.clockMs += 19;
    expect((await app.request("/data/a")).headers.get("x-cache")).toBe("hit");
    expect(state.computed).toBe(1);
    state.clockMs += 2;
    expect((await app.request("/data/a")).headers.get("x-cache")).toBe("miss");
    expect(state.computed).toBe(2);
  });

  it("is off with ttlMs 0 and without a checkpoint", async () => {
    const off = makeApp({ ttlMs: 0 });
    await off.app.request("/data/a");
    await off.app.request("/data/a");
    expect(off.state.computed).toBe(2);
    const noHead = makeApp({ ttlMs: 60_000 });
    noHead.state.head = null;
    await noHead.app.request("/data/a");
    await noHead.app.request("/data/a");
    expect(noHead.state.computed).toBe(2);
  });
});
