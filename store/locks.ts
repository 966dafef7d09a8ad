/**
 * Transaction-scoped advisory locks: serialise "count, then insert if below a bound" per owner
 * (a wallet's keys, a session's challenges or builds), so concurrent requests — in one process or
 * several sharing a PostgreSQL store — can never exceed the bound. PGlite runs the same SQL.
 */
import { sql } from "drizzle-orm";
import type { Store } from "./index";

/** Lock namespaces (first key of `pg_advisory_xact_lock(int, int)`); the store's migration lock is a separate (bigint) key space. */
export const LOCK_NAMESPACE = {
  /** API key creation per wallet (store/keys.ts). */
  walletKeys: 4663_0004,
  /** Open key challenges per browser session (store/challenges.ts). */
  sessionChallenges: 4663_0005,
  /** Open session builds per browser session (store/launches.ts). */
  sessionBuilds: 4663_0006,
  /** Webhook subscriptions per wallet (store/webhooks.ts). */
  walletWebhooks: 4663_0007,
} as const;

/**
 * Takes the advisory lock `(namespace, hashtext(owner))` until the surrounding transaction ends.
 * Call it first inside `inTransaction`; outside a transaction the lock is released at once.
 * @param tx - a transaction's store (`inTransaction`)
 * @param namespace - one of {@link LOCK_NAMESPACE}
 * @param owner - what the bound is per (a checksummed wallet, a session id)
 * @example await inTransaction(store, async (tx) => { await lockOwner(tx, LOCK_NAMESPACE.walletKeys, wallet); … })
 */
export async function lockOwner(tx: Store, namespace: number, owner: string): Promise<void> {
  await tx.db.execute(sql`select pg_advisory_xact_lock(${namespace}, hashtext(${owner}))`);
}

/**
 * Thrown by a bounded insert when the owner already holds `limit` open items; nothing was stored.
 * `retryAfterMs` is when the oldest open item expires (the bound frees a slot then).
 */
export class BoundReachedError extends Error {
  override readonly name = "BoundReachedError";
  constructor(
    /** What is bounded, e.g. `open key challenges per session`. */
    readonly what: string,
    readonly limit: number,
    /** Unix ms when a slot frees up (the oldest open item expires). */
    readonly retryAtMs: number,
  ) {
    super(`at most ${limit} ${what}`);
  }
}
