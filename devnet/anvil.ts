/**
 * Starts and stops a local anvil node (the npm `@foundry-rs/anvil` platform binary, spawned
 * directly so the PID held is the real process).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import path from "node:path";
import { createPublicClient, http } from "viem";

const require = createRequire(import.meta.url);

/** Nodes started by this process; killed if the process exits without stopping them. */
const running = new Map<ChildProcess, string>();
let exitHookInstalled = false;

/**
 * Kills `child` when this process exits and removes `stateDir` (its persisted states) when either
 * ends. anvil writes historical states beyond its in-memory window to disk and never deletes
 * them: a long history leaves gigabytes behind per run unless each node gets a folder of its own.
 */
function trackChild(child: ChildProcess, stateDir: string): void {
  running.set(child, stateDir);
  child.once("exit", () => {
    running.delete(child);
    rmSync(stateDir, { recursive: true, force: true });
  });
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const [c, dir] of running) {
        c.kill("SIGKILL");
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
}

/** The chain id of the devnet (matches the production chain). */
export const DEVNET_CHAIN_ID = 4663;

/** Options for `startAnvil`. */
export type StartAnvilOptions = {
  /** TCP port on 127.0.0.1; 0 or omitted picks a free port. */
  port?: number;
  /** Seconds between blocks; omitted means automine (a block per transaction). */
  blockTimeSec?: number;
  /** Chain id; defaults to 4663. */
  chainId?: number;
  /** Milliseconds to wait for the node to answer; defaults to 15000. */
  readyTimeoutMs?: number;
  /** Block gas limit (`--gas-limit`); omitted means anvil's default (30,000,000). */
  gasLimit?: bigint;
  /**
   * Unix seconds of the genesis block (`--timestamp`); later blocks keep that offset from the wall
   * clock. Omitted means now. Tests use a past genesis to put a chain's history where the wall
   * clock's 24 h window cuts through it.
   */
  genesisTimestampSec?: number;
  /**
   * Historical states to keep, in memory only (`--prune-history <n>`): nothing is written to disk.
   * Omitted means anvil's default: 500 states in memory, shrinking by one per block down to 10 once
   * full, each evicted state serialised whole to the cache folder (up to 3,600). On a large state
   * (thousands of launches) that is one full-state write per block: seconds per block and tens of
   * gigabytes. Calls at a block older than the kept states fail.
   */
  historyStates?: number;
  /**
   * JSON-RPC URL of another node to fork at its head (`--fork-url`, without rate limit or on-disk
   * storage cache): blocks, logs and calls up to the fork block are answered by that node, state is
   * read from it on first touch. Blocks mined here cost only the state touched since the fork.
   */
  forkUrl?: string;
  /**
   * A state file written by `dumpStateFile` to start from (`--load-state`): the saved blocks,
   * logs, accounts and the states at past blocks; new blocks go on top of the saved head.
   */
  loadStateFile?: string;
  /**
   * Where to write the chain when the node stops (`--dump-state`), with the states at past blocks
   * (`--preserve-historical-states`): without them, calls at a saved block fail after a restore.
   */
  dumpStateFile?: string;
};

/** A running anvil node. */
export type AnvilInstance = {
  /** `http://127.0.0.1:<port>`. */
  rpcUrl: string;
  /** `ws://127.0.0.1:<port>`: anvil answers WebSocket JSON-RPC (e.g. `eth_subscribe`) on the same port. */
  wsUrl: string;
  port: number;
  /** PID of the anvil process itself. */
  pid: number;
  /** Stops the node (SIGTERM, then SIGKILL after 3 s) and resolves when it has exited. */
  stop(): Promise<void>;
};

/** Thrown when anvil cannot be started or does not answer in time. */
export class AnvilStartError extends Error {
  override name = "AnvilStartError" as const;
  readonly shortMessage: string;
  constructor(
    shortMessage: string,
    readonly output: string,
  ) {
    super(`${shortMessage}\nanvil output:\n${output.slice(-2000)}`);
    this.shortMessage = shortMessage;
  }
}

/**
 * Thrown when anvil cannot bind its port because another process holds it ("Address already in
 * use"). Whatever answers on that port is not this node: nothing may be sent to it.
 */
export class AnvilPortInUseError extends Error {
  override name = "AnvilPortInUseError" as const;
  readonly shortMessage: string;
  constructor(
    readonly port: number,
    readonly output: string,
  ) {
    const shortMessage = `port ${port} on 127.0.0.1 is in use by another process: anvil could not listen on it`;
    super(`${shortMessage}\nanvil output:\n${output.slice(-2000)}`);
    this.shortMessage = shortMessage;
  }
}

/**
 * Path of the anvil binary shipped by the npm platform package for this machine.
 * @returns Absolute path to the executable.
 * @throws {AnvilStartError} When the platform package is not installed (e.g. installed with `--omit=optional`).
 */
export function anvilBinaryPath(): string {
  const pkg = `@foundry-rs/anvil-${process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", "anvil");
  } catch {
    throw new AnvilStartError(`anvil platform package ${pkg} is not installed (do not use --omit=optional)`, "");
  }
}

/**
 * Finds a TCP port that is free on 127.0.0.1 right now.
 * @returns The port number.
 */
export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts anvil on 127.0.0.1 and waits until it answers `eth_chainId`. The node answering must be
 * the child started here: its own output must say `Listening on 127.0.0.1:<port>` (it bound the
 * port) before an answer counts, so another node already on the port is never taken for it.
 * @param opts Port (0 = free port), block time in seconds, chain id (default 4663), block gas limit,
 *   genesis timestamp, historical states kept in memory only, node to fork, state file to start
 *   from or to write at stop (devnet/snapshot.ts).
 * @returns The RPC URL (HTTP and WebSocket), port, PID and a `stop()` function.
 * @throws {AnvilPortInUseError} When the port is held by another process (anvil exits with
 *   "Address already in use"); with `port` 0 a free port is retried instead.
 * @throws {AnvilStartError} When the process exits early or does not answer within `readyTimeoutMs`.
 * @example
 * const anvil = await startAnvil();
 * // anvil.rpcUrl === "http://127.0.0.1:41234"
 * await anvil.stop();
 */
export async function startAnvil(opts: StartAnvilOptions = {}): Promise<AnvilInstance> {
  const chainId = opts.chainId ?? DEVNET_CHAIN_ID;
  const readyTimeoutMs = opts.readyTimeoutMs ?? 15_000;
  // A free port can be taken between the probe and anvil's bind: retry a few times.
  for (let attempt = 0; ; attempt++) {
    const port = opts.port ? opts.port : await findFreePort();
    try {
      return await spawnAnvil(port, chainId, readyTimeoutMs, opts);
    } catch (error) {
      if (opts.port || attempt >= 2) throw error;
    }
  }
}

async function spawnAnvil(
  port: number,
  chainId: number,
  readyTimeoutMs: number,
  opts: StartAnvilOptions,
): Promise<AnvilInstance> {
  const args = ["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(chainId)];
  if (opts.genesisTimestampSec !== undefined) args.push("--timestamp", String(opts.genesisTimestampSec));
  if (opts.blockTimeSec !== undefined) args.push("--block-time", String(opts.blockTimeSec));
  if (opts.gasLimit !== undefined) args.push("--gas-limit", opts.gasLimit.toString());
  if (opts.historyStates !== undefined) args.push("--prune-history", String(opts.historyStates));
  if (opts.forkUrl !== undefined) args.push("--fork-url", opts.forkUrl, "--no-rate-limit", "--no-storage-caching");
  if (opts.loadStateFile !== undefined) args.push("--load-state", opts.loadStateFile);
  if (opts.dumpStateFile !== undefined) args.push("--dump-state", opts.dumpStateFile, "--preserve-historical-states");
  const stateDir = mkdtempSync(path.join(tmpdir(), "anvil-states-"));
  args.push("--cache-path", stateDir);
  const child = spawn(anvilBinaryPath(), args, { stdio: ["ignore", "pipe", "pipe"] });
  trackChild(child, stateDir);
  let output = "";
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);

  let exited = false;
  const exitPromise = new Promise<void>((resolve) => {
    child.once("exit", () => {
      exited = true;
      resolve();
    });
  });
  let spawnFailure: Error | undefined;
  child.once("error", (e) => {
    spawnFailure = e;
  });

  const stop = async () => {
    if (exited) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
    await exitPromise;
    clearTimeout(timer);
  };

  const rpcUrl = `http://127.0.0.1:${port}`;
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: 1000 }) });
  const deadline = Date.now() + readyTimeoutMs;
  const listening = `Listening on 127.0.0.1:${port}`;
  while (true) {
    if (spawnFailure) throw new AnvilStartError(`anvil could not be started: ${spawnFailure.message}`, output);
    if (exited) {
      if (/address already in use/i.test(output)) throw new AnvilPortInUseError(port, output);
      throw new AnvilStartError(`anvil exited before answering on port ${port}`, output);
    }
    try {
      // Not our node until it says it bound the port (another process may answer there).
      if (!output.includes(listening)) throw new Error("not listening yet");
      const id = await client.getChainId();
      if (id !== chainId) {
        await stop();
        throw new AnvilStartError(`anvil on port ${port} answered chain id ${id}, expected ${chainId}`, output);
      }
      break;
    } catch (error) {
      if (error instanceof AnvilStartError) throw error;
      if (Date.now() > deadline) {
        await stop();
        throw new AnvilStartError(`anvil did not answer on port ${port} within ${readyTimeoutMs} ms`, output);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  if (child.pid === undefined) throw new AnvilStartError("anvil has no pid", output);
  return { rpcUrl, wsUrl: `ws://127.0.0.1:${port}`, port, pid: child.pid, stop };
}
