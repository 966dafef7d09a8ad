/**
 * Node's process warnings as structured log lines (docs/operations.md "Logs").
 *
 * Node prints every process warning (`DeprecationWarning`, `ExperimentalWarning`,
 * `MaxListenersExceededWarning`, …) as plain text on stderr through its own `warning` listener
 * (`onWarning`), so a log of JSON lines (`--log-format json`) gets a line no JSON parser reads.
 * Seen: `(node:…) DeprecationWarning: Calling client.query() when the client is already executing
 * a query is deprecated…`, from node-postgres (`pg` 8.x) when a query is sent on a client that is
 * still running one. Its source is inside Ponder, not this service: on PostgreSQL Ponder's own
 * transactions issue their statements side by side on one checked-out client (the service's reads
 * go through pools, one client per query). It is harmless until pg 9, and no setting turns it off.
 *
 * {@link routeProcessWarnings} replaces Node's printer with one that writes each warning through
 * Ponder's logger: one JSON line at `warn` level, `msg: "Process warning"`, with the warning's
 * `name`, `code` and `message` (each deprecation once per process, as Node does).
 */
import { logEvent, ponderCommon } from "./ponderInternals";

const ROUTED = Symbol.for("launch-service.processWarnings");

/**
 * The fields of the log line for one warning.
 * @param warning - what Node's `warning` event carries
 * @returns `msg`, `warning` (its name), `code` (e.g. `DEP0005`, when set) and `message`
 * @example warningLogFields(Object.assign(new Error("x is deprecated"), { name: "DeprecationWarning" }))
 *   // { msg: "Process warning", warning: "DeprecationWarning", message: "x is deprecated" }
 */
export function warningLogFields(warning: Error & { code?: string }): { msg: string } & Record<string, unknown> {
  return {
    msg: "Process warning",
    warning: warning.name,
    ...(warning.code ? { code: warning.code } : {}),
    message: warning.message,
  };
}

/**
 * Routes this process's warnings to Ponder's logger instead of Node's plain-text printer (once per
 * process). Outside Ponder (no logger) nothing changes.
 * @param log - where each warning goes (default: Ponder's logger at `warn`)
 * @returns whether Node's printer was replaced now
 */
export function routeProcessWarnings(
  log: (fields: { msg: string } & Record<string, unknown>) => void = (fields) => logEvent("warn", fields),
): boolean {
  if (!ponderCommon()?.logger) return false;
  const holder = process as unknown as Record<symbol, boolean | undefined>;
  if (holder[ROUTED]) return false;
  holder[ROUTED] = true;
  for (const listener of process.listeners("warning"))
    if (listener.name === "onWarning") process.removeListener("warning", listener);
  process.on("warning", (warning) => log(warningLogFields(warning)));
  return true;
}
