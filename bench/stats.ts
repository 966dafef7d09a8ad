/** Small statistics for benchmark reports. */

/**
 * The q-quantile (0..1) of `values` by the nearest-rank method; `null` for an empty list.
 * @example percentile([1, 2, 3, 4], 0.5) // 2
 */
export function percentile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1]!;
}

/** Arithmetic mean; `null` for an empty list. */
export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}
