/**
 * The devnet folder lock: exclusive while its holder lives, taken over once the holder is gone.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runToExit } from "../test/helpers/runToExit";
import { spawn } from "node:child_process";
import {
  acquireDevnetLock,
  DevnetLockedError,
  instanceFilePath,
  processStartTicks,
  readDevnetInstance,
} from "./instanceLock";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "devnet-lock-"));
  dirs.push(dir);
  return dir;
}

/** The pid of a process that has exited (a child that ran to completion). */
async function deadPid(): Promise<number> {
  const result = await runToExit(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(result.stdout);
}

describe("acquireDevnetLock", () => {
  it("holds the folder: a second acquisition by a live holder's folder refuses, naming it and the way out", () => {
    const dir = tempDir();
    // A live holder other than this process: the parent of this test worker.
    writeFileSync(
      instanceFilePath(dir),
      JSON.stringify({
        pid: process.ppid,
        startedAt: "2026-01-01T00:00:00.000Z",
        dir,
        serviceUrl: "http://127.0.0.1:42069",
      }),
    );
    let error: unknown;
    try {
      acquireDevnetLock(dir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DevnetLockedError);
    expect((error as DevnetLockedError).holder.pid).toBe(process.ppid);
    expect((error as Error).message).toContain(
      `another devnet (pid ${process.ppid}, started 2026-01-01T00:00:00.000Z, service http://127.0.0.1:42069) is running in ${dir}`,
    );
    expect((error as Error).message).toContain("npm start -- --data-dir .devnet-2 --port 42070 --rpc-port 8546");
    // The holder's file is untouched.
    expect(JSON.parse(readFileSync(instanceFilePath(dir), "utf8")).pid).toBe(process.ppid);
    expect(readDevnetInstance(dir)?.serviceUrl).toBe("http://127.0.0.1:42069");
  });

  it("takes over a stale lock (its process is gone), records updates, and releases", async () => {
    const dir = tempDir();
    const stale = await deadPid();
    writeFileSync(instanceFilePath(dir), JSON.stringify({ pid: stale, startedAt: "2026-01-01T00:00:00.000Z", dir }));
    expect(readDevnetInstance(dir)).toBeUndefined();
    const lock = acquireDevnetLock(dir);
    expect(readDevnetInstance(dir)?.pid).toBe(process.pid);
    lock.update({ rpcUrl: "http://127.0.0.1:8545", storeDir: join(dir, "store") });
    expect(readDevnetInstance(dir)).toMatchObject({
      pid: process.pid,
      dir,
      rpcUrl: "http://127.0.0.1:8545",
      storeDir: join(dir, "store"),
    });
    // The same process cannot take it twice either (two starts in one process share nothing).
    expect(() => acquireDevnetLock(dir)).toThrow(DevnetLockedError);
    lock.release();
    expect(existsSync(instanceFilePath(dir))).toBe(false);
    acquireDevnetLock(dir).release();
  });

  it("a stale lock's recorded children that are provably its own (pid + start time) are ended; a reused pid is left alone", async () => {
    const dir = tempDir();
    const idle = () => spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    const own = idle();
    const other = idle();
    try {
      const ownExited = new Promise<NodeJS.Signals | null>((r) => own.once("exit", (_code, signal) => r(signal)));
      // The holder's pid is alive but is another process now (its start time differs): stale.
      writeFileSync(
        instanceFilePath(dir),
        JSON.stringify({
          pid: process.ppid,
          pidStartTicks: "1",
          startedAt: "2026-01-01T00:00:00.000Z",
          dir,
          children: [
            { name: "anvil", pid: own.pid, startTicks: processStartTicks(own.pid!) },
            { name: "the service", pid: other.pid, startTicks: "1" },
          ],
        }),
      );
      expect(readDevnetInstance(dir)).toBeUndefined();
      const lock = acquireDevnetLock(dir);
      expect(lock.reaped).toEqual([`anvil ${own.pid}`]);
      expect(await ownExited).toBe("SIGKILL");
      expect(other.exitCode).toBeNull();
      expect(processStartTicks(other.pid!)).toBeDefined();
      lock.release();
    } finally {
      own.kill("SIGKILL");
      other.kill("SIGKILL");
    }
  });
});
