/**
 * The one seam between this service and the internals of Ponder, Vite and viem that no public API
 * offers. Every reach into them lives here, so an upgrade has one file to check, and
 * `ops/ponderInternals.test.ts` (the upgrade smoke test) fails loudly when an assumption below no
 * longer holds for the installed versions.
 *
 * Ponder 0.17 keeps its runtime services in `globalThis.PONDER_COMMON` (set by its build before it
 * loads `ponder.config.ts` and the API file; Ponder's own `ponder:api` client helpers read it the
 * same way):
 *
 * - `metrics.registry`: the prom-client `Registry` its `/metrics` route serves (not prom-client's
 *   default registry: `MetricsService` creates `new Registry()` and `GET /metrics` returns
 *   `registry.metrics()`). {@link attachToPonder} registers the service's metric objects in it,
 *   so one scrape returns `ponder_*` and ours.
 * - `logger`: its pino logger (`--log-format json` prints one JSON object per line;
 *   `PONDER_LOG_LEVEL` sets the level). {@link ponderRequestLogger} writes request lines there.
 * - `apiShutdown`: callbacks run on SIGINT/SIGTERM/SIGQUIT (together with the HTTP server's
 *   termination and the database close; Ponder exits after at most 5 s).
 *
 * Outside Ponder (tests calling `createApp`) `PONDER_COMMON` is absent and those functions are
 * no-ops.
 *
 * Vite: Ponder builds with a Vite dev server, and Vite (5.x, not in middleware mode) registers
 * `process.once("SIGTERM", closeServerAndExit)`, which calls `process.exit()` as soon as Vite's own
 * server is closed (~0.1 s), cutting Ponder's shutdown short: the HTTP server's drain, the database
 * unlock and the store close never finish. {@link detachViteSigtermExit} removes that listener;
 * Ponder's own SIGTERM handler then runs the whole sequence (it closes Vite too).
 *
 * Also here: the layout of Ponder's checkpoint string ({@link decodeCheckpointBlock}), the path of
 * Ponder's CLI ({@link ponderCliPath}: its package `exports` hide it) and of viem's ESM unit
 * helpers served to browsers ({@link viemEsmUnitFile}). Two HTTP-server hooks stay beside the code
 * they serve and are covered by their own tests: `http/middleware/cors.ts` (headers on Ponder's
 * server) and `ops/metrics/access.ts` (the metrics listener).
 *
 * A cost assumption, not a call: Ponder's indexing store runs `context.db.delete` against the
 * database at once, while the other store calls stay in its in-memory cache, so the indexing
 * functions in `src/` never delete (src/indexing/indexingStore.test.ts; the smoke test checks the delete).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Registry } from "prom-client";
import type { RequestLogger } from "./metrics/http";
import { serviceRegistry } from "./metrics/registry";

type PonderLogFn = (fields: Record<string, unknown>) => void;
/** The part of Ponder's `common` object the service uses. */
type PonderCommon = {
  metrics?: { registry?: Registry; port?: number };
  options?: { port?: number; hostname?: string; command?: string };
  logger?: { info: PonderLogFn; warn: PonderLogFn; error: PonderLogFn };
  apiShutdown?: { add: (callback: () => unknown) => void };
};

/** Ponder's runtime services, or undefined outside a Ponder process. */
export function ponderCommon(): PonderCommon | undefined {
  return (globalThis as { PONDER_COMMON?: PonderCommon }).PONDER_COMMON;
}

/**
 * Registers every service metric in the registry Ponder serves at `/metrics` (metrics already
 * there, e.g. after a reload, are skipped).
 * @returns the names registered now (empty outside Ponder)
 */
export function attachToPonder(): string[] {
  const target = ponderCommon()?.metrics?.registry;
  if (!target || target === serviceRegistry) return [];
  const added: string[] = [];
  for (const metric of serviceRegistry.getMetricsAsArray()) {
    const name = (metric as unknown as { name: string }).name;
    if (target.getSingleMetric(name)) continue;
    target.registerMetric(metric as unknown as Parameters<Registry["registerMetric"]>[0]);
    added.push(name);
  }
  return added;
}

/**
 * A request logger writing through Ponder's logger (JSON lines with `--log-format json`).
 * @returns the logger, or undefined outside Ponder
 */
export function ponderRequestLogger(): RequestLogger | undefined {
  const logger = ponderCommon()?.logger;
  if (!logger) return undefined;
  return (level, entry) => logger[level]({ ...entry });
}

/**
 * Logs a structured line through Ponder's logger (console outside Ponder).
 * @param level - `info`, `warn` or `error`
 * @param fields - `msg` plus fields; never pass secrets
 */
export function logEvent(level: "info" | "warn" | "error", fields: { msg: string } & Record<string, unknown>): void {
  const logger = ponderCommon()?.logger;
  if (logger) logger[level](fields);
  else console[level === "info" ? "log" : level](JSON.stringify(fields));
}

/**
 * Removes Vite's SIGTERM listener that exits the process before Ponder's shutdown completes
 * (see the module comment). Only a listener named `closeServerAndExit` is removed, and only when
 * Ponder's own handler remains to shut down.
 * @returns how many listeners were removed (0 outside Ponder or when Vite changed)
 */
export function detachViteSigtermExit(): number {
  if (!ponderCommon()) return 0;
  const listeners = process.listeners("SIGTERM");
  const vite = listeners.filter((l) => l.name === "closeServerAndExit");
  if (vite.length === 0 || vite.length === listeners.length) return 0;
  for (const listener of vite) process.removeListener("SIGTERM", listener);
  return vite.length;
}

/**
 * Runs `callback` when Ponder shuts the API down (SIGTERM/SIGINT).
 * @returns whether it was registered (false outside Ponder)
 */
export function onPonderShutdown(callback: () => Promise<void>): boolean {
  const shutdown = ponderCommon()?.apiShutdown;
  if (!shutdown) return false;
  shutdown.add(callback);
  return true;
}

/**
 * The port Ponder's HTTP server (the API) listens on: `metrics.port`, which Ponder sets once the
 * server listens, else the configured `options.port` (`PORT` or `--port`).
 * @returns the port, or undefined outside Ponder
 * @example ponderApiPort() // 42069
 */
export function ponderApiPort(): number | undefined {
  const common = ponderCommon();
  return common?.metrics?.port ?? common?.options?.port;
}

/**
 * Sets the address Ponder's HTTP server binds when its command line named none (`--hostname`/`-H`;
 * Ponder then leaves it to Node, which binds every interface). Ponder reads
 * `options.hostname` after it has evaluated the API file, when it creates the server, so the API
 * file calls this.
 * @param hostname - the address to bind by default, e.g. `127.0.0.1`
 * @returns the address the server will bind (undefined outside Ponder)
 * @example defaultPonderHostname("127.0.0.1") // "127.0.0.1", or what --hostname said
 */
export function defaultPonderHostname(hostname: string): string | undefined {
  const options = ponderCommon()?.options;
  if (!options) return undefined;
  options.hostname ??= hostname;
  return options.hostname;
}

/** The Ponder release whose internals this module was checked against (package.json pins it). */
export const PONDER_VERSION_CHECKED = "0.17.7";

/** Indexed head: the newest block the indexer has fully processed (from Ponder's checkpoint). */
export type IndexedHead = { blockNumber: bigint; timestampSec: bigint };

/**
 * Block number and timestamp encoded in a Ponder checkpoint string (Ponder 0.17
 * `utils/checkpoint.ts`: 10 digits timestamp, 16 chain id, 16 block number, 16 transaction index,
 * 1 event type, 16 event index: 75 digits).
 * @throws Error when the string is not a 75-digit checkpoint (the layout changed)
 * @example decodeCheckpointBlock("1700000000" + "0".repeat(12) + "4663" + "0".repeat(14) + "42" + "0".repeat(33)) // { blockNumber: 42n, timestampSec: 1700000000n }
 */
export function decodeCheckpointBlock(checkpoint: string): IndexedHead {
  if (!/^\d{75}$/.test(checkpoint)) throw new Error(`unexpected checkpoint "${checkpoint}"`);
  return { timestampSec: BigInt(checkpoint.slice(0, 10)), blockNumber: BigInt(checkpoint.slice(26, 42)) };
}

/**
 * Path of the installed Ponder CLI entry (`ponder/dist/esm/bin/ponder.js`), which child processes
 * run with the project's Node 22.
 * @throws Error when the ponder package is not installed
 */
export function ponderCliPath(): string {
  const searchPaths = createRequire(import.meta.url).resolve.paths("ponder") ?? [];
  for (const dir of searchPaths) {
    const candidate = join(dir, "ponder", "dist", "esm", "bin", "ponder.js");
    if (existsSync(candidate)) return candidate;
  }
  throw new Error("the ponder package is not installed: run npm install");
}

/**
 * Path of one of viem's ESM unit helpers (`viem/_esm/utils/unit/<name>`), served as-is to the
 * pages (they import nothing outside that folder, so the browser needs no bundler).
 * @param name - `parseEther.js`, `formatEther.js`, …
 */
export function viemEsmUnitFile(name: string): string {
  return join(dirname(createRequire(import.meta.url).resolve("viem/package.json")), "_esm/utils/unit", name);
}
