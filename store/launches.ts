/**
 * Launch records and their state transitions (docs/launch.md). Every transition is one
 * conditional `UPDATE … WHERE id = ? AND state IN (…) RETURNING *` (see `src/domain/launchStates.ts`), so
 * concurrent requests (or several API processes on one PostgreSQL store) never both move a launch;
 * the loser gets `null` and re-reads. One on-chain launch has exactly one canonical confirmed record:
 * partial unique indexes on `tx_hash` / `token_address` where `state = 'confirmed'` and
 * `canonical_launch_id` is null make a second canonical confirmation fail with
 * {@link TxAlreadyUsedError}; other records of the same launch (same creator, name, symbol) are
 * confirmed with `canonical_launch_id` pointing at it (docs/launch.md "One launch, one confirmation").
 */
import { and, count, desc, eq, gt, inArray, isNotNull, isNull, lt, min, sql } from "drizzle-orm";
import { TRANSITIONS, type LaunchEvent } from "../src/domain/launchStates";
import { inTransaction, type Store } from "./index";
import { BoundReachedError, LOCK_NAMESPACE, lockOwner } from "./locks";
import { launches } from "./schema";

/** A stored launch. */
export type LaunchRecord = typeof launches.$inferSelect;
/** Fields of a new launch. */
export type NewLaunch = typeof launches.$inferInsert;
/** Columns a transition may set besides `state`. */
export type LaunchPatch = Partial<Omit<NewLaunch, "id" | "state" | "createdAtMs">>;

/** Thrown by {@link transitionLaunch} when the confirmed tx hash or token is already taken. */
export class TxAlreadyUsedError extends Error {
  override readonly name = "TxAlreadyUsedError";
}

/** Inserts a launch (state as given: `intent_created` for intents, `built` for session builds). */
export async function insertLaunch(store: Store, launch: NewLaunch): Promise<void> {
  await store.db.insert(launches).values(launch);
}

/** The launch with this id, or `null`. */
export async function findLaunch(store: Store, id: string): Promise<LaunchRecord | null> {
  return (await store.db.select().from(launches).where(eq(launches.id, id)).limit(1))[0] ?? null;
}

/**
 * Applies `event` to launch `id` when its state allows it (`TRANSITIONS[event].from`), setting
 * `patch` and `updatedAtMs`.
 * @returns the updated row, or `null` when the launch is missing or in another state
 * @throws TxAlreadyUsedError when confirming would reuse a confirmed tx hash or token
 */
export async function transitionLaunch(
  store: Store,
  id: string,
  event: LaunchEvent,
  patch: LaunchPatch,
  nowMs = Date.now(),
): Promise<LaunchRecord | null> {
  const { from, to } = TRANSITIONS[event];
  try {
    const rows = await store.db
      .update(launches)
      .set({ ...patch, state: to, updatedAtMs: nowMs })
      .where(and(eq(launches.id, id), inArray(launches.state, [...from])))
      .returning();
    return rows[0] ?? null;
  } catch (err) {
    if (isUniqueViolation(err))
      throw new TxAlreadyUsedError(`transaction ${patch.txHash ?? ""} already confirmed another launch`);
    throw err;
  }
}

function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown; message?: string } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505" || /duplicate key|unique constraint/i.test(e.message ?? "")) return true;
  }
  return false;
}

/** The canonical confirmed launch record of this transaction hash (any surface), or `null`. */
export async function findConfirmedByTx(store: Store, txHash: string): Promise<LaunchRecord | null> {
  const rows = await store.db
    .select()
    .from(launches)
    .where(
      and(
        eq(launches.txHash, txHash.toLowerCase()),
        eq(launches.state, "confirmed"),
        isNull(launches.canonicalLaunchId),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

/**
 * The newest launch of an API key whose last submitted transaction is `txHash` (a confirmed one
 * first), or `null`.
 */
export async function findKeyLaunchByTx(store: Store, apiKeyId: string, txHash: string): Promise<LaunchRecord | null> {
  const rows = await store.db
    .select()
    .from(launches)
    .where(and(eq(launches.apiKeyId, apiKeyId), eq(launches.txHash, txHash.toLowerCase())))
    .orderBy(sql`(${launches.state} = 'confirmed') desc`, desc(launches.updatedAtMs))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * How long a session build (`surface = session`, state `built`) stays open: 24 hours from its
 * creation, the lifetime of the session that alone can verify it. Older ones are deleted by
 * housekeeping ({@link pruneSessionBuilds}) and no longer count against the per-session bound.
 */
const SESSION_BUILD_TTL_MS = 24 * 60 * 60 * 1000;

const openSessionBuilds = (sessionId: string, nowMs: number) =>
  and(
    eq(launches.surface, "session"),
    eq(launches.sessionId, sessionId),
    eq(launches.state, "built"),
    gt(launches.createdAtMs, nowMs - SESSION_BUILD_TTL_MS),
  );

/**
 * How many open builds (state `built`, younger than {@link SESSION_BUILD_TTL_MS}) a session holds,
 * and when the oldest of them stops counting (unix ms; `null` when none).
 * @example await countOpenSessionBuilds(store, session.id) // { open: 3, freesAtMs: 1795412345000 }
 */
export async function countOpenSessionBuilds(
  store: Store,
  sessionId: string,
  nowMs = Date.now(),
): Promise<{ open: number; freesAtMs: number | null }> {
  const rows = await store.db
    .select({ n: count(), oldest: min(launches.createdAtMs) })
    .from(launches)
    .where(openSessionBuilds(sessionId, nowMs));
  const oldest = rows[0]?.oldest;
  return {
    open: Number(rows[0]?.n ?? 0),
    freesAtMs: oldest === null || oldest === undefined ? null : Number(oldest) + SESSION_BUILD_TTL_MS,
  };
}

/**
 * Inserts a session build unless its session already holds `maxOpen` open builds. Race-free:
 * count and insert run in one transaction under a per-session advisory lock.
 * @param launch - the build row (`surface: "session"`, `sessionId` set, state `built`)
 * @param maxOpen - bound on the session's open builds (docs/trust.md "Limits": 20)
 * @throws BoundReachedError (nothing stored); `retryAtMs` is when the oldest open build expires
 * @throws Error when `launch` is not a session build
 */
export async function insertSessionBuildBounded(
  store: Store,
  launch: NewLaunch,
  maxOpen: number,
  nowMs = Date.now(),
): Promise<void> {
  const sessionId = launch.sessionId;
  if (launch.surface !== "session" || !sessionId) throw new Error("insertSessionBuildBounded: not a session build");
  await inTransaction(store, async (tx) => {
    await lockOwner(tx, LOCK_NAMESPACE.sessionBuilds, sessionId);
    const { open, freesAtMs } = await countOpenSessionBuilds(tx, sessionId, nowMs);
    if (open >= maxOpen) throw new BoundReachedError("open session builds per session", maxOpen, freesAtMs ?? nowMs);
    await tx.db.insert(launches).values(launch);
  });
}

/**
 * Deletes session builds still in state `built` created before `nowMs - SESSION_BUILD_TTL_MS`
 * (housekeeping). Confirmed, failed and v1 launches are never touched.
 * @returns how many were deleted
 */
export async function pruneSessionBuilds(store: Store, nowMs = Date.now()): Promise<number> {
  const deleted = await store.db
    .delete(launches)
    .where(
      and(
        eq(launches.surface, "session"),
        eq(launches.state, "built"),
        lt(launches.createdAtMs, nowMs - SESSION_BUILD_TTL_MS),
      ),
    )
    .returning({ id: launches.id });
  return deleted.length;
}

/** Session builds of `creator` in session `sessionId`, newest first (at most `limit`). */
export async function findSessionBuilds(
  store: Store,
  sessionId: string,
  creator: string,
  limit = 20,
): Promise<LaunchRecord[]> {
  return store.db
    .select()
    .from(launches)
    .where(and(eq(launches.surface, "session"), eq(launches.sessionId, sessionId), eq(launches.creator, creator)))
    .orderBy(desc(launches.createdAtMs))
    .limit(limit);
}

/** Creator metadata of confirmed launches, by checksummed token address. */
export type StoredTokenMetadata = {
  launchId: string;
  description: string | null;
  imageUrl: string | null;
  websiteUrl: string | null;
  twitterUrl: string | null;
  telegramUrl: string | null;
};

/**
 * Metadata of the canonical confirmed launches of `tokens` (checksummed addresses), keyed by lowercase
 * address. One indexed query for a whole page of token records.
 */
export async function confirmedMetadataFor(
  store: Store,
  tokens: readonly string[],
): Promise<Map<string, StoredTokenMetadata>> {
  const out = new Map<string, StoredTokenMetadata>();
  if (tokens.length === 0) return out;
  const rows = await store.db
    .select({
      launchId: launches.id,
      tokenAddress: launches.tokenAddress,
      description: launches.description,
      imageUrl: launches.imageUrl,
      websiteUrl: launches.websiteUrl,
      twitterUrl: launches.twitterUrl,
      telegramUrl: launches.telegramUrl,
    })
    .from(launches)
    .where(
      and(
        eq(launches.state, "confirmed"),
        isNull(launches.canonicalLaunchId),
        isNotNull(launches.tokenAddress),
        inArray(launches.tokenAddress, [...tokens]),
      ),
    );
  for (const { tokenAddress, ...meta } of rows) out.set(tokenAddress!.toLowerCase(), meta);
  return out;
}
