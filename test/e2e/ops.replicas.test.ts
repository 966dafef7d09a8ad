/**
 * Horizontal scaling on PostgreSQL: one indexer (`ponder start`) and one API replica
 * (`ponder serve`, which loads the same API file and opens the same offchain store) on one
 * database. Per-key rate limits and idempotency hold across the two processes because both live
 * in the shared store. Skipped, with the reason, when the test PostgreSQL is unreachable.
 */
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PonderProcess } from "../../scripts/ponderProcess";
import { startStack, until, type Stack } from "../helpers/harness";
import { postgresAvailable, TEST_DATABASE_URL } from "../helpers/postgres";
import { loadStoreConfig, openStore } from "../../store/index";
import { createApiKey } from "../../store/keys";

const available = await postgresAvailable();
if (!available) console.warn(`PostgreSQL mode skipped: ${TEST_DATABASE_URL} is unreachable`);

let stack: Stack;
let replica: PonderProcess;

beforeAll(async () => {
  if (!available) return;
  stack = await startStack({
    schema: "e2e_ops_pg",
    database: "postgres",
    env: { V1_RATE_LIMIT_PER_MINUTE: "60", LOG_FORMAT: "json" },
  });
  replica = await stack.startExtra({ command: "serve" });
});

afterAll(async () => {
  await stack?.stop();
});

async function call(base: string, path: string, init: RequestInit = {}, apiKey = stack.apiKey) {
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${apiKey}`);
  const res = await fetch(`${base}${path}`, { ...init, headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

/** Waits, if needed, so that `seconds` fit before the next UTC minute (rate windows are fixed minutes). */
async function roomInMinute(seconds: number) {
  const left = 60 - ((Date.now() / 1000) % 60);
  if (left < seconds) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

describe.skipIf(!available)("an indexer and an API replica on one PostgreSQL", () => {
  it("the replica is `ponder serve`: same API, same indexed data, its own /metrics with ours and Ponder's", async () => {
    expect(replica.output()).not.toContain("Started live indexing");
    // Both 200 once caught up with the chain (READY_MAX_LAG_BLOCKS): poll rather than race a block.
    const [a, b] = await until("both processes healthy", async () => {
      const both = await Promise.all([call(stack.service.url, "/api/v1/health"), call(replica.url, "/api/v1/health")]);
      return both.every((r) => r.status === 200) ? both : undefined;
    });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.store).toMatchObject({ ok: true, kind: "postgres" });
    expect(Math.abs(a.body.indexer.block_number - b.body.indexer.block_number)).toBeLessThanOrEqual(2);
    // `ponder serve` guards /metrics as `ponder start` does: only with the bearer token.
    expect((await fetch(`${replica.url}/metrics`)).status).toBe(401);
    const families = parsePrometheusTextFormat(
      await (
        await fetch(`${replica.url}/metrics`, { headers: { Authorization: `Bearer ${stack.metricsToken}` } })
      ).text(),
    ) as Array<{ name: string }>;
    const names = new Set(families.map((f) => f.name));
    for (const name of [
      "launchpad_http_requests_total",
      "launchpad_indexer_head_block",
      "launchpad_rpc_requests_total",
      "ponder_http_server_request_duration_ms",
    ])
      expect(names.has(name), name).toBe(true);
  });

  it("60 requests of one key split across both processes: the 61st is 429 on either", async () => {
    await roomInMinute(20);
    const path = "/api/v1/evmchain/tokens/0x000000000000000000000000000000000000dEaD";
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++)
      statuses.push((await call(i % 2 === 0 ? stack.service.url : replica.url, path)).status);
    expect(statuses.every((s) => s === 404)).toBe(true);
    const overA = await call(stack.service.url, path);
    const overB = await call(replica.url, path);
    expect([overA.status, overA.body.error]).toEqual([429, "rate_limited"]);
    expect([overB.status, overB.body.error]).toEqual([429, "rate_limited"]);
    expect(overB.headers.get("ratelimit")).toMatch(/remaining=0/);
    expect(Number(overB.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("one Idempotency-Key on both processes creates one intent", async () => {
    // A second key (the first one is over its limit this minute), created while both run: the
    // store is PostgreSQL, so the CLI path works beside the service.
    const store = await openStore(loadStoreConfig(stack.serviceEnv));
    const { secret } = await createApiKey(store, {
      wallet: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      label: "replicas",
      createdVia: "cli",
    });
    await store.close();
    const body = JSON.stringify({
      creator: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      name: "Replica Coin",
      symbol: "REPL",
    });
    const post = (base: string, key: string) =>
      call(
        base,
        "/api/v1/evmchain/launches/intent",
        { method: "POST", headers: { "Content-Type": "application/json", "Idempotency-Key": key }, body },
        secret,
      );

    const first = await post(stack.service.url, "ops-replica-1");
    expect(first.status).toBe(201);
    const replay = await post(replica.url, "ops-replica-1");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.launch_id).toBe(first.body.launch_id);

    // Concurrently on both: exactly one runs; the other waits its turn (409) or replays.
    const [x, y] = await Promise.all([post(stack.service.url, "ops-replica-2"), post(replica.url, "ops-replica-2")]);
    const created = [x, y].filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of [x, y]) expect([201, 409]).toContain(r.status);
    expect(new Set(created.map((r) => r.body.launch_id)).size).toBe(1);

    const client = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
    await client.connect();
    try {
      const schema = String(stack.serviceEnv.STORE_SCHEMA);
      const { rows } = await client.query(`select count(*)::int as n from "${schema}".launches`);
      expect(rows[0].n).toBe(2);
    } finally {
      await client.end();
    }
  });
});
