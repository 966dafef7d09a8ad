/**
 * The flags of `npm start` (scripts/start.ts), parsed and validated before anything starts.
 *
 * `--no-seed` (no demo activity), `--port <n>` (HTTP, default `PORT`, else 42069),
 * `--rpc-port <n>` (anvil, default 8545), `--block-time <sec>` (interval mining after seeding,
 * default 1), `--trade-interval-ms <n>` (demo trading pace, default 2000; 0 disables),
 * `--data-dir <path>` (devnet folder, default `DEVNET_DIR` or `.devnet`).
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { Env } from "../config/env";

/** The validated flags; numbers are already numbers. */
export type StartFlags = {
  noSeed: boolean;
  port: number;
  rpcPort: number;
  blockTimeSec: number;
  tradeIntervalMs: number;
  /** As given (relative paths stay relative; the caller resolves them). */
  dataDir: string;
};

/** Thrown for a bad flag; the message names the flag, what it expects and what it got. */
export class StartFlagError extends Error {
  override name = "StartFlagError" as const;
}

/** `parseArgs`, with its errors (unknown flag, missing value) as one plain {@link StartFlagError}. */
function parseOrRefuse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new StartFlagError((err as Error).message);
  }
}

const NUMERIC = ["port", "rpc-port", "block-time", "trade-interval-ms"] as const;

/**
 * Parses `argv` (default: this process's arguments) with `node:util` `parseArgs`.
 * Ports must be 1..65535, the other numbers non-negative integers, the data folder non-empty.
 * @throws {StartFlagError} on the first bad flag, an unknown flag or a missing value
 * @example parseStartFlags(env, ["--port", "8080"]).port // 8080
 */
export function parseStartFlags(env: Pick<Env, "PORT" | "DEVNET_DIR">, argv?: string[]): StartFlags {
  const { values } = parseOrRefuse({
    args: argv,
    options: {
      "no-seed": { type: "boolean", default: false },
      port: { type: "string", default: String(env.PORT) },
      "rpc-port": { type: "string", default: "8545" },
      "block-time": { type: "string", default: "1" },
      "trade-interval-ms": { type: "string", default: "2000" },
      "data-dir": { type: "string", default: env.DEVNET_DIR },
    },
  });
  for (const name of NUMERIC) {
    const value = values[name];
    const isPort = name.endsWith("port");
    if (!/^\d+$/.test(value) || (isPort && (Number(value) < 1 || Number(value) > 65535)))
      throw new StartFlagError(
        `invalid flag --${name}: expected ${isPort ? "a port from 1 to 65535" : "a non-negative integer"}, got "${value}"`,
      );
  }
  if (!values["data-dir"]) throw new StartFlagError('invalid flag --data-dir: expected a folder path, got ""');
  return {
    noSeed: values["no-seed"],
    port: Number(values.port),
    rpcPort: Number(values["rpc-port"]),
    blockTimeSec: Number(values["block-time"]),
    tradeIntervalMs: Number(values["trade-interval-ms"]),
    dataDir: values["data-dir"],
  };
}
