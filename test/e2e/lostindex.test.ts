/**
 * A served index that disappears after the service was ready (docs/operations.md "HTTP server
 * bounds"; the outside finding: after a descriptor flood the service answered `200 {tokens: []}`,
 * a 404 for a token that exists, and "the indexer has not recorded a block yet" until a manual
 * restart). Here the loss is made directly: the indexer's checkpoint row is deleted in the
 * service's PostgreSQL schema while it runs. Market reads must answer 503 with `Retry-After`, never
 * an empty market; readiness must say `stalled`; the supervisor (as `npm start` runs it) must
 * restart the service, after which the tokens are served again.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEther } from "viem";
import { launchToken } from "../../devnet/actions";
import { scaledMs } from "../helpers/deadlines";
import { startStack, until, type Stack } from "../helpers/harness";

let stack: Stack;
let token: string;

beforeAll(async () => {
  stack = await startStack({
    schema: "e2e_lostindex",
    database: "postgres",
    superviseIndexer: { restartAfterSec: 2 },
  });
  const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
    name: "Lost Index",
    symbol: "LOST",
    firstBuyWei: parseEther("0.01"),
  });
  token = launched.event.token;
  await until(
    "the launch indexed",
    async () => ((await stack.request(`/api/public/token/${token}`)).status === 200 ? true : undefined),
    scaledMs(60_000),
  );
});

afterAll(async () => {
  await stack?.stop();
});

describe("a lost index", () => {
  it("answers 503 with Retry-After instead of an empty market, reports stalled, and the supervisor's restart serves the tokens again", async () => {
    const client = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
    await client.connect();
    try {
      await client.query(`DELETE FROM "${stack.schema}"."_ponder_checkpoint"`);
    } finally {
      await client.end();
    }
    // Every market read refuses: never 200 with an empty list, never a 404 for the token.
    const refused = await until(
      "market reads answering 503",
      async () => {
        const list = await stack.request("/api/public/tokens/new");
        return list.status === 503 ? list : undefined;
      },
      scaledMs(10_000),
    );
    expect(refused.body).toMatchObject({ ok: false, error: "service_unavailable" });
    expect(refused.headers.get("retry-after")).toBe("5");
    const one = await stack.request(`/api/public/token/${token}`);
    if (stack.restarts() === 0) expect(one.status).toBe(503);
    // Readiness: stalled (a lost index), not "has not recorded a block yet".
    const ready = await stack.request("/api/v1/ready");
    if (stack.restarts() === 0) {
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe("stalled");
      expect(ready.body.reason).toContain("was indexed before");
    }
    // The supervisor restarts the service; the new process serves the token again.
    await until("a supervisor restart", async () => (stack.restarts() >= 1 ? true : undefined), scaledMs(60_000));
    const back = await until(
      "the token served again",
      async () => {
        const res = await stack.request(`/api/public/token/${token}`).catch(() => undefined);
        return res?.status === 200 ? res : undefined;
      },
      scaledMs(120_000),
    );
    expect(back.body.token.address).toBe(token);
  });
});
