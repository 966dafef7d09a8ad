/**
 * `npm start` as a user runs it (a start and stop you can trust): the real
 * `scripts/start.ts` in its own process group, from a working directory holding a `.env`, on free
 * ports, with 1 s blocks and a demo trade every 100 ms (so a trade always waits for a receipt).
 *
 * - Ctrl-C (SIGINT to the process group, as a terminal sends it) during active trading ends every
 *   process of the group within 10 s, five times in a row, through the orderly stop (no forced
 *   exit, no step over its budget).
 * - `.env` is read: the port is set only there, and the service answers on it.
 * - One devnet per folder: a second start on the same folder refuses, names the running one and
 *   says how to run another instance (`--data-dir`), and the first keeps serving.
 * - `npm run keys -- create` finds the running devnet through its lock file and creates a key the
 *   devnet's service accepts.
 * - A service that cannot stop (SIGSTOP) is killed when `SHUTDOWN_TIMEOUT_MS` runs out, and a
 *   second Ctrl-C forces the exit at once.
 *
 * Deadlines: `LIFECYCLE_STOP_DEADLINE_MS` (default 10,000: the required bound) for the stop, and
 * `SERVICE_START_TIMEOUT_MS` (default 180,000, read by `scripts/ponderProcess.ts`) x 2 for a start.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../devnet/anvil";
import { devAccount } from "../../devnet/clients";
import { serviceStartTimeoutMs } from "../../scripts/ponderProcess";
import { runToExit } from "../helpers/runToExit";
import {
  groupAlive,
  groupProcesses,
  killStartedGroups,
  pollUntil,
  ROOT,
  type Started,
  startScript,
} from "../helpers/npmStart";

const TSX_CLI = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
const KEYS = join(ROOT, "scripts", "keys.ts");
const STOP_DEADLINE_MS = Number(process.env.LIFECYCLE_STOP_DEADLINE_MS ?? 10_000);
const START_DEADLINE_MS = 2 * serviceStartTimeoutMs();
const ROUNDS = 5;

const dirs: string[] = [];
afterAll(() => {
  killStartedGroups();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts a devnet without demo activity in `cwd` and waits for "ready". */
async function startQuiet(cwd: string, env: NodeJS.ProcessEnv): Promise<Started & { pgid: number }> {
  const port = await findFreePort();
  writeFileSync(join(cwd, ".env"), `PORT=${port}\n`);
  const started = startScript(cwd, ["--no-seed", "--rpc-port", String(await findFreePort())], env);
  await pollUntil(`"ready" not printed (output:\n${started.output().slice(-3000)})`, START_DEADLINE_MS, () => {
    if (started.child.exitCode !== null)
      throw new Error(`start exited with ${started.child.exitCode}:\n${started.output().slice(-3000)}`);
    return started.output().includes(`ready: http://127.0.0.1:${port}`) ? true : undefined;
  });
  return { ...started, pgid: started.child.pid! };
}

describe("npm start: start and stop", () => {
  it("runs the script as these tests do: one Node process with tsx as its module loader", () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>;
    expect(scripts.start).toBe("node --import tsx scripts/start.ts");
  });

  it(
    `Ctrl-C during active trading ends everything within ${STOP_DEADLINE_MS} ms, ${ROUNDS} times in a row; .env, the devnet lock and the keys CLI on the way`,
    async () => {
      const cwd = mkdtempSync(join(tmpdir(), "lifecycle-"));
      dirs.push(cwd);
      const stopTimesMs: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const port = await findFreePort();
        const rpcPort = await findFreePort();
        // The HTTP port is set only in .env (the child's environment has no PORT).
        writeFileSync(join(cwd, ".env"), `# written by the lifecycle test\nPORT=${port}\nLOG_FORMAT=json\n`);
        const started = startScript(cwd, [
          "--rpc-port",
          String(rpcPort),
          "--block-time",
          "1",
          "--trade-interval-ms",
          "100",
        ]);
        const base = `http://127.0.0.1:${port}`;
        await pollUntil(
          `round ${round}: "ready: ${base}" not printed (output:\n${started.output().slice(-3000)})`,
          START_DEADLINE_MS,
          () => {
            if (started.child.exitCode !== null)
              throw new Error(`start exited with ${started.child.exitCode}:\n${started.output().slice(-3000)}`);
            return started.output().includes(`ready: ${base}`) ? true : undefined;
          },
        );
        // Each step is printed with its time.
        for (const stepLine of [
          "] starting anvil",
          "] deployed:",
          "] seeded:",
          "] starting the service",
          "] indexed block",
          "] ready:",
        ]) {
          expect(started.output()).toContain(stepLine);
        }
        expect((await fetch(`${base}/health`)).status).toBe(200);
        // Trading is active: the trade count grows while we watch.
        const trades = async () => {
          const body = (await (await fetch(`${base}/api/public/trades/recent?limit=200`)).json()) as {
            trades: unknown[];
          };
          return body.trades.length;
        };
        const before = await trades();
        await pollUntil("no new trade indexed", START_DEADLINE_MS, async () =>
          (await trades()) > before ? true : undefined,
        );

        if (round === 1) {
          // One devnet per folder: the second start refuses before touching anything.
          const manifestBefore = readFileSync(join(cwd, ".devnet", "manifest.json"), "utf8");
          const second = startScript(cwd, [
            "--rpc-port",
            String(await findFreePort()),
            "--port",
            String(await findFreePort()),
          ]);
          const code = await second.exited;
          expect(code).toBe(1);
          expect(second.output()).toMatch(
            /another devnet \(pid \d+, started .*service http:\/\/127\.0\.0\.1:\d+.*\) is running in /,
          );
          expect(second.output()).toContain("npm start -- --data-dir");
          expect(second.output()).not.toContain("starting anvil");
          expect(readFileSync(join(cwd, ".devnet", "manifest.json"), "utf8")).toBe(manifestBefore);
          expect(existsSync(join(cwd, ".devnet", "store"))).toBe(true);
          const tokens = (await (await fetch(`${base}/api/public/tokens/new`)).json()) as {
            ok: boolean;
            tokens: unknown[];
          };
          expect(tokens.ok).toBe(true);
          expect(tokens.tokens).toHaveLength(3);

          // The keys CLI finds the running devnet and creates a key its service accepts.
          const wallet = devAccount(4).address;
          const keys = await runToExit(
            process.execPath,
            [TSX_CLI, KEYS, "create", "--wallet", wallet, "--label", "lifecycle", "--json"],
            { cwd, env: { ...process.env, DEVNET_DIR: "" }, timeout: START_DEADLINE_MS },
          );
          expect(keys.status, keys.stderr).toBe(0);
          expect(keys.stderr).toContain("store: the running devnet's");
          const created = JSON.parse(keys.stdout) as { api_key: string; wallet: string };
          expect(created.wallet).toBe(wallet);
          const token = (tokens.tokens[0] as { address: string }).address;
          const authed = await fetch(`${base}/api/v1/evmchain/tokens/${token}`, {
            headers: { Authorization: `Bearer ${created.api_key}` },
          });
          expect(authed.status).toBe(200);
          // A wallet the CLI cannot sign for is refused with the dev accounts listed.
          const other = await runToExit(
            process.execPath,
            [TSX_CLI, KEYS, "create", "--wallet", "0x000000000000000000000000000000000000dEaD"],
            { cwd, timeout: START_DEADLINE_MS },
          );
          expect(other.status).toBe(1);
          expect(other.stderr).toContain(devAccount(0).address);
        }

        // Ctrl-C: SIGINT to the whole process group, as a terminal sends it.
        const pgid = started.child.pid!;
        const sentAt = Date.now();
        process.kill(-pgid, "SIGINT");
        await pollUntil(
          `round ${round}: processes of the group still running (output:\n${started.output().slice(-3000)})`,
          STOP_DEADLINE_MS,
          () => (groupAlive(pgid) ? undefined : true),
        );
        stopTimesMs.push(Date.now() - sentAt);
        expect(await started.exited).toBe(0);
        expect(started.output()).toContain("stopped the service");
        expect(started.output()).toContain("stopped anvil");
        expect(started.output()).not.toContain("forcing the exit");
        expect(started.output()).not.toContain("did not stop within");
        // The lock is released: the next round (same folder) may start.
        expect(existsSync(join(cwd, ".devnet", "instance.json"))).toBe(false);
      }
      console.log(`stop times (ms): ${stopTimesMs.join(", ")}`);
    },
    ROUNDS * (2 * START_DEADLINE_MS + STOP_DEADLINE_MS),
  );

  it(
    "a service that cannot stop is killed when SHUTDOWN_TIMEOUT_MS runs out; a second Ctrl-C forces the exit at once",
    async () => {
      const cwd = mkdtempSync(join(tmpdir(), "lifecycle-force-"));
      dirs.push(cwd);

      // 1. The budget: the service is frozen (SIGSTOP ignores SIGTERM), the stop kills it.
      const budgeted = await startQuiet(cwd, { SHUTDOWN_TIMEOUT_MS: "3000" });
      const [ponder] = groupProcesses(budgeted.pgid, "ponder.js");
      expect(ponder).toBeDefined();
      process.kill(ponder!, "SIGSTOP");
      const sentAt = Date.now();
      // SIGINT to `npm start` alone (the frozen service would ignore its own copy anyway).
      process.kill(budgeted.pgid, "SIGINT");
      await pollUntil(
        `the group outlived the 3 s budget (output:\n${budgeted.output().slice(-3000)})`,
        3000 + STOP_DEADLINE_MS,
        () => (groupAlive(budgeted.pgid) ? undefined : true),
      );
      // The frozen service held the stop until its share of the budget ran out (the 3 s but the
      // 1 s kept for anvil, less the 0.5 s a stop leaves after its SIGKILL; a normal stop takes
      // ~0.2 s), then SIGKILL ended it, and anvil still stopped in order.
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1500);
      await budgeted.exited;
      expect(budgeted.output()).toMatch(
        /stopped the service|the service did not stop within the shutdown budget \(SHUTDOWN_TIMEOUT_MS\); killing it/,
      );
      expect(budgeted.output()).toContain("stopped anvil");
      expect(existsSync(join(cwd, ".devnet", "instance.json"))).toBe(false);

      // 2. A second Ctrl-C: with a long budget the stop would wait a minute for the frozen service.
      const forced = await startQuiet(cwd, { SHUTDOWN_TIMEOUT_MS: "60000" });
      const [frozen] = groupProcesses(forced.pgid, "ponder.js");
      process.kill(frozen!, "SIGSTOP");
      const firstAt = Date.now();
      process.kill(-forced.pgid, "SIGINT");
      // Copies of one Ctrl-C within a second are the same Ctrl-C: wait until the stop is under
      // way and that second has passed, with the group still there.
      await pollUntil("the stop did not begin", STOP_DEADLINE_MS, () =>
        forced.output().includes("stopping (SIGINT)") && Date.now() - firstAt > 1200 ? true : undefined,
      );
      expect(groupAlive(forced.pgid)).toBe(true);
      const secondAt = Date.now();
      process.kill(-forced.pgid, "SIGINT");
      await pollUntil("the group outlived the second Ctrl-C", STOP_DEADLINE_MS, () =>
        groupAlive(forced.pgid) ? undefined : true,
      );
      expect(Date.now() - secondAt).toBeLessThan(STOP_DEADLINE_MS);
      expect(await forced.exited).toBe(130);
      expect(forced.output()).toContain("SIGINT again: forcing the exit");
      expect(existsSync(join(cwd, ".devnet", "instance.json"))).toBe(false);
    },
    2 * (2 * START_DEADLINE_MS + STOP_DEADLINE_MS) + 3000,
  );
});
