/**
 * The read-only handle of the indexer's tables that the API receives (Ponder's `ponder:api` db).
 * Its own module so the query modules can share the type without importing each other.
 */
import type { ReadonlyDrizzle } from "ponder";
import type * as schema from "../ponder.schema";

/** The read-only database handle the API receives (Ponder's `ponder:api` db). */
export type MarketDb = ReadonlyDrizzle<typeof schema>;

/** The rows of a raw `db.execute` result (a bare array or `{ rows }`, depending on the driver). */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  const r = result as { rows?: Record<string, unknown>[] };
  return Array.isArray(r) ? (r as Record<string, unknown>[]) : (r.rows ?? []);
}
