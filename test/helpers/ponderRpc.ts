/**
 * Ponder's real RPC client (`createRpc` from the installed, patched package) for tests of the
 * patch's RPC hunks (test/unit/ponderPatch.test.ts, test/unit/ponderNewHeads.test.ts), with the
 * `common` argument it needs and no-op sinks.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Folder of the installed `ponder` package (its `exports` hide package.json; tests run from the root). */
export const ponderDir = join(process.cwd(), "node_modules", "ponder");

/** The installed Ponder's version, e.g. "0.17.7". */
export const installedVersion = (
  JSON.parse(readFileSync(join(ponderDir, "package.json"), "utf8")) as { version: string }
).version;

/**
 * The `common` argument of Ponder's `createRpc` (logger, metrics, shutdown) with no-op sinks, and
 * the rate limits (requests/s) Ponder logs each time the node answers "rate limited".
 */
export function ponderRpcCommon(): { common: object; limits: number[] } {
  const limits: number[] = [];
  const ignore = () => {};
  const logger = {
    info: ignore,
    warn: ignore,
    error: ignore,
    trace: ignore,
    debug: (entry: { msg?: string; rps_limit?: number }) => {
      if (entry.msg === "JSON-RPC provider rate limited") limits.push(entry.rps_limit!);
    },
    child: () => logger,
  };
  const metrics = { ponder_rpc_request_duration: { observe: ignore }, ponder_rpc_request_error_total: { inc: ignore } };
  return { common: { logger, metrics, shutdown: { add: ignore, isKilled: false } }, limits };
}

/** What the tests use of Ponder's `Rpc`: its live head subscription. */
export type PonderRpc = {
  subscribe: (a: { onBlock: (block: unknown) => Promise<unknown>; onError: (error: unknown) => void }) => void;
  unsubscribe: () => Promise<void>;
};

/** Ponder's `createRpc` from the installed package's build (the file the patch edits). */
export async function loadCreateRpc(): Promise<(a: object) => PonderRpc> {
  const module = (await import(pathToFileURL(join(ponderDir, "dist/esm/rpc/index.js")).href)) as {
    createRpc: (a: object) => PonderRpc;
  };
  return module.createRpc;
}
