/**
 * `npm start`'s stop sequence (docs/operations.md "What `npm start` runs (devnet)", "Stopping"): what was started registers a
 * stop step; the first SIGINT/SIGTERM (or a fatal event) aborts {@link StopSequence.lifetime} and
 * runs the steps last-registered first, all within `shutdownTimeoutMs`: a step still running when
 * its share is spent is killed, and {@link HARD_DEADLINE_MARGIN_MS} after the budget every child is
 * killed and the process exits whatever a step still awaits. A second signal, after the window in
 * which copies of the first arrive, kills every child and exits at once with 130.
 */

/** One step of the stop sequence: `stop` within its budget, else `kill`. */
export type StopStep = {
  name: string;
  stop: (budgetMs: number) => Promise<void>;
  kill?: () => void;
  /**
   * Time kept for this step while the steps before it stop (ms, default 0): their budgets end
   * this much sooner, so one that hangs until it is killed still leaves this step time for an
   * orderly stop (anvil after a frozen service).
   */
  reserveMs?: number;
};

/** The stop sequence of one `npm start` process. */
export type StopSequence = {
  /** Aborted at the first stop: seeding and trading give up their waits at once. */
  lifetime: AbortSignal;
  /** True from the first stop on. */
  stopping: () => boolean;
  /** Adds a step; steps stop in the reverse order of registration. */
  register: (step: StopStep) => void;
  /** Runs every step (once; later calls do nothing) and exits the process with `code`. */
  stopAll: (code: number, why: string) => Promise<void>;
};

/**
 * Copies of one Ctrl-C arrive within this window and are not a second Ctrl-C: the terminal signals
 * the whole process group, and npm and tsx also relay the signal to their child (tsx when the child
 * has not acknowledged it within 30 ms, e.g. under load).
 */
const DUPLICATE_SIGNAL_WINDOW_MS = 1000;

/**
 * Time after `shutdownTimeoutMs` at which the stop gives up on its steps: every child gets SIGKILL
 * and the process exits (a step's own timer normally ends it sooner; this holds whatever it awaits).
 */
export const HARD_DEADLINE_MARGIN_MS = 500;

/**
 * Runs `steps` in the given order within one deadline. A step's budget is the time left minus what
 * the steps after it reserve (`reserveMs`; at most half the time left); a step still running when
 * its budget is spent is killed (`kill`) and the next one starts. Never throws: a failing step is
 * reported on stderr and counts as stopped.
 * @param steps - in stop order
 * @param deadlineMs - epoch ms by which every step has stopped or been killed
 * @param step - prints a progress line (`stopped <name>`)
 */
export async function runStopSteps(
  steps: StopStep[],
  deadlineMs: number,
  step: (message: string) => void,
): Promise<void> {
  for (const [index, s] of steps.entries()) {
    const leftMs = Math.max(0, deadlineMs - Date.now());
    const reservedMs = steps.slice(index + 1).reduce((sum, later) => sum + (later.reserveMs ?? 0), 0);
    const budgetMs = Math.max(0, leftMs - Math.min(reservedMs, leftMs / 2));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      s.stop(budgetMs).then(
        () => false,
        (err: Error) => {
          console.error(`stopping ${s.name} failed: ${err.message}`);
          return false;
        },
      ),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), budgetMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      console.error(`${s.name} did not stop within the shutdown budget (SHUTDOWN_TIMEOUT_MS); killing it`);
      s.kill?.();
    } else step(`stopped ${s.name}`);
  }
}

/**
 * Builds the stop sequence and installs its SIGINT/SIGTERM handlers. `step` prints a progress line;
 * `shutdownTimeoutMs` bounds the whole sequence (`SHUTDOWN_TIMEOUT_MS`).
 */
export function installStopSequence(options: {
  shutdownTimeoutMs: number;
  step: (message: string) => void;
}): StopSequence {
  const { shutdownTimeoutMs, step } = options;
  const steps: StopStep[] = [];
  const lifetime = new AbortController();
  let stopping = false;
  let firstSignalAt = 0;

  async function stopAll(code: number, why: string) {
    if (stopping) return;
    stopping = true;
    // The hard deadline: whatever a step awaits, every child is killed and the process exits
    // {@link HARD_DEADLINE_MARGIN_MS} after the budget.
    setTimeout(() => {
      console.error(`the stop outlived SHUTDOWN_TIMEOUT_MS (${shutdownTimeoutMs} ms); killing every child and exiting`);
      for (const s of steps) s.kill?.();
      process.exit(code || 1);
    }, shutdownTimeoutMs + HARD_DEADLINE_MARGIN_MS);
    lifetime.abort(new Error(why));
    step(`stopping (${why}); at most ${shutdownTimeoutMs} ms, a second Ctrl-C forces it`);
    await runStopSteps([...steps].reverse(), Date.now() + shutdownTimeoutMs, step);
    process.exit(code);
  }

  /** First signal: orderly stop. Second (after the duplicate window): kill the children and exit now. */
  function onSignal(signal: NodeJS.Signals) {
    if (!stopping) {
      firstSignalAt = Date.now();
      void stopAll(0, `${signal}`);
      return;
    }
    if (firstSignalAt && Date.now() - firstSignalAt < DUPLICATE_SIGNAL_WINDOW_MS) return;
    console.error(`${signal} again: forcing the exit (children get SIGKILL)`);
    for (const s of steps) s.kill?.();
    process.exit(130);
  }
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  return {
    lifetime: lifetime.signal,
    stopping: () => stopping,
    register: (s) => void steps.push(s),
    stopAll,
  };
}
