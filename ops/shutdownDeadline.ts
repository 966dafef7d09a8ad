/**
 * A hard stop deadline for the service process (`ponder start` / `ponder serve`; docs/operations.md
 * "Shutdown and restart").
 *
 * Ponder's own stop bound (5 s, then `process.exit`) is a `setTimeout` on the main thread: it can
 * only fire while the event loop turns. The embedded database (PGlite) runs its queries as
 * synchronous WebAssembly on that thread, so a long query, checkpoint or close holds the loop, and
 * with it every timer, for as long as it runs. A process run directly (a container's
 * `npx ponder start`, systemd) then outlives its stop bound by the length of the query; under
 * `npm start` its supervisor's SIGKILL bounds it, but only there.
 *
 * {@link armStopDeadlineOnSignal} starts a watchdog on a worker thread at once (the thread needs
 * the main thread's event loop to start, so it cannot be started once that loop is held) and
 * starts its countdown at the first SIGTERM/SIGINT/SIGQUIT through shared memory. When the
 * deadline passes with the process still running, the thread writes one JSON log line to stderr
 * and sends SIGKILL to its own process. An orderly stop exits first, and the thread goes with it.
 * The signal handler itself runs on the main thread: a loop already held when the signal arrives
 * starts the countdown only when it turns (a supervisor's SIGKILL, `npm start`'s or the
 * container's, bounds that case).
 *
 * Measured case it bounds: a log reader that stops reading (a stalled log shipper, a terminal
 * paused with Ctrl-S, a parent whose own output blocks). Ponder's logger (pino) keeps serving and
 * buffers the lines it cannot write; at the stop, the exit flushes that buffer synchronously and
 * the process hangs in the flush for as long as nobody reads. With the watchdog it is killed at the
 * deadline (6.5 s by default; `test/e2e/shutdown.test.ts`).
 */
import { Worker } from "node:worker_threads";

/** What `npm start` keeps beyond the service's stop: anvil's orderly stop and the exit (ms). */
export const STOP_DEADLINE_RESERVE_MS = 1_500;
/** The shortest deadline ever armed (ms): the drain and the database unlock need some time. */
export const MIN_STOP_DEADLINE_MS = 1_000;

/**
 * The service's own stop deadline for a given whole-stop budget: `SHUTDOWN_TIMEOUT_MS` minus
 * {@link STOP_DEADLINE_RESERVE_MS}, at least {@link MIN_STOP_DEADLINE_MS}.
 * @param shutdownTimeoutMs - `SHUTDOWN_TIMEOUT_MS` (the whole stop of `npm start`, default 8,000)
 * @returns milliseconds from the first stop signal to the watchdog's SIGKILL
 * @example stopDeadlineMs(8_000) // 6500
 */
export function stopDeadlineMs(shutdownTimeoutMs: number): number {
  return Math.max(MIN_STOP_DEADLINE_MS, shutdownTimeoutMs - STOP_DEADLINE_RESERVE_MS);
}

/**
 * The watchdog's program (plain JavaScript on a worker thread). It waits on shared memory with
 * `Atomics.wait`, which needs nothing of the main thread: set to 1 (the stop began), it sleeps the
 * deadline the same way, then kills the process.
 */
const WATCHDOG = `
const { workerData } = require("node:worker_threads");
const { write } = require("node:fs");
const state = new Int32Array(workerData.state);
Atomics.wait(state, 0, 0);
Atomics.wait(state, 0, 1, workerData.deadlineMs);
const kill = () => process.kill(workerData.pid, "SIGKILL");
// The line is written without waiting on it (a stderr nobody reads must not hold the kill).
setTimeout(kill, 100);
try {
  write(2, JSON.stringify({ level: 50, time: Date.now(), msg: "Stop deadline passed; killing the process", deadline_ms: workerData.deadlineMs }) + "\\n", kill);
} catch {
  kill();
}
`;

/** A started watchdog: {@link StopWatchdog.begin} starts the countdown. */
export type StopWatchdog = {
  /** Starts the countdown to SIGKILL (synchronous, works however busy the main thread is later). */
  begin: () => void;
};

/**
 * Starts the watchdog thread now (while the event loop is free), idle until `begin` is called.
 * @param deadlineMs - milliseconds from `begin` to SIGKILL
 * @returns the watchdog (its thread is unreferenced: it never keeps the process alive)
 * @example const watchdog = startStopWatchdog(6_500); process.once("SIGTERM", watchdog.begin);
 */
export function startStopWatchdog(deadlineMs: number): StopWatchdog {
  const state = new SharedArrayBuffer(4);
  const worker = new Worker(WATCHDOG, {
    eval: true,
    workerData: { deadlineMs, pid: process.pid, state },
    // No loader or inspector flags of the main process: the thread must start on its own.
    execArgv: [],
  });
  worker.unref();
  const flag = new Int32Array(state);
  return {
    begin: () => {
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    },
  };
}

const ARMED = Symbol.for("launch-service.stopDeadline");

/**
 * Starts the watchdog and begins its countdown at the first SIGTERM, SIGINT or SIGQUIT this
 * process receives (once per process, also when the API file is evaluated again). Ponder's own signal handlers still run the
 * orderly stop; this only bounds it.
 * @param deadlineMs - from the signal to the SIGKILL (see {@link stopDeadlineMs})
 * @returns false when already armed in this process
 */
export function armStopDeadlineOnSignal(deadlineMs: number): boolean {
  const holder = process as unknown as Record<symbol, boolean | undefined>;
  if (holder[ARMED]) return false;
  holder[ARMED] = true;
  const watchdog = startStopWatchdog(deadlineMs);
  // First among the signal's listeners: one that throws (a log write to a pipe whose reader is
  // gone) stops the listeners after it.
  for (const signal of ["SIGTERM", "SIGINT", "SIGQUIT"] as const) process.prependOnceListener(signal, watchdog.begin);
  return true;
}
