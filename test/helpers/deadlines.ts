/**
 * Test deadlines on the real clock, scaled for the machine: `TEST_TIMEOUT_SCALE` (a number >= 1,
 * default 2) multiplies every deadline a test or hook sets. The default 2 is for the suite as
 * `npm test` runs it: up to `TEST_MAX_FORKS` files at once on 2 shared cores (vitest.config.ts);
 * a slower or busier CI machine raises it instead of editing tests. A deadline only bounds how
 * long a hung test waits before it fails; it never makes a passing test slower.
 */

/** Default of `TEST_TIMEOUT_SCALE`. */
export const DEFAULT_TIMEOUT_SCALE = 2;

/**
 * The deadline scale from the environment.
 * @param env - environment to read (default `process.env`)
 * @returns `TEST_TIMEOUT_SCALE`, or {@link DEFAULT_TIMEOUT_SCALE} when unset or empty
 * @throws Error naming the variable when it is not a number >= 1
 * @example timeoutScale({ TEST_TIMEOUT_SCALE: "3" }) // 3
 */
export function timeoutScale(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.TEST_TIMEOUT_SCALE;
  if (raw === undefined || raw === "") return DEFAULT_TIMEOUT_SCALE;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 1) throw new Error(`TEST_TIMEOUT_SCALE must be a number >= 1, got "${raw}"`);
  return value;
}

/**
 * A deadline in milliseconds, scaled by {@link timeoutScale}.
 * @param ms - the deadline on an idle machine running one file, in milliseconds
 * @returns `ms * TEST_TIMEOUT_SCALE`, rounded
 * @example scaledMs(240_000) // 480000 with the default scale 2
 */
export function scaledMs(ms: number): number {
  return Math.round(ms * timeoutScale());
}
