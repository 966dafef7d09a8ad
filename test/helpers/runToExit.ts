/**
 * Runs a command to its exit without blocking the test worker (tests use this instead of
 * `spawnSync`).
 *
 * Why: a vitest worker answers its runner over an RPC channel with a fixed 60 s timeout. A worker
 * blocked in `spawnSync` cannot read the runner's replies; on a loaded machine a child that
 * takes over a minute (a `ponder start` or `npm start` that fails at its config check) made a run
 * with every test passing exit 1 ("Timeout calling onTaskUpdate").
 */
import { execFile, type ExecFileOptions } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** How a command ended: its exit code (null when a signal ended it) and its whole output. */
export type CommandResult = { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/**
 * Runs `file` with `args` and resolves when it has exited, whatever its exit code.
 * @param options - `cwd`, `env`, `timeout` (ms; the child is then killed with SIGTERM)
 * @throws Error only when the command could not be started (e.g. ENOENT)
 */
export async function runToExit(
  file: string,
  args: string[],
  options: Pick<ExecFileOptions, "cwd" | "env" | "timeout"> = {},
): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await execFileAsync(file, args, {
      ...options,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    return { status: 0, signal: null, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: unknown; signal?: NodeJS.Signals | null; stdout?: string; stderr?: string };
    // A number: the exit code. A signal: killed (by `timeout` or otherwise). Else it never ran.
    if (typeof failed.code !== "number" && !failed.signal) throw err;
    return {
      status: typeof failed.code === "number" ? failed.code : null,
      signal: failed.signal ?? null,
      stdout: failed.stdout ?? "",
      stderr: failed.stderr ?? "",
    };
  }
}
