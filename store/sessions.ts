/**
 * Browser sessions (session surface). The cookie carries 32 random bytes (base64url); the store
 * keeps only their SHA-256 as the row id, plus the session's CSRF secret (`csrf` package).
 */
import { createHash, randomBytes } from "node:crypto";
import Tokens from "csrf";
import { and, eq, gt, lt } from "drizzle-orm";
import { inTransaction, type Store } from "./index";
import { launches, sessions } from "./schema";

/** Session lifetime: 24 hours from creation (absolute). */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** A live session; `wallet` is the wallet it proved with Sign-In with Ethereum, or null. */
export type SessionRecord = typeof sessions.$inferSelect;

const tokens = new Tokens();

/** SHA-256 (hex) of a cookie value: the session's id in the store. */
function sessionIdOf(cookieValue: string): string {
  return createHash("sha256").update(cookieValue, "utf8").digest("hex");
}

/**
 * Creates a session.
 * @returns the cookie value (send it once, in `Set-Cookie`) and the record
 */
export async function createSession(
  store: Store,
  nowMs = Date.now(),
): Promise<{ cookieValue: string; session: SessionRecord }> {
  const cookieValue = randomBytes(32).toString("base64url");
  const session: SessionRecord = {
    id: sessionIdOf(cookieValue),
    csrfSecret: tokens.secretSync(),
    createdAtMs: nowMs,
    expiresAtMs: nowMs + SESSION_TTL_MS,
    wallet: null,
    signedInAtMs: null,
  };
  await store.db.insert(sessions).values(session);
  return { cookieValue, session };
}

/** The live session of a cookie value, or `null` (unknown, malformed or expired). */
export async function findSession(
  store: Store,
  cookieValue: string | undefined,
  nowMs = Date.now(),
): Promise<SessionRecord | null> {
  if (!cookieValue || !/^[A-Za-z0-9_-]{43}$/.test(cookieValue)) return null;
  const rows = await store.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, sessionIdOf(cookieValue)), gt(sessions.expiresAtMs, nowMs)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * A stable, non-secret identifier of a browser session across its sign-in rotations (the row id
 * changes with each sign-in; the CSRF secret moves along): SHA-256 (hex) of the CSRF secret, so
 * per-session budgets (keys created per hour) cannot be reset by signing in again.
 * @example sessionLineageId(session) // "3f9c…" (64 hex characters)
 */
export function sessionLineageId(session: Pick<SessionRecord, "csrfSecret">): string {
  return createHash("sha256").update(`lineage:${session.csrfSecret}`, "utf8").digest("hex");
}

/** A fresh CSRF token for the session (many tokens per secret are valid at once). */
export function createCsrfToken(session: SessionRecord): string {
  return tokens.create(session.csrfSecret);
}

/** Whether `token` was derived from this session's secret. */
export function verifyCsrfToken(session: SessionRecord, token: string): boolean {
  return tokens.verify(session.csrfSecret, token);
}

/** Deletes sessions that expired before `nowMs` (housekeeping). */
export async function pruneSessions(store: Store, nowMs = Date.now()): Promise<void> {
  await store.db.delete(sessions).where(lt(sessions.expiresAtMs, nowMs));
}

/**
 * Records that a session proved control of `wallet` (a verified Sign-In with Ethereum signature)
 * and rotates its identifier: the old cookie stops working and a new one is issued, so a cookie
 * known before the sign-in (session fixation) never carries the proven wallet. The CSRF secret,
 * the expiry and this session's launch builds move to the new identifier in one transaction.
 * @returns the new cookie value (send it in `Set-Cookie`) and the signed-in record, or `null`
 *   when the session expired or was already rotated by a concurrent sign-in
 */
export async function signInSession(
  store: Store,
  session: SessionRecord,
  wallet: string,
  nowMs = Date.now(),
): Promise<{ cookieValue: string; session: SessionRecord } | null> {
  const cookieValue = randomBytes(32).toString("base64url");
  const next: SessionRecord = { ...session, id: sessionIdOf(cookieValue), wallet, signedInAtMs: nowMs };
  return inTransaction(store, async (tx) => {
    const removed = await tx.db
      .delete(sessions)
      .where(and(eq(sessions.id, session.id), gt(sessions.expiresAtMs, nowMs)))
      .returning({ id: sessions.id });
    if (removed.length === 0) return null;
    await tx.db.insert(sessions).values(next);
    await tx.db.update(launches).set({ sessionId: next.id }).where(eq(launches.sessionId, session.id));
    return { cookieValue, session: next };
  });
}

/** Forgets the wallet a session proved (sign-out); the session and its CSRF secret stay. */
export async function signOutSession(store: Store, sessionId: string): Promise<void> {
  await store.db.update(sessions).set({ wallet: null, signedInAtMs: null }).where(eq(sessions.id, sessionId));
}
