/**
 * A self-rescheduling background task, the one loop shape of the service's background workers
 * (the webhook delivery worker, the creator-funding scan): run a step, wait the pause its outcome
 * asks for, run it again, until stopped.
 *
 * Invariants: at most one step runs at a time (the next is scheduled only once the previous one
 * settled); after `stop()` resolves no step runs and none is scheduled; a step that throws never
 * ends the loop (its error goes to `onError`, then the loop waits `delayAfterErrorMs`).
 */

/** A started (or not yet started) {@link backgroundLoop}. */
export type BackgroundLoop = {
  /** Runs the first step now and keeps going; a second call while running does nothing. */
  start: () => void;
  /** Cancels the scheduled step and waits for the one in progress, if any. */
  stop: () => Promise<void>;
};

/**
 * Builds a loop over `step`.
 * @param options.step - one round of work; its result picks the pause after it
 * @param options.delayAfterMs - pause after a step that resolved with `result`, ms
 * @param options.delayAfterErrorMs - pause after a step that threw, ms (read after `onError`)
 * @param options.onError - told of every error a step throws
 * @example const loop = backgroundLoop({ step: tick, delayAfterMs: (n) => (n > 0 ? 0 : 1_000), delayAfterErrorMs: () => 1_000 }); loop.start(); … await loop.stop();
 */
export function backgroundLoop<T>(options: {
  step: () => Promise<T>;
  delayAfterMs: (result: T) => number;
  delayAfterErrorMs: (err: Error) => number;
  onError?: (err: Error) => void;
}): BackgroundLoop {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const next = () => {
    if (!running) return;
    current = options.step().then(
      (result) => {
        if (running) timer = setTimeout(next, options.delayAfterMs(result));
      },
      (err: Error) => {
        options.onError?.(err);
        if (running) timer = setTimeout(next, options.delayAfterErrorMs(err));
      },
    );
  };
  return {
    start: () => {
      if (running) return;
      running = true;
      next();
    },
    stop: async () => {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
}
