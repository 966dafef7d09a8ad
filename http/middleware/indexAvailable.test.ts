/**
 * The market-read guard (http/middleware/indexAvailable.ts) on a Hono app: a missing or unreadable
 * checkpoint is a 503 with Retry-After, never the route's (empty) answer. The checkpoint source is
 * a function here; the real service's path is test/e2e/slowclients.test.ts and test/e2e/readiness.test.ts.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { answerErrorsWithErrorBody } from "../errorResponses";
import { requireIndexedData } from "./indexAvailable";

function appWith(readCheckpoint: () => Promise<string | null>) {
  let served = 0;
  const app = new Hono();
  app.use("/tokens", requireIndexedData({ readCheckpoint, reuseMs: 0 }));
  app.get("/tokens", (c) => {
    served++;
    if (c.req.query("bad")) return c.json({ ok: false, error: "invalid_request", message: "bad" }, 400);
    return c.json({ ok: true, tokens: [] });
  });
  answerErrorsWithErrorBody(app, (t) => t);
  return { app, served: () => served };
}

describe("requireIndexedData", () => {
  it("answers 503 service_unavailable with Retry-After instead of the read's answer when the checkpoint is missing or cannot be read", async () => {
    for (const readCheckpoint of [
      async () => null,
      () => Promise.reject(new Error("EMFILE: too many open files, 10.0.0.5:5432")),
    ]) {
      const { app, served } = appWith(readCheckpoint);
      const res = await app.request("/tokens");
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      const body = (await res.json()) as { ok: boolean; error: string; message: string };
      expect(body).toMatchObject({ ok: false, error: "service_unavailable" });
      expect(body.message).not.toContain("10.0.0.5"); // the cause names internal hosts
      expect(served()).toBe(1);
    }
  });

  it("lets a 400 stand without reading the checkpoint (bad input does not depend on data)", async () => {
    let reads = 0;
    const { app } = appWith(async () => {
      reads++;
      return null;
    });
    expect((await app.request("/tokens?bad=1")).status).toBe(400);
    expect(reads).toBe(0);
  });

  it("serves the read when the checkpoint is there", async () => {
    const { app, served } = appWith(async () => "1795848801000000000046630000000000000047");
    expect((await app.request("/tokens")).status).toBe(200);
    expect(served()).toBe(1);
  });
});
