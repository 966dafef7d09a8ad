/**
 * Ends `npm start`'s children (anvil, the service) when `npm start` dies by any signal, SIGKILL
 * included (docs/operations.md "Start and stop (devnet)").
 *
 * A killed process runs no exit hook, and neither anvil (a Rust binary) nor Ponder watches its
 * parent. So `npm start` starts one small watcher process first, holding the write end of a pipe
 * to the watcher's stdin, and tells it each child's pid and start time. The kernel closes the pipe
 * when `npm start` ends, however it ends; the watcher then sends SIGTERM to each child that is
 * still the same process (same pid and start time, Linux `/proc/<pid>/stat` field 22: a reused pid
 * is never signalled), SIGKILL after {@link REAP_GRACE_MS}, and exits. After an orderly stop the
 * children are gone already and it exits at once. It ignores SIGINT/SIGTERM/SIGHUP (a Ctrl-C to
 * the terminal's process group reaches it too) so that it outlives its parent.
 */
import { spawn } from "node:child_process";
import { processStartTicks } from "../devnet/instanceLock";

/** Milliseconds between the watcher's SIGTERM and its SIGKILL of a child still running. */
export const REAP_GRACE_MS = 3_000;

/** The watcher's program (plain JavaScript, run with `node -e`: no loader, starts in ~50 ms). */
const WATCHER = `
const fs = require("node:fs");
const GRACE_MS = ${REAP_GRACE_MS};
const targets = new Map();
for (const s of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(s, () => {});
const ticks = (pid) => {
  try {
    const stat = fs.readFileSync("/proc/" + pid + "/stat", "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch { return undefined; }
};
const same = (pid, start) => start === "?" ? (() => { try { process.kill(pid, 0); return true; } catch { return false; } })() : ticks(pid) === start;
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (let i = buffer.indexOf("\\n"); i >= 0; i = buffer.indexOf("\\n")) {
    const [op, pid, start] = buffer.slice(0, i).split(" ");
    buffer = buffer.slice(i + 1);
    if (op === "+") targets.set(Number(pid), start); else targets.delete(Number(pid));
  }
});
const signal = (name) => { for (const [pid, start] of targets) if (same(pid, start)) try { process.kill(pid, name); } catch {} };
const left = () => [...targets].some(([pid, start]) => same(pid, start));
process.stdin.on("close", () => {
  if (!left()) process.exit(0);
  signal("SIGTERM");
  const deadline = Date.now() + GRACE_MS;
  const timer = setInterval(() => {
    if (!left()) process.exit(0);
    if (Date.now() > deadline) { signal("SIGKILL"); process.exit(0); }
  }, 100);
});
`;

/** The running watcher. */
export type ChildReaper = {
  /** Has the watcher end `pid` (identified with its start time) if this process dies first. */
  watch(pid: number): void;
  /** Forgets `pid` (it was stopped in order). */
  forget(pid: number): void;
};

/**
 * Starts the watcher for this process's children.
 * @returns `watch`/`forget` to keep its list current
 * @throws the spawn error when Node cannot be started again (not expected)
 * @example const reaper = startChildReaper(); reaper.watch(anvil.pid);
 */
export function startChildReaper(): ChildReaper {
  const watcher = spawn(process.execPath, ["-e", WATCHER], { stdio: ["pipe", "ignore", "inherit"] });
  watcher.unref();
  // The pipe must not keep this process alive, and its write end closes when this process ends.
  (watcher.stdin as unknown as { unref?: () => void }).unref?.();
  watcher.stdin.on("error", () => {}); // the watcher gone: nothing left to tell it
  const send = (line: string) => {
    if (!watcher.stdin.destroyed) watcher.stdin.write(`${line}\n`);
  };
  return {
    watch: (pid) => send(`+ ${pid} ${processStartTicks(pid) ?? "?"}`),
    forget: (pid) => send(`- ${pid}`),
  };
}
