/**
 * Schema-qualified names of Ponder's tables for raw SQL in the API (a raw `FROM candle`
 * read an empty `TEMP TABLE "candle"` that Ponder's cache flush creates in the session the API
 * shares on PGlite; a temporary table shadows every unqualified name).
 *
 * Rule: raw `sql` templates never spell a Ponder table name. Onchain tables are interpolated as
 * drizzle table objects from `ponder.schema.ts` (`sql\`… FROM ${schema.candle} …\``): inside the
 * running service Ponder builds them with its namespace schema, so drizzle renders
 * `"<schema>"."candle"`. Ponder's own tables (`_ponder_checkpoint`) have no public table object;
 * {@link ponderInternalTable} qualifies them with the same schema, read with drizzle's
 * `getTableConfig` exactly as Ponder's own flush code does. `market/ponderTables.test.ts`
 * scans the API's sources and fails on an unqualified name.
 */
import { sql, type SQL } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/pg-core";
import * as schema from "../ponder.schema";

/**
 * The database schema Ponder's tables live in for this process: the namespace Ponder built
 * `ponder.schema.ts` with (`--schema` / `DATABASE_SCHEMA`), or undefined outside Ponder (tests
 * that open the tables with their own `search_path`).
 * @example ponderSchemaName() // "e2e_public" inside `ponder start --schema e2e_public`
 */
function ponderSchemaName(): string | undefined {
  return getTableConfig(schema.token).schema;
}

/** Ponder's internal tables the API reads. */
export type PonderInternalTable = "_ponder_checkpoint";

/**
 * A schema-qualified SQL identifier for one of Ponder's internal tables.
 * @param name - the table name
 * @returns `"<schema>"."<name>"` (just `"<name>"` when {@link ponderSchemaName} is undefined)
 * @example sql`SELECT latest_checkpoint FROM ${ponderInternalTable("_ponder_checkpoint")}` // … FROM "e2e_public"."_ponder_checkpoint"
 */
export function ponderInternalTable(name: PonderInternalTable): SQL {
  const schemaName = ponderSchemaName();
  return schemaName === undefined
    ? sql`${sql.identifier(name)}`
    : sql`${sql.identifier(schemaName)}.${sql.identifier(name)}`;
}
