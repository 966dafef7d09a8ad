/**
 * Runs the service as a child process on the Node binary running this script (Node >= 22, see
 * docs/operations.md "Node 22"): `ponder start` (indexer + the Hono API in one process) or `ponder serve`
 * (the API only, reading the tables an indexer writes into the same PostgreSQL schema; an API
 * replica). Shared by `npm start` and the end-to-end tests.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { ENV_SCHEMA } from "../config/env";
import { ponderCliPath } from "../ops/ponderInternals";

/**
 * The service start deadline in milliseconds: `SERVICE_START_TIMEOUT_MS` (validated in
 * `config/env.ts`, default 180,000). Used by {@link startPonder}, {@link waitReady} and
 * {@link waitIndexed} when no timeout is given; a loaded machine (CI) raises it.
 * @param env - environment to read (default `process.env`)
 * @returns milliseconds
 * @throws ZodError when the variable is set to something other than an integer >= 1000
 * @example serviceStartTimeoutMs({ SERVICE_START_TIMEOUT_MS: "120000" }) // 120000
 */
export function serviceStartTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return ENV_SCHEMA.shape.SERVICE_START_TIMEOUT_MS.parse(env.SERVICE_START_TIMEOUT_MS);
}

/**
 * The V8 heap flag `npm start` gives the service (docs/operations.md "Memory"):
 * `--max-old-space-size=<SERVICE_HEAP_MB>` (validated in `config/env.ts`), nothing when
 * `SERVICE_HEAP_MB=0` (Node's default) or when `NODE_OPTIONS` already sets the heap (the
 * operator's setting wins).
 * @param env - environment to read (default `process.env`)
 * @returns Node flags for the service's command line, e.g. `["--max-old-space-size=512"]`
 * @throws ZodError when `SERVICE_HEAP_MB` is not 0 or an integer >= 256
 * @example serviceHeapArgs({ SERVICE_HEAP_MB: "448" }) // ["--max-old-space-size=448"]
 */
export function serviceHeapArgs(env: NodeJS.ProcessEnv = process.env): string[] {
  const heapMb = ENV_SCHEMA.shape.SERVICE_HEAP_MB.parse(env.SERVICE_HEAP_MB);
  // Node's own variable (not a setting of config/env.ts): the operator's heap flag there wins.
  const nodeOptions = env["NODE_OPTIONS" as keyof typeof env] ?? "";
  if (heapMb === 0 || /--max-old-space-size/.test(nodeOptions)) return [];
  return [`--max-old-space-size=${heapMb}`];
}

/** Services started by this process; killed (SIGKILL) if the process exits without stopping them. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function trackChild(child: ChildProcess): void {
  running.add(child);
  child.once("exit", () => running.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const c of running) c.kill("SIGKILL");
    });
  }
}

/** A running service. */
export type PonderProcess = {
  /** Base URL of the HTTP server, e.g. `http://127.0.0.1:42069`. */
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string;
  /**
   * Stops the process (SIGTERM, then SIGKILL after `killAfterMs`, default 10,000 ms) and waits for
   * it to exit.
   */
  stop: (killAfterMs?: number) => Promise<void>;
  /**
   * Resolves with the exit code (null when killed by a signal) once the process has exited and
   * its output is read to the end (`output()` is then complete).
   */
  exited: Promise<number | null>;
};

/** Options of {@link startPonder}. */
export type StartPonderOptions = {
  /** HTTP port. */
  port: number;
  /** Database schema (`--schema`), at most 45 characters. */
  schema: string;
  /** Extra environment (e.g. `DEPLOYMENT_MANIFEST`, `PONDER_PGLITE_DIR`, `DATABASE_URL`). */
  env?: NodeJS.ProcessEnv;
  /** Echo the child's output to this process's stdout/stderr. */
  inheritOutput?: boolean;
  /** Working directory (default: the project root). */
  cwd?: string;
  /**
   * `--hostname` (default `127.0.0.1`); `null` passes none, so the service binds its own default
   * (`DEFAULT_LISTEN_HOSTNAME` in ops/portGuard.ts), as an operator's command line without the flag.
   */
  hostname?: string | null;
  /** `start` (default: indexer + API) or `serve` (API replica; PostgreSQL only). */
  command?: "start" | "serve";
  /** Ponder's `--log-format` (default `LOG_FORMAT` from the environment, else `json`). */
  logFormat?: "json" | "pretty";
  /** Flags for the Node binary itself, e.g. `--cpu-prof` (not allowed in `NODE_OPTIONS`). */
  nodeArgs?: string[];
  /** Give up when `/health` does not answer within this many ms (default {@link serviceStartTimeoutMs}). */
  startTimeoutMs?: number;
  /** Called with the child's pid as soon as it is spawned (e.g. to have it reaped after a crash). */
  onSpawn?: (pid: number) => void;
  /** Called every ~5 s while waiting for `/health`, with a line saying what is awaited. */
  onWait?: (message: string) => void;
  /**
   * The process's open-file limit (soft and hard), set with util-linux `prlimit` before Node starts
   * (default: inherited). Tests use it to run out of file descriptors at a scale a machine bears.
   */
  openFileLimit?: number;
};

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Starts `ponder start` (or `ponder serve`) and resolves once its HTTP server answers `/health`.
 * Logs are JSON lines unless `logFormat`/`LOG_FORMAT` says `pretty`. The child is killed
 * (SIGKILL) if this process exits while it runs.
 * @throws Error when the Node version is below 22, or the process exits or does not answer
 *   `/health` within `startTimeoutMs` (default `SERVICE_START_TIMEOUT_MS`, 180 s; the message
 *   carries the end of its output, e.g. a configuration error)
 */
export async function startPonder(options: StartPonderOptions): Promise<PonderProcess> {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 22) {
    throw new Error(
      `Ponder needs Node >= 22 but this is ${process.versions.node}: run through npm (npm start / npm test)`,
    );
  }
  const ponderBin = ponderCliPath();
  const cwd = options.cwd ?? projectRoot;
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, PORT: String(options.port) };
  const logFormat = options.logFormat ?? (env.LOG_FORMAT === "pretty" ? "pretty" : "json");
  const node = options.openFileLimit
    ? { command: "prlimit", args: [`--nofile=${options.openFileLimit}:${options.openFileLimit}`, process.execPath] }
    : { command: process.execPath, args: [] };
  const child = spawn(
    node.command,
    [
      ...node.args,
      ...(options.nodeArgs ?? []),
      ponderBin,
      options.command ?? "start",
      "--schema",
      options.schema,
      "--port",
      String(options.port),
      ...(options.hostname === null ? [] : ["--hostname", options.hostname ?? "127.0.0.1"]),
      "--log-format",
      logFormat,
    ],
    { cwd, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  trackChild(child);
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  let output = "";
  const collect = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
    if (options.inheritOutput) stream.write(chunk);
  };
  child.stdout?.on("data", collect(process.stdout));
  child.stderr?.on("data", collect(process.stderr));
  const exited = new Promise<number | null>((resolve) => {
    // "close" comes once the process has exited and its stdout and stderr are read to the end, so
    // `output()` holds its last lines ("exit" can come first on a loaded machine). A descendant
    // that inherited the pipes could hold them open: then the exit counts 250 ms after "exit"
    // (within the 500 ms a stop leaves between its SIGKILL and the end of its budget).
    child.once("close", (code) => resolve(code));
    child.once("exit", (code) => setTimeout(() => resolve(code), 250).unref());
  });

  const url = `http://127.0.0.1:${options.port}`;
  const stop = async (killAfterMs = 10_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    await exited;
    clearTimeout(timer);
  };

  // Ponder logs "Created HTTP server" at info level; with a quieter level only the exit and the
  // port guard (ops/portGuard.ts: no move to another port) tell a borrowed port apart.
  const logsInfo = !["silent", "fatal", "error", "warn"].includes(env.PONDER_LOG_LEVEL ?? "");
  const timeoutMs = options.startTimeoutMs ?? serviceStartTimeoutMs();
  const started = Date.now();
  const deadline = started + timeoutMs;
  let nextNote = started + 5_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`ponder exited with code ${child.exitCode ?? child.signalCode}:\n${output.slice(-4000)}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `ponder did not answer ${url}/health within ${timeoutMs} ms (SERVICE_START_TIMEOUT_MS):\n${output.slice(-4000)}`,
      );
    }
    if (options.onWait && Date.now() >= nextNote) {
      nextNote += 5_000;
      options.onWait(
        `waiting for ${url}/health: ${Math.round((Date.now() - started) / 1000)} s of ${Math.round(timeoutMs / 1000)} s; Ponder's last line: ${lastLogMessage(output) ?? "none yet"}`,
      );
    }
    try {
      // Our child, not whatever else answers on the port: it must have said it listens there.
      if (!announcesOwnServer(output, options.port, logsInfo)) throw new Error("not listening yet");
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, output: () => output, stop, exited };
}

/**
 * The message of the child's last log line (JSON `msg`, else the line itself, at most 200
 * characters): what Ponder is doing or waiting for, for the start's progress lines.
 * @param output - the child's output so far
 * @returns the message; `undefined` before the first line
 * @example lastLogMessage('{"level":30,"msg":"Connected to database"}\n') // "Connected to database"
 */
export function lastLogMessage(output: string): string | undefined {
  const line = output
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1);
  if (line === undefined) return undefined;
  try {
    const parsed = JSON.parse(line) as { msg?: unknown };
    if (typeof parsed.msg === "string") return parsed.msg.slice(0, 200);
  } catch {
    // not JSON
  }
  return line.slice(0, 200);
}

/**
 * Whether Ponder's output says it created its HTTP server on `port` (its "Created HTTP server" log
 * line, JSON `"port":n` or pretty `port=n`). Always true when `required` is false.
 * @param output - the child's output so far
 * @param port - the port asked for
 * @param required - false when the log level hides info lines
 * @example announcesOwnServer('{"msg":"Created HTTP server","port":42069}', 42069, true) // true
 */
export function announcesOwnServer(output: string, port: number, required: boolean): boolean {
  if (!required) return true;
  return output
    .split("\n")
    .some(
      (line) =>
        line.includes("Created HTTP server") &&
        (line.includes(`"port":${port},`) ||
          line.includes(`"port":${port}}`) ||
          line.includes(`port=${port} `) ||
          line.endsWith(`port=${port}`)),
    );
}

/**
 * The last lines of a service's output that say why it ended (errors, warnings and the lines
 * naming an error code such as EADDRINUSE), for the message printed when it exits.
 * @param output - the child's whole output
 * @param maxLines - at most this many lines (default 8)
 * @returns the lines joined with newlines; the last `maxLines` lines when none stands out
 * @example exitCause('{"level":50,"msg":"listen EADDRINUSE: address already in use 127.0.0.1:42069"}') // that line
 */
export function exitCause(output: string, maxLines = 8): string {
  const lines = output.split("\n").filter((l) => l.trim() !== "");
  const telling = lines.filter((l) => /"level":(40|50|60)|\b(WARN|ERROR|FATAL)\b|E[A-Z]{4,}|Error\b/.test(l));
  return (telling.length > 0 ? telling : lines).slice(-maxLines).join("\n");
}
