/**
 * The local PostgreSQL used by PostgreSQL-mode tests (`TEST_DATABASE_URL`, default
 * `postgresql://postgres@127.0.0.1:5432/test`). Tests call {@link postgresAvailable} and skip that mode with
 * a visible reason when the server is down; `.ci/run` starts it.
 */
import pg from "pg";

/** Connection string of the test database. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

let cached: Promise<boolean> | undefined;

/** Whether the test PostgreSQL accepts connections (checked once per test file). */
export function postgresAvailable(): Promise<boolean> {
  cached ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query("select 1");
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return cached;
}

/** A schema name unique to this process and moment, at most 45 characters (Ponder's limit). */
export function uniqueSchemaName(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}`.slice(0, 45).toLowerCase();
}

/** Drops `schema` (and everything in it) from the test database. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema.replaceAll('"', '""')}" cascade`);
  } finally {
    await client.end();
  }
}
