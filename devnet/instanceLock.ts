/**
 * One devnet per data folder: `npm start` takes an exclusive lock file, `<dir>/instance.json`,
 * before it touches anything in the folder, and keeps what a second process needs to find the
 * running devnet in it (pid, URLs, manifest, offchain store folder). A second start on the same
 * folder refuses ({@link DevnetLockedError}); `npm run keys` reads the file to reach the running
 * devnet ({@link readDevnetInstance}).
 *
 * The file is created with `O_EXCL` (`wx`), so of two starts racing for it exactly one wins. A
 * file left by a process that no longer exists (killed with SIGKILL, machine crash) is stale: it is
 * detected by its pid and start time (the pid gone, or now a different process) and taken over.
 * The children that run recorded (anvil, the service: pid + start time, Linux `/proc`) and that
 * are still those very processes are ended first (SIGKILL): they were proven to be its own, and a
 * new start never reuses them.
 */
import { readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/** What `<dir>/instance.json` holds. Paths are absolute; URLs are set once known. */
export type DevnetInstance = {
  /** PID of the `npm start` process (scripts/start.ts) holding the folder. */
  pid: number;
  /** Its start time in clock ticks since boot (`/proc/<pid>/stat` field 22; absent off Linux). */
  pidStartTicks?: string;
  /** Processes it started (anvil, the service), each with its start time. */
  children?: { name: string; pid: number; startTicks?: string }[];
  /** When it started, ISO 8601. */
  startedAt: string;
  /** The data folder. */
  dir: string;
  /** anvil's JSON-RPC URL. */
  rpcUrl?: string;
  /** The service's base URL, e.g. `http://127.0.0.1:42069`. */
  serviceUrl?: string;
  /** Deployment manifest path. */
  manifestPath?: string;
  /** The offchain store's PGlite folder (held by the service while it runs). */
  storeDir?: string;
};

/** Thrown by {@link acquireDevnetLock} when a live process holds the folder. */
export class DevnetLockedError extends Error {
  override name = "DevnetLockedError" as const;
  readonly shortMessage: string;
  constructor(readonly holder: DevnetInstance) {
    const shortMessage = `another devnet (pid ${holder.pid}, started ${holder.startedAt}${holder.serviceUrl ? `, service ${holder.serviceUrl}` : ""}${holder.rpcUrl ? `, anvil ${holder.rpcUrl}` : ""}) is running in ${holder.dir}`;
    super(
      [
        shortMessage,
        `Hint: stop it first (Ctrl-C in its terminal, or kill -INT ${holder.pid}), or run another instance with its own`,
        "folder and ports, e.g.  npm start -- --data-dir .devnet-2 --port 42070 --rpc-port 8546",
        "(the folder can also be set with DEVNET_DIR).",
      ].join("\n"),
    );
    this.shortMessage = shortMessage;
  }
}

/** A held lock. */
export type DevnetLock = {
  /** Path of the lock file. */
  path: string;
  /** Merges fields into the file (e.g. the URLs once the devnet is up). */
  update(fields: Partial<DevnetInstance>): void;
  /** Deletes the file if this process still holds it. Also runs on process exit. */
  release(): void;
  /** Children of the stale holder this start ended (e.g. `["anvil 1234"]`); empty normally. */
  reaped: string[];
};

/**
 * Path of the lock file of a data folder.
 * @param dir - the data folder
 * @returns `<dir>/instance.json`
 * @example instanceFilePath("/srv/app/.devnet") // "/srv/app/.devnet/instance.json"
 */
export function instanceFilePath(dir: string): string {
  return join(dir, "instance.json");
}

/**
 * The start time of a process in clock ticks since boot (Linux `/proc/<pid>/stat` field 22).
 * @param pid - process id
 * @returns the ticks as a decimal string; `undefined` when the process is gone or `/proc` is absent
 * @example processStartTicks(process.pid) // "123456"
 */
export function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/**
 * True when the process exists (EPERM: exists, owned by another user) and, when a start time is
 * known and readable, is the same process (a reused pid is another process).
 */
function processAlive(pid: number, startTicks?: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const now = startTicks === undefined ? undefined : processStartTicks(pid);
  return now === undefined || now === startTicks;
}

/**
 * Ends the recorded children of a stale holder that are provably still its own (same pid and
 * start time); a child without a readable start time is left alone.
 * @returns the children ended, e.g. `["anvil 1234"]`
 */
function reapChildren(holder: DevnetInstance): string[] {
  const reaped: string[] = [];
  for (const child of holder.children ?? []) {
    if (child.startTicks === undefined || processStartTicks(child.pid) !== child.startTicks) continue;
    try {
      process.kill(child.pid, "SIGKILL");
      reaped.push(`${child.name} ${child.pid}`);
    } catch {
      // gone meanwhile
    }
  }
  return reaped;
}

function readInstanceFile(path: string): DevnetInstance | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as DevnetInstance;
    return Number.isInteger(parsed.pid) && parsed.pid > 0 ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The devnet running in `dir`, if any.
 * @param dir - absolute data folder (e.g. `resolve(".devnet")`)
 * @returns the instance file's content when its process is alive; `undefined` when there is no
 *   file, it is unreadable or it is stale (its pid is gone)
 * @example readDevnetInstance(resolve(".devnet"))?.storeDir // "/home/me/app/.devnet/store"
 */
export function readDevnetInstance(dir: string): DevnetInstance | undefined {
  const holder = readInstanceFile(instanceFilePath(dir));
  return holder && processAlive(holder.pid, holder.pidStartTicks) ? holder : undefined;
}

/**
 * Takes the folder's lock for this process, creating the folder if needed.
 * @param dir - absolute data folder
 * @param fields - initial fields besides pid, start time and folder
 * @returns the held lock (released on process exit); `reaped` lists the stale holder's children
 *   this call ended (SIGKILL: same pid and start time as recorded)
 * @throws {DevnetLockedError} when a live process holds it (its pid, start, URLs and a hint on
 *   running a second instance with `--data-dir`)
 * @throws the file system's error when the folder cannot be created or written
 * @example const lock = acquireDevnetLock(resolve(".devnet")); lock.update({ rpcUrl }); lock.release();
 */
export function acquireDevnetLock(dir: string, fields: Partial<DevnetInstance> = {}): DevnetLock {
  mkdirSync(dir, { recursive: true });
  const path = instanceFilePath(dir);
  let content: DevnetInstance = {
    ...fields,
    pid: process.pid,
    pidStartTicks: processStartTicks(process.pid),
    startedAt: new Date().toISOString(),
    dir,
  };
  const reaped: string[] = [];
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`, { flag: "wx" });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 2) throw err;
      const holder = readInstanceFile(path);
      // A file being written by a racing start is briefly empty: treat an unreadable file as
      // held unless it stays unreadable.
      if (holder && processAlive(holder.pid, holder.pidStartTicks)) throw new DevnetLockedError(holder);
      if (!holder && attempt === 0) continue;
      if (holder) reaped.push(...reapChildren(holder));
      rmSync(path, { force: true }); // stale: its process is gone
    }
  }
  let held = true;
  const owned = () => held && readInstanceFile(path)?.pid === process.pid;
  const release = () => {
    if (owned()) rmSync(path, { force: true });
    held = false;
  };
  process.once("exit", release);
  return {
    path,
    reaped,
    update(more) {
      if (!owned()) return;
      content = { ...content, ...more };
      writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`);
    },
    release() {
      process.removeListener("exit", release);
      release();
    },
  };
}
