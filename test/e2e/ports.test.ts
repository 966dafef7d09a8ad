/**
 * Ports and crashes (`npm start` run as a user runs it, on real processes; docs/operations.md
 * "Start and stop (devnet)"):
 * - a taken RPC port is refused before anything is deployed: nothing reaches the node that holds
 *   it (a second anvil here: its block number is unchanged);
 * - a taken API port is refused with the port and the flag/variable to change, instead of Ponder
 *   moving to the next free port while the start polls someone else's service;
 * - `ponder start` run directly refuses a taken port instead of borrowing the next one;
 * - `kill -9` of `npm start` ends its anvil and its service within 10 s, and the next start on the
 *   same data folder works.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, http } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { findFreePort, startAnvil } from "../../devnet/anvil";
import { serviceStartTimeoutMs } from "../../scripts/ponderProcess";
import { startStack } from "../helpers/harness";
import { scaledMs } from "../helpers/deadlines";
import { runToExit } from "../helpers/runToExit";
import { alive, childrenOf, exitWithin, killStartedGroups, pollUntil, ROOT, startScript } from "../helpers/npmStart";

/** The service logs JSON lines, as in production. */
const JSON_LOGS = { LOG_FORMAT: "json" };
const PONDER_CLI = join(ROOT, "node_modules", "ponder", "dist", "esm", "bin", "ponder.js");
const START_DEADLINE_MS = 2 * serviceStartTimeoutMs();
/** A refused port is reported within this long (the node and the service are never started). */
const REFUSAL_DEADLINE_MS = 15_000;
/** The bound for the children of a killed `npm start`. */
const ORPHAN_DEADLINE_MS = 10_000;

const dirs: string[] = [];
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  killStartedGroups();
  for (const cleanup of cleanups) await cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A plain TCP server holding `127.0.0.1:<free port>` (answers nothing). */
async function squatPort(): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  const address = server.address();
  return { port: typeof address === "object" && address ? address.port : 0, server };
}

describe("npm start: a taken port is refused, never borrowed", () => {
  it("a taken RPC port (another anvil on it) is refused within seconds, naming the port and --rpc-port; nothing reaches that node", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "ports-rpc-"));
    dirs.push(cwd);
    const squatter = await startAnvil({ port: await findFreePort() });
    cleanups.push(() => squatter.stop());
    const client = createPublicClient({ transport: http(squatter.rpcUrl) });
    const blockBefore = await client.getBlockNumber();

    const startedAt = Date.now();
    const started = startScript(
      cwd,
      ["--no-seed", "--rpc-port", String(squatter.port), "--port", String(await findFreePort())],
      JSON_LOGS,
    );
    const code = await exitWithin(started, REFUSAL_DEADLINE_MS);
    const output = started.output();
    expect(code, output).not.toBe("still running");
    expect(code, output).not.toBe(0);
    expect(Date.now() - startedAt).toBeLessThan(REFUSAL_DEADLINE_MS);
    expect(output).toContain(`port ${squatter.port}`);
    expect(output).toContain("--rpc-port");
    expect(output).not.toContain("deployed:");
    expect(output).not.toMatch(/\n\s+at /); // no stack trace
    expect(await client.getBlockNumber()).toBe(blockBefore);
    expect(await client.getTransactionCount({ address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" })).toBe(0);
  });

  it("a taken API port is refused within seconds, naming the port, --port and PORT; nothing is reported from the other service", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "ports-api-"));
    dirs.push(cwd);
    const { port } = await squatPort();
    const startedAt = Date.now();
    const started = startScript(
      cwd,
      ["--no-seed", "--rpc-port", String(await findFreePort()), "--port", String(port)],
      JSON_LOGS,
    );
    const code = await exitWithin(started, REFUSAL_DEADLINE_MS);
    const output = started.output();
    expect(code, output).not.toBe("still running");
    expect(code, output).not.toBe(0);
    expect(Date.now() - startedAt).toBeLessThan(REFUSAL_DEADLINE_MS);
    expect(output).toContain(`port ${port}`);
    expect(output).toContain("--port");
    expect(output).toContain("PORT");
    expect(output).not.toContain("ready:");
    expect(output).not.toContain("starting anvil");
    expect(output).not.toMatch(/\n\s+at /);
  });

  it(
    "ponder start run directly refuses a taken port (no move to the next port) and says which setting to change",
    async () => {
      const stack = await startStack({ schema: "e2e_ports" });
      cleanups.push(() => stack.stop());
      const taken = Number(new URL(stack.service.url).port);
      const dataDir = mkdtempSync(join(tmpdir(), "ports-direct-"));
      dirs.push(dataDir);
      const result = await runToExit(
        process.execPath,
        [PONDER_CLI, "start", "--schema", "e2e_ports_direct", "--port", String(taken), "--hostname", "127.0.0.1"],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            ...stack.serviceEnv,
            PORT: "",
            PONDER_PGLITE_DIR: join(dataDir, "pglite"),
            STORE_PGLITE_DIR: join(dataDir, "store"),
          },
          // Ponder answers /health ~10 s after its start here; a run that borrowed a port would
          // keep running: it is ended (signal) after this.
          timeout: scaledMs(60_000),
        },
      );
      const output = result.stdout + result.stderr;
      expect(result.status, output.slice(-3000)).not.toBe(0);
      expect(result.signal, output.slice(-3000)).toBeNull();
      expect(output).toContain(`port ${taken} on 127.0.0.1 is in use`);
      expect(output).toContain("--port");
      expect(output).not.toContain(`"port":${taken + 1}`);
      // The stack's own service still answers on its port.
      expect((await fetch(`${stack.service.url}/health`)).status).toBe(200);
    },
    2 * START_DEADLINE_MS,
  );
});

describe("npm start: kill -9 leaves nothing behind", () => {
  it(
    `kill -9 of npm start ends its anvil and service within ${ORPHAN_DEADLINE_MS} ms, and the next start on the same folder works`,
    async () => {
      const cwd = mkdtempSync(join(tmpdir(), "ports-kill-"));
      dirs.push(cwd);
      const run = async () => {
        const port = await findFreePort();
        writeFileSync(join(cwd, ".env"), `PORT=${port}\n`);
        const started = startScript(cwd, ["--no-seed", "--rpc-port", String(await findFreePort())], JSON_LOGS);
        await pollUntil(`"ready" not printed (output:\n${started.output().slice(-3000)})`, START_DEADLINE_MS, () => {
          if (started.child.exitCode !== null)
            throw new Error(`start exited with ${started.child.exitCode}:\n${started.output().slice(-3000)}`);
          return started.output().includes(`ready: http://127.0.0.1:${port}`) ? true : undefined;
        });
        return { started, port };
      };

      const first = await run();
      const pid = first.started.child.pid!;
      const anvilPids = childrenOf(pid, "anvil");
      const servicePids = childrenOf(pid, "ponder.js");
      expect(anvilPids).toHaveLength(1);
      expect(servicePids).toHaveLength(1);
      process.kill(pid, "SIGKILL"); // the main process alone, as `kill -9 <pid>` does
      const killedAt = Date.now();
      await pollUntil(
        `anvil ${anvilPids[0]} or the service ${servicePids[0]} outlived the killed npm start`,
        ORPHAN_DEADLINE_MS,
        () => ([...anvilPids, ...servicePids].some(alive) ? undefined : true),
      );
      console.log(`children gone ${Date.now() - killedAt} ms after kill -9`);

      const second = await run();
      expect(second.started.output()).not.toMatch(/\n\s+at /);
      expect((await fetch(`http://127.0.0.1:${second.port}/health`)).status).toBe(200);
      process.kill(-second.started.child.pid!, "SIGINT");
      expect(await second.started.exited).toBe(0);
    },
    3 * START_DEADLINE_MS,
  );
});
