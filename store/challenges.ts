/**
 * One-time wallet challenges of the browser key flow: issued to a session for a wallet, consumed
 * at most once (atomic conditional update), valid for {@link CHALLENGE_TTL_MS}.
 */
import { and, count, desc, eq, gt, isNull, lt, min } from "drizzle-orm";
import { inTransaction, type Store } from "./index";
import { BoundReachedError, LOCK_NAMESPACE, lockOwner } from "./locks";
import { keyChallenges } from "./schema";

/** A challenge may be signed for 5 minutes. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** A stored challenge. */
export type ChallengeRecord = typeof keyChallenges.$inferSelect;

/**
 * Stores a new challenge unless its session already holds `maxOpen` open ones (not consumed, not
 * expired at `nowMs`). Race-free: count and insert run under a per-session advisory lock.
 * @param maxOpen - bound on the session's open challenges (docs/trust.md "Limits": 5)
 * @throws BoundReachedError (nothing stored); `retryAtMs` is when the oldest open one expires
 * @example await insertChallengeBounded(store, row, 5) // resolves, or throws at the 6th open challenge
 */
export async function insertChallengeBounded(
  store: Store,
  row: typeof keyChallenges.$inferInsert,
  maxOpen: number,
  nowMs = Date.now(),
): Promise<void> {
  await inTransaction(store, async (tx) => {
    await lockOwner(tx, LOCK_NAMESPACE.sessionChallenges, row.sessionId);
    const open = await tx.db
      .select({ n: count(), oldestExpiry: min(keyChallenges.expiresAtMs) })
      .from(keyChallenges)
      .where(
        and(
          eq(keyChallenges.sessionId, row.sessionId),
          isNull(keyChallenges.consumedAtMs),
          gt(keyChallenges.expiresAtMs, nowMs),
        ),
      );
    if (Number(open[0]?.n ?? 0) >= maxOpen) {
      throw new BoundReachedError("open key challenges per session", maxOpen, Number(open[0]?.oldestExpiry ?? nowMs));
    }
    await tx.db.insert(keyChallenges).values(row);
  });
}

/** Deletes challenges that expired before `nowMs`, used or not (housekeeping). */
export async function pruneChallenges(store: Store, nowMs = Date.now()): Promise<void> {
  await store.db.delete(keyChallenges).where(lt(keyChallenges.expiresAtMs, nowMs));
}

/**
 * Consumes the newest open challenge of `(session, wallet)`: marks it used and returns it, so a
 * second attempt (replay) finds nothing. Concurrent attempts: exactly one wins.
 * @returns the challenge, or `null` when none is open (expired, used or never issued)
 */
export async function consumeChallenge(
  store: Store,
  sessionId: string,
  wallet: string,
  nowMs = Date.now(),
): Promise<ChallengeRecord | null> {
  const open = and(
    eq(keyChallenges.sessionId, sessionId),
    eq(keyChallenges.wallet, wallet),
    isNull(keyChallenges.consumedAtMs),
    gt(keyChallenges.expiresAtMs, nowMs),
  );
  const candidate = (
    await store.db.select().from(keyChallenges).where(open).orderBy(desc(keyChallenges.issuedAtMs)).limit(1)
  )[0];
  if (!candidate) return null;
  const taken = await store.db
    .update(keyChallenges)
    .set({ consumedAtMs: nowMs })
    .where(and(eq(keyChallenges.nonce, candidate.nonce), isNull(keyChallenges.consumedAtMs)))
    .returning();
  return taken[0] ?? null;
}
