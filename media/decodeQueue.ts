/**
 * A bounded queue for image decodes.
 *
 * A 16-megapixel WebP takes about 2 s of CPU to decode and re-encode (docs/media.md). Without a
 * bound, 12 concurrent uploads pinned both cores for 28 s, and valid images ran out of sharp's
 * time limit. {@link decodeQueue} runs at most `concurrency` decodes at once, lets at most
 * `maxQueued` more wait, each for at most `maxWaitMs`; anything beyond is refused at once with a
 * {@link DecodeOverloadedError}, which the upload route answers with 503 `image_processing_busy`
 * and `Retry-After` (the server is busy; the image is not at fault).
 *
 * Hand-written because it is small and the project has no queue dependency (`p-limit` bounds
 * concurrency but neither the queue nor the wait; `p-queue` would, and can replace this without
 * changing callers). Numbers: docs/trust.md "Media upload", docs/operations.md "Uploads".
 */
import { availableParallelism } from "node:os";

/** Why a decode was not run. */
export type OverloadReason =
  /** `maxQueued` decodes were already waiting. */
  | "queue_full"
  /** The decode waited `maxWaitMs` without a free slot. */
  | "wait_timeout"
  /** sharp's own time limit on one decode ran out (a busy machine, not a bad image). */
  | "decode_timeout";

/**
 * The server has no capacity for this decode now; retrying later may succeed. `retryAfterSec`
 * is what the route sends as `Retry-After`.
 */
export class DecodeOverloadedError extends Error {
  override readonly name = "DecodeOverloadedError" as const;
  constructor(
    readonly reason: OverloadReason,
    readonly retryAfterSec: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Bounds of a {@link decodeQueue}. */
export type DecodeQueueOptions = {
  /** Decodes running at once (default: one per core, `os.availableParallelism()`). */
  concurrency?: number;
  /** Decodes allowed to wait for a slot (default: two per slot). */
  maxQueued?: number;
  /** Longest wait for a slot, in milliseconds (default 10,000). */
  maxWaitMs?: number;
  /** `Retry-After` in seconds sent with an overload (default 2: about one large decode). */
  retryAfterSec?: number;
};

/** The default bounds (docs/trust.md "Media upload"). */
export const DECODE_QUEUE_DEFAULTS = {
  maxQueuedPerSlot: 2,
  maxWaitMs: 10_000,
  retryAfterSec: 2,
} as const;

/** A running queue. */
export type DecodeQueue = {
  /**
   * Runs `task` when a slot is free and returns its result (or rethrows its error).
   * @throws DecodeOverloadedError `queue_full` at once when `maxQueued` tasks already wait;
   *   `wait_timeout` when no slot was free within `maxWaitMs`
   */
  run: <T>(task: () => Promise<T>) => Promise<T>;
  /** Tasks running now. */
  active: () => number;
  /** Tasks waiting now. */
  queued: () => number;
  /** The effective bounds. */
  readonly bounds: Readonly<Required<DecodeQueueOptions>>;
};

/**
 * Builds a bounded decode queue (FIFO).
 *
 * @param options - concurrency, queue length, wait in milliseconds, `Retry-After` seconds
 * @returns the queue
 * @throws RangeError when a bound is not a positive integer (`maxQueued` may be 0)
 * @example
 * const queue = decodeQueue({ concurrency: 2, maxQueued: 4, maxWaitMs: 10_000 });
 * const image = await queue.run(() => sharp(input).webp().toBuffer());
 */
export function decodeQueue(options: DecodeQueueOptions = {}): DecodeQueue {
  const concurrency = options.concurrency ?? Math.max(1, availableParallelism());
  const bounds = {
    concurrency,
    maxQueued: options.maxQueued ?? concurrency * DECODE_QUEUE_DEFAULTS.maxQueuedPerSlot,
    maxWaitMs: options.maxWaitMs ?? DECODE_QUEUE_DEFAULTS.maxWaitMs,
    retryAfterSec: options.retryAfterSec ?? DECODE_QUEUE_DEFAULTS.retryAfterSec,
  };
  for (const [name, value] of Object.entries(bounds)) {
    const min = name === "maxQueued" ? 0 : 1;
    if (!Number.isInteger(value) || value < min)
      throw new RangeError(`decodeQueue: ${name} must be an integer >= ${min}, got ${value}`);
  }
  let running = 0;
  // Waiters in arrival order; each resolves when handed a slot.
  const waiting: Array<{ start: () => void; timer: NodeJS.Timeout }> = [];

  const release = () => {
    const next = waiting.shift();
    if (next) {
      clearTimeout(next.timer);
      next.start(); // the slot passes straight to the next waiter
    } else running--;
  };

  const acquire = (): Promise<void> => {
    if (running < bounds.concurrency) {
      running++;
      return Promise.resolve();
    }
    if (waiting.length >= bounds.maxQueued) {
      return Promise.reject(
        new DecodeOverloadedError(
          "queue_full",
          bounds.retryAfterSec,
          `image processing is at capacity (${bounds.concurrency} running, ${bounds.maxQueued} waiting)`,
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        start: resolve,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(
            new DecodeOverloadedError(
              "wait_timeout",
              bounds.retryAfterSec,
              `no image processing slot was free within ${bounds.maxWaitMs} ms`,
            ),
          );
        }, bounds.maxWaitMs),
      };
      waiting.push(waiter);
    });
  };

  return {
    bounds,
    active: () => running,
    queued: () => waiting.length,
    run: async (task) => {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
