/**
 * A port asked for is the port used, or the run fails (docs/operations.md "Start and stop
 * (devnet)"; docs/security.md "Ports and crashes").
 *
 * Ponder 0.17 probes its HTTP port at the API build (`ponder/dist/esm/utils/port.js`,
 * `getNextAvailablePort`) and, when the port is taken, logs "Port in use" and silently moves to
 * the next one: a start that then polls the port it asked for talks to someone else's service.
 * It also reads `PORT` before `--port`, so a `PORT` in `.env` silently overrides the flag.
 * {@link refuseTakenApiPort} runs in the API file (before Ponder probes or listens) and refuses
 * both cases with a message naming the port and the setting to change; {@link guardApiPortFallback}
 * turns the "in use" error of Ponder's probe server into a failure instead of the next-port retry
 * (the port taken in the moment between our check and Ponder's listen).
 */
import type { Server } from "node:net";
import { createServer } from "node:net";
import { registerHttpServerHook } from "./httpServerSeam";

/** Thrown when a port asked for is held by another process. */
export class PortInUseError extends Error {
  override name = "PortInUseError" as const;
  readonly shortMessage: string;
  /**
   * @param port - the port asked for
   * @param host - the address it was asked on (e.g. `127.0.0.1`)
   * @param setting - how to choose another, e.g. `--port <n> or PORT`
   */
  constructor(
    readonly port: number,
    readonly host: string,
    readonly setting: string,
  ) {
    const shortMessage = `port ${port} on ${host} is in use by another process`;
    super(`${shortMessage}: stop that process or choose another port with ${setting}`);
    this.shortMessage = shortMessage;
  }
}

/**
 * Whether `host:port` can be bound right now (a listen and close on it).
 * @param port - TCP port, 1-65535
 * @param host - address to bind (default `127.0.0.1`)
 * @returns `true` when free; `false` when in use (EADDRINUSE)
 * @throws the socket error for anything else (e.g. EACCES on a privileged port)
 * @example await portIsFree(42069) // true
 */
export async function portIsFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  const server: Server = createServer();
  return new Promise<boolean>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE") resolve(false);
      else reject(err);
    });
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Throws {@link PortInUseError} when `host:port` is taken.
 * @param port - TCP port
 * @param host - address (default `127.0.0.1`)
 * @param setting - named in the message, e.g. `--rpc-port <n>`
 * @throws {PortInUseError} when the port is in use
 * @example await assertPortFree(8545, "127.0.0.1", "--rpc-port <n>")
 */
export async function assertPortFree(port: number, host = "127.0.0.1", setting = "--port <n>"): Promise<void> {
  if (!(await portIsFree(port, host))) throw new PortInUseError(port, host, setting);
}

/** The `--flag value` / `--flag=value` of an argv, if present. */
function flagValue(argv: readonly string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    for (const name of names) {
      if (arg === name) return argv[i + 1];
      if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
    }
  }
  return undefined;
}

/**
 * The address every service process binds unless `--hostname` says otherwise: loopback, where
 * `npm start` binds the indexer. A replica (`ponder serve`) binds where the indexer binds, and a
 * process is reachable from other hosts only when told (`--hostname 0.0.0.0`, or `::`).
 */
export const DEFAULT_LISTEN_HOSTNAME = "127.0.0.1";

/** Where a Ponder process (`ponder start`/`serve`) will listen, read as Ponder reads it. */
export type PonderListen = {
  /** `PORT` if set, else `--port`/`-p`, else 42069 (Ponder 0.17 `internal/options.js`). */
  port: number;
  /** `--hostname`/`-H`; `undefined`: the service binds {@link DEFAULT_LISTEN_HOSTNAME}. */
  hostname: string | undefined;
  /** Set when `PORT` and `--port` are both given and differ (Ponder would take `PORT`). */
  conflict?: { env: number; flag: number };
};

/**
 * Reads the port and hostname a Ponder process will use from its environment and argv.
 * @param env - the process environment (`PORT`)
 * @param argv - the process arguments (`--port`, `-p`, `--hostname`, `-H`)
 * @returns the port, hostname and a `PORT`/`--port` conflict if any
 * @example ponderListen({ PORT: "42069" }, ["start", "--port", "42070"]).conflict // { env: 42069, flag: 42070 }
 */
export function ponderListen(env: NodeJS.ProcessEnv, argv: readonly string[]): PonderListen {
  const fromFlag = flagValue(argv, ["--port", "-p"]);
  const fromEnv = env.PORT === undefined || env.PORT === "" ? undefined : Number(env.PORT);
  const flag = fromFlag === undefined ? undefined : Number(fromFlag);
  const port = fromEnv ?? flag ?? 42069;
  const hostname = flagValue(argv, ["--hostname", "-H"]);
  return {
    port,
    hostname,
    ...(fromEnv !== undefined && flag !== undefined && fromEnv !== flag ? { conflict: { env: fromEnv, flag } } : {}),
  };
}

/**
 * Refuses, before Ponder probes or listens, a port it would otherwise borrow: a `PORT` that
 * contradicts `--port`, or a port another process holds. Called at the top of the API file.
 * @param listen - from {@link ponderListen}
 * @throws Error naming both values when `PORT` and `--port` disagree
 * @throws {PortInUseError} when the port is in use on the hostname the service binds
 *   ({@link DEFAULT_LISTEN_HOSTNAME} when none is given)
 */
export async function refuseTakenApiPort(listen: PonderListen): Promise<void> {
  if (listen.conflict)
    throw new Error(
      `PORT=${listen.conflict.env} (environment or .env) and --port ${listen.conflict.flag} disagree; Ponder would listen on PORT: unset PORT or pass the same port`,
    );
  const host = listen.hostname ?? DEFAULT_LISTEN_HOSTNAME;
  if (!(await portIsFree(listen.port, host)))
    throw new PortInUseError(listen.port, host, "--port <n> (or PORT; with npm start: --port <n> or PORT in .env)");
}

/**
 * Disables Ponder's next-port fallback in this process: the "in use" error of the probe server
 * Ponder creates reaches its probe as a different error code, so the API build fails instead of
 * retrying on the next port. Registered by the API file.
 */
export function guardApiPortFallback(): void {
  registerHttpServerHook("port-guard", {
    configure: (server) => {
      server.prependListener("error", (err: NodeJS.ErrnoException) => {
        if (err.code !== "EADDRINUSE") return;
        err.code = "EADDRINUSE_REFUSED";
        err.message = `${err.message}: the port asked for is in use; choose another with --port <n> (or PORT)`;
      });
    },
  });
}
