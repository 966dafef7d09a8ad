/**
 * Bounded waits: an answer must come within a bound even when a dependency (the RPC, the
 * database) hangs. Its own module so the probes and the metrics share it without importing each
 * other.
 */

/** Upper bound of one source's answer (a metrics scrape's, a health probe's), milliseconds. */
export const SOURCE_TIMEOUT_MS = 2_000;

/**
 * Rejects with "timed out after {ms} ms" unless `promise` settles first (the work itself goes on).
 * Used wherever an answer must come within a bound even when a dependency hangs.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}
