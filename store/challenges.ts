/**
 * One-time wallet challenges of the browser key flow: issued to a session for a wallet, consumed
 * at most once (atomic conditional update), valid for {@link CHALLENGE_TTL_MS}.
 */
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Store } from "./index";
import { keyChallenges } from "./schema";

/** A challenge may be signed for 5 minutes. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** A stored challenge. */
export type ChallengeRecord = typeof keyChallenges.$inferSelect;

/** Stores a new challenge. */
export async function insertChallenge(store: Store, row: typeof keyChallenges.$inferInsert): Promise<void> {
  await store.db.insert(keyChallenges).values(row);
}

/**
 * Consumes the newest open challenge of `(session, wallet)`: marks it used and returns it, so a
 * second attempt (replay) finds nothing. Concurrent attempts: exactly one wins.
 * @returns the challenge, or `null` when none is open (expired, used or never issued)
 */
export async function consumeChallenge(store: Store, sessionId: string, wallet: string, nowMs = Date.now()): Promise<ChallengeRecord | null> {
  const open = and(eq(keyChallenges.sessionId, sessionId), eq(keyChallenges.wallet, wallet), isNull(keyChallenges.consumedAtMs), gt(keyChallenges.expiresAtMs, nowMs));
  const candidate = (await store.db.select().from(keyChallenges).where(open).orderBy(desc(keyChallenges.issuedAtMs)).limit(1))[0];
  if (!candidate) return null;
  const taken = await store.db
    .update(keyChallenges)
    .set({ consumedAtMs: nowMs })
    .where(and(eq(keyChallenges.nonce, candidate.nonce), isNull(keyChallenges.consumedAtMs)))
    .returning();
  return taken[0] ?? null;
}
