/**
 * `npm start` as the process-lifecycle tests run it (test/e2e/lifecycle.test.ts, ports.test.ts,
 * shutdown.test.ts): the start script as the leader of a new process group, its output collected,
 * and Linux `/proc` reads to find (or prove gone) the processes it started. Call
 * {@link killStartedGroups} in the file's `afterAll`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** The project's root folder. */
export const ROOT = resolve(__dirname, "../..");
/** tsx as a module loader, what `npm start` runs the script with (`node --import tsx`). */
export const TSX_LOADER = pathToFileURL(join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
/** The script `npm start` runs. */
export const START_SCRIPT = join(ROOT, "scripts", "start.ts");

/**
 * A started `npm start` process group; `exited` resolves with the script's exit code once its
 * output is read to the end.
 */
export type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

const groups: ChildProcess[] = [];

/**
 * Runs `scripts/start.ts` in `cwd` as the leader of a new process group, as `npm start` runs it:
 * one Node process with tsx as its module loader (the `tsx` command's parent process would
 * SIGKILL the script when it acknowledges a Ctrl-C late; docs/operations.md). `PORT` and
 * `DEVNET_DIR` are removed from the inherited environment: a test sets them in `cwd`'s `.env` or
 * in `env`.
 */
export function startScript(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Started {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv.PORT;
  delete childEnv.DEVNET_DIR;
  const child = spawn(process.execPath, ["--import", TSX_LOADER, START_SCRIPT, ...args], {
    cwd,
    env: { ...childEnv, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  groups.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // "close", not "exit": it comes once the process has exited and its stdout and stderr are read to
  // the end, so `output()` then holds every line it wrote.
  const exited = new Promise<number | null>((r) => child.once("close", (code) => r(code)));
  return { child, output: () => output, exited };
}

/** SIGKILLs every process group {@link startScript} started that still has a process. */
export function killStartedGroups(): void {
  for (const child of groups) if (child.pid && groupAlive(child.pid)) process.kill(-child.pid, "SIGKILL");
}

/** True while any process of the group exists. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Polls `check` every 50 ms until it returns a value other than `undefined`; throws `${what} within …` after `timeoutMs`. */
export async function pollUntil<T>(
  what: string,
  timeoutMs: number,
  check: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolves with the exit code, or `"still running"` once `timeoutMs` has passed. */
export async function exitWithin(started: Started, timeoutMs: number): Promise<number | null | "still running"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"still running">((r) => {
    timer = setTimeout(() => r("still running"), timeoutMs);
  });
  const result = await Promise.race([started.exited, late]);
  clearTimeout(timer);
  return result;
}

/** The fields of `/proc/<pid>/stat` after the command name (state, parent pid, process group, …). */
function statFields(pid: string | number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Live processes whose stat fields pass `match` and whose command line contains `needle`. */
function processesWhere(match: (fields: string[]) => boolean, needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!match(statFields(entry))) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(needle)) found.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/** PIDs of the group's processes whose command line contains `needle`. */
export function groupProcesses(pgid: number, needle: string): number[] {
  return processesWhere((fields) => Number(fields[2]) === pgid, needle);
}

/** PIDs of the live (not zombie) children of `pid` whose command line contains `needle`. */
export function childrenOf(pid: number, needle: string): number[] {
  return processesWhere((fields) => Number(fields[1]) === pid && fields[0] !== "Z", needle);
}

/** True while `pid` exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    return statFields(pid)[0] !== "Z";
  } catch {
    return false;
  }
}
