/**
 * A small deterministic pseudo-random generator (mulberry32) for reproducible demo activity.
 */

/** A seeded random source. */
export type Random = {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
};

/**
 * Creates a deterministic random source: the same seed yields the same sequence.
 * @param seed Any 32-bit integer.
 * @returns The random source.
 * @throws {RangeError} From `pick` when the array is empty.
 * @example
 * const r = createRandom(42);
 * r.int(1, 6); // => the same number on every run
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError("pick from an empty array");
      return items[Math.floor(next() * items.length)] as T;
    },
  };
}
