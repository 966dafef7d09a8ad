/**
 * The read-only handle of the indexer's tables that the API receives (Ponder's `ponder:api` db).
 * Its own module so the query modules can share the type without importing each other.
 */
import type { ReadonlyDrizzle } from "ponder";
import type * as schema from "../../ponder.schema";

/** The read-only database handle the API receives (Ponder's `ponder:api` db). */
export type MarketDb = ReadonlyDrizzle<typeof schema>;
