/**
 * An API replica (`ponder serve`) as an operator starts it (docs/operations.md "Horizontal
 * scaling: API replicas"), and the service's log on PostgreSQL:
 *
 * - without `--hostname` a replica binds where the indexer binds (loopback), not every interface;
 * - without `PUBLIC_BASE_URL` a replica refuses to start, naming the setting (its own address
 *   would otherwise land in every link it serves);
 * - the indexer's log stays JSON lines: pg's `DeprecationWarning` (which Ponder's own statements
 *   cause on PostgreSQL) is one structured line, not plain text.
 *
 * Skipped, with the reason, when the test PostgreSQL is unreachable.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../devnet/anvil";
import { type PonderProcess, startPonder } from "../../scripts/ponderProcess";
import { startStack, type Stack } from "../helpers/harness";
import { postgresAvailable, TEST_DATABASE_URL } from "../helpers/postgres";

const available = await postgresAvailable();
if (!available) console.warn(`PostgreSQL mode skipped: ${TEST_DATABASE_URL} is unreachable`);

let stack: Stack;
const replicas: PonderProcess[] = [];

beforeAll(async () => {
  if (!available) return;
  stack = await startStack({ schema: "e2e_replica", database: "postgres", env: { LOG_FORMAT: "json" } });
});

afterAll(async () => {
  for (const replica of replicas) await replica.stop();
  await stack?.stop();
});

/** Whether a TCP connection to `host:port` is accepted. */
async function accepts(host: string, port: number): Promise<boolean> {
  try {
    await fetch(`http://${host}:${port}/health`);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!available)("an API replica started as the operations guide says", () => {
  it("without --hostname binds loopback, where the indexer binds, not every interface", async () => {
    const port = await findFreePort();
    const replica = await startPonder({
      command: "serve",
      port,
      schema: stack.schema,
      hostname: null,
      env: { ...stack.serviceEnv, PUBLIC_BASE_URL: "https://launch.example.com" },
    });
    replicas.push(replica);
    const created = replica
      .output()
      .split("\n")
      .find((line) => line.includes("Created HTTP server"));
    expect(created).toContain('"hostname":"127.0.0.1"');
    expect(await accepts("127.0.0.1", port)).toBe(true);
    // Another loopback address reaches a socket bound to every interface, never one bound to 127.0.0.1.
    expect(await accepts("127.0.0.2", port)).toBe(false);
    // Its links name the public site.
    const tokens = (await (await fetch(`${replica.url}/api/public/tokens/new`)).json()) as { ok: boolean };
    expect(tokens.ok).toBe(true);
  });

  it("without PUBLIC_BASE_URL refuses to start, naming the setting", async () => {
    const started = Date.now();
    const error = await startPonder({
      command: "serve",
      port: await findFreePort(),
      schema: stack.schema,
      env: { ...stack.serviceEnv, PUBLIC_BASE_URL: "" },
    }).then(
      (replica) => {
        replicas.push(replica);
        return undefined;
      },
      (err: Error) => err,
    );
    expect(error?.message).toMatch(/ponder exited with code [1-9]/);
    expect(error?.message).toContain("PUBLIC_BASE_URL: required on an API replica (ponder serve)");
    console.log(JSON.stringify({ replica_refusal_ms: Date.now() - started }));
  });
});

describe.skipIf(!available)("the service's log on PostgreSQL", () => {
  it("is JSON lines only: pg's DeprecationWarning is a structured warning line", async () => {
    const lines = stack.service
      .output()
      .split("\n")
      .filter((line) => line.trim() !== "");
    const plain = lines.filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    expect(plain).toEqual([]);
    const warnings = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "Process warning");
    expect(warnings).toContainEqual(
      expect.objectContaining({
        level: 40,
        warning: "DeprecationWarning",
        message: expect.stringContaining("client.query() when the client is already executing a query"),
      }),
    );
  });
});
