/**
 * The Ponder patch (`patches/ponder+<version>.patch`, applied by `patch-package` on `npm install`;
 * docs/operations.md "Ponder patch") is installed: a fresh clone without it would fetch every
 * block holding any Uniswap V3 log of the chain once 1,000 pools are launched (docs/operations.md
 * "Scale"). The behaviour itself (no block holding only foreign pools' logs is fetched) is
 * asserted by `test/e2e/scale.test.ts`. The RPC-freeze hunks (one realtime poll in flight, the rate
 * limit kept through timeouts, a yield after each live block; docs/operations.md "Stalled indexer
 * after an RPC freeze") are checked here on Ponder's real RPC client against a frozen HTTP server,
 * and end to end by `test/e2e/readiness.test.ts` (indexing resumes within 10 s, no restart).
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { http } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import { installedVersion, ponderDir, ponderRpcCommon } from "../helpers/ponderRpc";

const patchFiles = readdirSync("patches").filter((f) => f.startsWith("ponder+") && f.endsWith(".patch"));

/**
 * Per patched file (path inside the package): each hunk's new side (context and added lines, in
 * order, trimmed), which an applied patch leaves in the installed file as one contiguous run.
 */
function hunksOf(patch: string): Map<string, string[][]> {
  const files = new Map<string, string[][]>();
  let hunks: string[][] | undefined;
  for (const line of patch.split("\n")) {
    const target = /^\+\+\+ b\/node_modules\/ponder\/(.+)$/.exec(line);
    if (target) files.set(target[1]!, (hunks = []));
    else if (line.startsWith("@@")) hunks?.push([]);
    else if (hunks?.length && (line.startsWith(" ") || (line.startsWith("+") && !line.startsWith("+++"))))
      hunks.at(-1)!.push(line.slice(1).trim());
  }
  return files;
}

/** Whether `lines` holds `run` as a contiguous sequence. */
function containsRun(lines: string[], run: string[]): boolean {
  return lines.some((_, i) => run.every((line, j) => lines[i + j] === line));
}

describe("Ponder patch", () => {
  it("exists for exactly the installed Ponder version (an upgrade must drop or remake it)", () => {
    expect(patchFiles).toEqual([`ponder+${installedVersion}.patch`]);
  });

  it("is applied: each hunk's patched lines are in the installed files, in order", () => {
    const files = hunksOf(readFileSync(join("patches", `ponder+${installedVersion}.patch`), "utf8"));
    expect([...files.keys()].sort()).toEqual([
      "dist/esm/database/actions.js",
      "dist/esm/database/index.js",
      "dist/esm/internal/options.js",
      "dist/esm/rpc/index.js",
      "dist/esm/runtime/multichain.js",
      "dist/esm/sync-historical/index.js",
    ]);
    for (const [path, hunks] of files) {
      const installed = readFileSync(join(ponderDir, path), "utf8")
        .split("\n")
        .map((l) => l.trim());
      for (const hunk of hunks)
        expect(containsRun(installed, hunk), `${path} lacks the patched lines:\n${hunk.join("\n")}`).toBe(true);
    }
  });

  it("fetches a block in the historical sync only after its logs matched a child address", () => {
    const source = readFileSync(join(ponderDir, "dist/esm/sync-historical/index.js"), "utf8");
    const start = source.indexOf("const syncBlockData = async (blockNumber) => {");
    const logsSection = source.slice(start, source.indexOf("// Traces", start));
    const fetchAt = logsSection.indexOf("eth_getBlockByNumber(");
    const childFilterAt = logsSection.indexOf("isAddressMatched(");
    expect(start).toBeGreaterThan(0);
    expect(childFilterAt).toBeGreaterThan(0);
    expect(fetchAt, "the block is fetched before the logs are filtered by child address").toBeGreaterThan(
      childFilterAt,
    );
  });

  it("fails an eth_getLogs by block hash of an orphaned block at once instead of retrying for ~64 s", () => {
    const source = readFileSync(join(ponderDir, "dist/esm/rpc/index.js"), "utf8");
    // The retry loop gives up at once when the error is not retryable or is an orphaned block-hash query.
    expect(source).toMatch(/if \(shouldRetry\(error\) === false \|\| isOrphanedBlockHashQuery\(body, error\)\) \{/);
    const fn = source.slice(
      source.indexOf("function isOrphanedBlockHashQuery"),
      source.indexOf("function shouldRetry"),
    );
    expect(fn).toContain('body.method === "eth_getLogs"');
    expect(fn).toContain("blockHash");
    expect(fn).toMatch(/unknown block/);
  });

  it("polls a frozen node one request at a time and keeps the rate limit through timeouts (the RPC-freeze fix)", async () => {
    // A frozen node (docs/operations.md "Stalled indexer after an RPC freeze"): requests are
    // accepted and not answered. Ponder's RPC client (the real one, on a real HTTP server) polls it
    // every 20 ms through a transport that times out after 200 ms.
    const open = new Set<ServerResponse>();
    let maxOpen = 0;
    let thawed = false;
    const notFound = (res: ServerResponse) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "the test is over" } }));
    };
    const server = createServer((req, res) => {
      req.resume();
      if (thawed) return notFound(res);
      open.add(res);
      maxOpen = Math.max(maxOpen, open.size);
      res.on("close", () => open.delete(res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { common, limits } = ponderRpcCommon();
    const { createRpc } = (await import(pathToFileURL(join(ponderDir, "dist/esm/rpc/index.js")).href)) as {
      createRpc: (a: object) => {
        subscribe: (a: { onBlock: (block: unknown) => Promise<void>; onError: (error: unknown) => void }) => void;
        unsubscribe: () => Promise<void>;
      };
    };
    const rpc = createRpc({
      common,
      chain: {
        name: "frozen",
        id: 1,
        pollingInterval: 20,
        rpc: (config: object) => http(url, { timeout: 200 })({ ...config, timeout: 200 }),
      },
    });
    rpc.subscribe({ onBlock: async () => {}, onError: () => {} });
    try {
      // Four timeouts of the one poll in flight: ~0.8 s, i.e. ~40 poll ticks.
      await expect.poll(() => limits.length, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(4);
      expect(maxOpen, "requests the frozen node held at once").toBe(1);
      expect(
        limits.every((limit) => limit === 20),
        `rate limits after timeouts: ${limits.join(", ")}`,
      ).toBe(true);
    } finally {
      await rpc.unsubscribe();
      // End the poll's retries: answer with an error Ponder does not retry.
      thawed = true;
      for (const res of open) notFound(res);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("yields to the event loop after each live-indexed block (the HTTP server answers during a catch-up on PGlite)", () => {
    const source = readFileSync(join(ponderDir, "dist/esm/runtime/multichain.js"), "utf8");
    const block = source.slice(source.indexOf('msg: "Indexed block",'), source.indexOf('case "reorg":'));
    expect(block, "the realtime loop's block case").toContain("await new Promise(setImmediate);");
  });

  describe("provider budget (PONDER_RPC_MAX_RPS, PONDER_RPC_START_RPS)", () => {
    const names = ["PONDER_RPC_MAX_RPS", "PONDER_RPC_START_RPS"] as const;
    const saved = names.map((name) => process.env[name]);
    afterEach(() => {
      names.forEach((name, i) => {
        if (saved[i] === undefined) delete process.env[name];
        else process.env[name] = saved[i];
      });
    });

    /**
     * Sends `count` `eth_chainId` requests at once through Ponder's real RPC client to a local HTTP
     * node that answers each at once (or with 429 while `throttle()` says so), and returns the
     * seconds from the node's first arrival to its last and the limits Ponder logged on each 429.
     */
    const burst = async (count: number, throttle = () => false) => {
      const arrivals: number[] = [];
      const server = createServer((req, res) => {
        req.resume();
        arrivals.push(Date.now());
        if (throttle()) {
          res.writeHead(429, { "content-type": "application/json" });
          return res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: 429, message: "rate limited" } }));
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: "0x1" }));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { common, limits } = ponderRpcCommon();
      const { createRpc } = (await import(pathToFileURL(join(ponderDir, "dist/esm/rpc/index.js")).href)) as {
        createRpc: (a: object) => { request: (body: { method: string }) => Promise<unknown> };
      };
      const rpc = createRpc({ common, chain: { name: "budget", id: 1, pollingInterval: 1_000, rpc: url } });
      try {
        await Promise.all(Array.from({ length: count }, () => rpc.request({ method: "eth_chainId" })));
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      const spanSec = (Math.max(...arrivals) - Math.min(...arrivals)) / 1000;
      // The most arrivals within any 1,000 ms, used only as a lower bound: a stalled event loop can
      // bunch arrivals (raising it), so an upper bound on it would fail under load.
      const sorted = [...arrivals].sort((a, b) => a - b);
      let mostInOneSecond = 0;
      for (let first = 0, last = 0; last < sorted.length; last++) {
        while (sorted[last]! - sorted[first]! >= 1000) first++;
        mostInOneSecond = Math.max(mostInOneSecond, last - first + 1);
      }
      return { spanSec, mostInOneSecond, limits, requests: arrivals.length };
    };

    it("unset: Ponder's limiter starts each URL at 20 requests/s", async () => {
      for (const name of names) delete process.env[name];
      // At L requests per wall-clock second, n requests span at least n / L - 1 seconds (a burst at
      // the end of one second and the start of the next); 1 s of margin below that.
      const { spanSec } = await burst(100);
      expect(spanSec, "seconds from the first arrival to the last").toBeGreaterThanOrEqual(3);
    });

    it("set: starts at the budget and stays within it", async () => {
      process.env.PONDER_RPC_MAX_RPS = "120";
      delete process.env.PONDER_RPC_START_RPS;
      const { spanSec, mostInOneSecond } = await burst(260);
      // Within it: 260 / 120 - 1 = 1.2 s at least. At the budget from the start: unpatched, Ponder
      // admits ~20 a second (at most ~42 in a second straddling two of its seconds). Both are lower
      // bounds, so a loaded machine cannot break them.
      expect(spanSec, "seconds from the first arrival to the last").toBeGreaterThanOrEqual(0.9);
      expect(mostInOneSecond, "most arrivals within one second").toBeGreaterThanOrEqual(60);
    });

    it("starts at PONDER_RPC_START_RPS below the max", async () => {
      process.env.PONDER_RPC_MAX_RPS = "200";
      process.env.PONDER_RPC_START_RPS = "50";
      const { spanSec, mostInOneSecond } = await burst(150);
      // 150 / 50 - 1 = 2 s at least (at the max, 200/s, well under a second); and above Ponder's
      // unpatched ~20 a second (at most ~42 in a second straddling two of its seconds).
      expect(spanSec, "seconds from the first arrival to the last").toBeGreaterThanOrEqual(1.5);
      expect(mostInOneSecond, "most arrivals within one second").toBeGreaterThanOrEqual(45);
    });

    it("backs off from the budget on a 429 (by Ponder's 5 %)", async () => {
      process.env.PONDER_RPC_MAX_RPS = "100";
      delete process.env.PONDER_RPC_START_RPS;
      let throttled = 0;
      const { limits, requests } = await burst(5, () => throttled++ < 1);
      expect(limits[0], `limits logged on 429: ${limits.join(", ")}`).toBe(95);
      expect(requests).toBe(6);
    });
  });

  describe("PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD", () => {
    const saved = process.env.PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD;
    afterEach(() => {
      if (saved === undefined) delete process.env.PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD;
      else process.env.PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD = saved;
    });
    const build = async () => {
      const { buildOptions } = (await import(pathToFileURL(join(ponderDir, "dist/esm/internal/options.js")).href)) as {
        buildOptions: (a: { cliOptions: object }) => { factoryAddressCountThreshold: number };
      };
      return buildOptions({
        cliOptions: { command: "start", version: installedVersion, root: ".", config: "ponder.config.ts" },
      });
    };

    it("keeps Ponder's default of 1,000 child addresses when unset", async () => {
      delete process.env.PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD;
      expect((await build()).factoryAddressCountThreshold).toBe(1_000);
    });

    it("sets the child-address count from which Ponder asks eth_getLogs without addresses", async () => {
      process.env.PONDER_FACTORY_ADDRESS_COUNT_THRESHOLD = "3";
      expect((await build()).factoryAddressCountThreshold).toBe(3);
    });
  });

  describe("commit block batch (PONDER_BATCH_COMMIT_BLOCK)", () => {
    const saved = process.env.PONDER_BATCH_COMMIT_BLOCK;
    afterEach(() => {
      if (saved === undefined) delete process.env.PONDER_BATCH_COMMIT_BLOCK;
      else process.env.PONDER_BATCH_COMMIT_BLOCK = saved;
    });
    const checkpoint = "1".padStart(75, "0");
    const maxCheckpoint = "9".repeat(75);
    /**
     * Three user tables' reorg tables on a real PGlite, each holding one row of the block being
     * indexed (checkpoint MAX) and one of an earlier block; Ponder's `commitBlockBatch` is run on them
     * through a query builder that counts the statements it sends.
     */
    const stampBlock = async () => {
      const { PGlite } = await import("@electric-sql/pglite");
      const { drizzle } = await import("drizzle-orm/pglite");
      const { pgTable, text } = await import("drizzle-orm/pg-core");
      const client = new PGlite();
      const statements: string[] = [];
      const db = drizzle(client, { logger: { logQuery: (query: string) => statements.push(query) } });
      const tables = ["holder", "trade", "candle"].map((name) => pgTable(name, { id: text().primaryKey() }));
      for (const table of ["holder", "trade", "candle"]) {
        await client.exec(`CREATE TABLE "_reorg__${table}" (operation_id serial PRIMARY KEY, operation integer NOT NULL, checkpoint varchar(75) NOT NULL);
          INSERT INTO "_reorg__${table}" (operation, checkpoint) VALUES (0, '${maxCheckpoint}'), (0, '${"0".repeat(75)}');`);
      }
      const { commitBlockBatch } = (await import(
        pathToFileURL(join(ponderDir, "dist/esm/database/actions.js")).href
      )) as {
        commitBlockBatch: (qb: object, args: object, context: object) => Promise<void>;
      };
      const qb = { wrap: (_label: object, run: (d: typeof db) => Promise<unknown>) => run(db) };
      await commitBlockBatch(qb, { checkpoint, tables, preBuild: { ordering: "multichain" } }, {});
      const stamped = await client.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM _reorg__holder WHERE checkpoint = $1) + (SELECT count(*) FROM _reorg__trade WHERE checkpoint = $1) + (SELECT count(*) FROM _reorg__candle WHERE checkpoint = $1) AS n`,
        [checkpoint],
      );
      const leftAtMax = await client.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM _reorg__holder WHERE checkpoint = $1) + (SELECT count(*) FROM _reorg__trade WHERE checkpoint = $1) + (SELECT count(*) FROM _reorg__candle WHERE checkpoint = $1) AS n`,
        [maxCheckpoint],
      );
      await client.close();
      return { statements, stamped: Number(stamped.rows[0]!.n), leftAtMax: Number(leftAtMax.rows[0]!.n) };
    };

    it("stamps every table's reorg rows of the block in one statement", async () => {
      delete process.env.PONDER_BATCH_COMMIT_BLOCK;
      const { statements, stamped, leftAtMax } = await stampBlock();
      expect(statements).toHaveLength(1);
      expect({ stamped, leftAtMax }).toEqual({ stamped: 3, leftAtMax: 0 });
    });

    it("PONDER_BATCH_COMMIT_BLOCK=0 keeps Ponder's one update per table, with the same rows stamped", async () => {
      process.env.PONDER_BATCH_COMMIT_BLOCK = "0";
      const { statements, stamped, leftAtMax } = await stampBlock();
      expect(statements).toHaveLength(3);
      expect({ stamped, leftAtMax }).toEqual({ stamped: 3, leftAtMax: 0 });
    });
  });
});
