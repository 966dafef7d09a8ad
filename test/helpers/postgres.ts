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

/** A database of its own on the test server, for one devnet run. */
export type DevnetDatabase = { name: string; url: string; drop: () => Promise<void> };

/**
 * Creates an empty database on the test server for one devnet run of the service.
 *
 * Why not just a schema: Ponder keeps the raw chain data it fetched (`ponder_sync`) per database,
 * keyed by chain id and block number. Every devnet is chain 4663 with a different history, so two
 * devnet runs in one database read each other's logs (a token launched in another run appears in
 * this one). Production has one chain and never needs this.
 * @param prefix - name prefix (the name is made unique, at most 63 characters)
 * @returns its name, connection string, and `drop()` (terminates its connections first)
 */
export async function createDevnetDatabase(prefix: string): Promise<DevnetDatabase> {
  const name = uniqueSchemaName(prefix).replace(/[^a-z0-9_]/g, "_");
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
