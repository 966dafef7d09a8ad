/**
 * `npm start` checks each configured dependency before it starts the service, so that a dead RPC
 * or an unreachable database is one plain line naming the setting within seconds, instead of
 * minutes of the service's retry lines ending in a stack trace (docs/operations.md "Start and
 * stop"): the RPC answers `eth_chainId` with the configured chain id; `DATABASE_URL` accepts a
 * connection and its user may create the service's schemas. Each check has the deadline
 * `START_DEPENDENCY_TIMEOUT_MS`; the checks run side by side.
 */
import pg from "pg";
import { createPublicClient, http } from "viem";
import type { Env } from "../config/env";

/** What to check; an absent setting is not checked. */
export type Dependencies = {
  /** JSON-RPC URL and the chain id it must answer (`RPC_URL`, `CHAIN_ID`). */
  rpc?: { url: string; chainId: number; setting: string };
  /** PostgreSQL URL and the schemas the service creates or uses (`DATABASE_URL`). */
  database?: { url: string; schemas: string[] };
  /** Deadline of each check, ms (`START_DEPENDENCY_TIMEOUT_MS`). */
  timeoutMs: number;
};

/** Rejects with `message` after `ms` unless `work` settles first. */
async function within<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The RPC's problem, or `undefined`. The URL is shown without credentials or path. */
async function checkRpc(rpc: NonNullable<Dependencies["rpc"]>, timeoutMs: number): Promise<string | undefined> {
  const shown = (() => {
    try {
      return new URL(rpc.url).origin;
    } catch {
      return "the URL";
    }
  })();
  const client = createPublicClient({ transport: http(rpc.url, { retryCount: 0, timeout: timeoutMs }) });
  try {
    const id = await within(client.getChainId(), timeoutMs, `no answer within ${timeoutMs} ms`);
    if (id !== rpc.chainId)
      return `${rpc.setting}: ${shown} answers chain id ${id}, expected ${rpc.chainId} (CHAIN_ID)`;
    return undefined;
  } catch (err) {
    const reason = (err as { shortMessage?: string }).shortMessage ?? (err as Error).message;
    return `${rpc.setting}: ${shown} cannot be reached (${reason.split("\n")[0]}; START_DEPENDENCY_TIMEOUT_MS=${timeoutMs})`;
  }
}

/** The database's problem, or `undefined`. The URL (it may hold a password) is never shown. */
async function checkDatabase(
  database: NonNullable<Dependencies["database"]>,
  timeoutMs: number,
): Promise<string | undefined> {
  const client = new pg.Client({
    connectionString: database.url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  client.on("error", () => {}); // a connection lost after the check: reported by the check itself
  try {
    await within(client.connect(), timeoutMs, `no connection within ${timeoutMs} ms`);
    const denied: string[] = [];
    for (const schema of database.schemas) {
      const { rows } = await within(
        client.query<{ ok: boolean }>(
          `select case when exists (select 1 from pg_namespace where nspname = $1)
             then has_schema_privilege($1, 'CREATE') and has_schema_privilege($1, 'USAGE')
             else has_database_privilege(current_database(), 'CREATE') end as ok`,
          [schema],
        ),
        timeoutMs,
        `no answer within ${timeoutMs} ms`,
      );
      if (!rows[0]?.ok) denied.push(schema);
    }
    if (denied.length > 0)
      return `DATABASE_URL: the user may not create tables in schema ${denied.join(", ")} (grant CREATE and USAGE on it, or CREATE on the database)`;
    return undefined;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return `DATABASE_URL: the database cannot be reached (${e.code ? `${e.code}: ` : ""}${e.message.split("\n")[0]}; START_DEPENDENCY_TIMEOUT_MS=${timeoutMs})`;
  } finally {
    void client.end().catch(() => {});
  }
}

/**
 * Checks every configured dependency, side by side, each within `timeoutMs`.
 * @param deps - the RPC and the database to check (absent: not checked)
 * @returns one line per problem, each naming its setting (empty: all fine), e.g.
 *   `RPC_URL: http://127.0.0.1:1 cannot be reached (HTTP request failed.; START_DEPENDENCY_TIMEOUT_MS=10000)`
 * @example await checkDependencies({ rpc: { url, chainId: 4663, setting: "RPC_URL" }, timeoutMs: 10_000 }) // []
 */
export async function checkDependencies(deps: Dependencies): Promise<string[]> {
  const results = await Promise.all([
    deps.rpc ? checkRpc(deps.rpc, deps.timeoutMs) : undefined,
    deps.database ? checkDatabase(deps.database, deps.timeoutMs) : undefined,
  ]);
  return results.filter((r): r is string => r !== undefined);
}

/** Thrown when a configured dependency fails its check; the message is one line per problem. */
export class DependencyError extends Error {
  override name = "DependencyError" as const;
}

/** The settings {@link checkConfiguredDependencies} reads. */
type DependencySettings = Pick<
  Env,
  "RPC_URL" | "CHAIN_ID" | "DATABASE_URL" | "DATABASE_SCHEMA" | "STORE_SCHEMA" | "START_DEPENDENCY_TIMEOUT_MS"
>;

/**
 * Checks the configured RPC (production, i.e. `LAUNCH_FACTORY_ADDRESS` set: `RPC_URL` answers
 * `CHAIN_ID`) and `DATABASE_URL` (connect, schema permission) within `START_DEPENDENCY_TIMEOUT_MS`,
 * announcing what it checks through `step`. Nothing configured: nothing checked.
 * @throws {DependencyError} with one line per problem, each naming its setting
 */
export async function checkConfiguredDependencies(
  env: DependencySettings,
  step: (message: string) => void,
  production = Boolean(process.env.LAUNCH_FACTORY_ADDRESS),
): Promise<void> {
  const rpc = production && env.RPC_URL ? { url: env.RPC_URL, chainId: env.CHAIN_ID, setting: "RPC_URL" } : undefined;
  const database = env.DATABASE_URL
    ? { url: env.DATABASE_URL, schemas: [env.DATABASE_SCHEMA, env.STORE_SCHEMA] }
    : undefined;
  if (!rpc && !database) return;
  const what = [rpc && `RPC_URL (chain id ${env.CHAIN_ID})`, database && "DATABASE_URL (connect, schema permission)"];
  step(
    `checking ${what.filter(Boolean).join(" and ")}, up to ${env.START_DEPENDENCY_TIMEOUT_MS} ms (START_DEPENDENCY_TIMEOUT_MS)`,
  );
  const problems = await checkDependencies({ rpc, database, timeoutMs: env.START_DEPENDENCY_TIMEOUT_MS });
  if (problems.length > 0)
    throw new DependencyError(
      `cannot start (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n  ${problems.join("\n  ")}`,
    );
}
