/**
 * Runs the service as a child process on the Node binary running this script (Node >= 22, see
 * README "Node 22"): `ponder start` (indexer + the Hono API in one process) or `ponder serve`
 * (the API only, reading the tables an indexer writes into the same PostgreSQL schema; an API
 * replica). Shared by `npm start` and the end-to-end tests.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

/** A running service. */
export type PonderProcess = {
  /** Base URL of the HTTP server, e.g. `http://127.0.0.1:42069`. */
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string;
  /** Stops the process (SIGTERM, then SIGKILL after 10 s) and waits for it to exit. */
  stop: () => Promise<void>;
  /** Resolves with the exit code (null when killed by a signal) once the process has exited. */
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
  /** `start` (default: indexer + API) or `serve` (API replica; PostgreSQL only). */
  command?: "start" | "serve";
  /** Ponder's `--log-format` (default `LOG_FORMAT` from the environment, else `json`). */
  logFormat?: "json" | "pretty";
  /** Flags for the Node binary itself, e.g. `--cpu-prof` (not allowed in `NODE_OPTIONS`). */
  nodeArgs?: string[];
};

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Starts `ponder start` (or `ponder serve`) and resolves once its HTTP server answers `/health`.
 * Logs are JSON lines unless `logFormat`/`LOG_FORMAT` says `pretty`.
 * @throws Error when the Node version is below 22, or the process exits or stays silent for 60 s
 *   (the message carries the end of its output, e.g. a configuration error)
 */
export async function startPonder(options: StartPonderOptions): Promise<PonderProcess> {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 22) {
    throw new Error(`Ponder needs Node >= 22 but this is ${process.versions.node}: run through npm (npm start / npm test)`);
  }
  const ponderBin = ponderCliPath();
  const cwd = options.cwd ?? projectRoot;
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, PORT: String(options.port) };
  const logFormat = options.logFormat ?? (env.LOG_FORMAT === "pretty" ? "pretty" : "json");
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), ponderBin, options.command ?? "start", "--schema", options.schema, "--port", String(options.port), "--hostname", "127.0.0.1", "--log-format", logFormat],
    { cwd, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const collect = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
    if (options.inheritOutput) stream.write(chunk);
  };
  child.stdout?.on("data", collect(process.stdout));
  child.stderr?.on("data", collect(process.stderr));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const url = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`ponder exited with code ${child.exitCode}:\n${output.slice(-4000)}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`ponder did not answer /health within 60 s:\n${output.slice(-4000)}`);
    }
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, output: () => output, stop, exited };
}

/** Path of the installed ponder CLI (its package `exports` hide package.json from `require.resolve`). */
function ponderCliPath(): string {
  const searchPaths = createRequire(import.meta.url).resolve.paths("ponder") ?? [];
  for (const dir of searchPaths) {
    const candidate = join(dir, "ponder", "dist", "esm", "bin", "ponder.js");
    if (existsSync(candidate)) return candidate;
  }
  throw new Error("the ponder package is not installed: run npm ci");
}

/**
 * Waits until the service has indexed at least `blockNumber` (Ponder's `GET /status`, chain
 * `evmchain`). `/ready` alone turns 200 at the finalized block, before the newest rows exist.
 * @param url - the service base URL
 * @param blockNumber - block that must be indexed
 * @param timeoutMs - give up after this long
 * @throws Error on timeout
 */
export async function waitIndexed(url: string, blockNumber: bigint, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const status = (await (await fetch(`${url}/status`)).json()) as { evmchain?: { block?: { number?: number } } };
      const indexed = status.evmchain?.block?.number;
      if (indexed !== undefined && BigInt(indexed) >= blockNumber) return;
    } catch {
      // not listening or not indexing yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not index block ${blockNumber} within ${timeoutMs} ms`);
}

/**
 * Waits until `GET /ready` answers 200 (historical indexing reached the chain head).
 * @param url - the service base URL
 * @param timeoutMs - give up after this long
 * @throws Error on timeout
 */
export async function waitReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url}/ready did not turn 200 within ${timeoutMs} ms`);
}
