/**
 * Browser sessions (session surface). The cookie carries 32 random bytes (base64url); the store
 * keeps only their SHA-256 as the row id, plus the session's CSRF secret (`csrf` package).
 */
import { createHash, randomBytes } from "node:crypto";
import Tokens from "csrf";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Store } from "./index";
import { sessions } from "./schema";

/** Session lifetime: 24 hours from creation (absolute). */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** A live session. */
export type SessionRecord = { id: string; csrfSecret: string; createdAtMs: number; expiresAtMs: number };

const tokens = new Tokens();

/** SHA-256 (hex) of a cookie value: the session's id in the store. */
export function sessionIdOf(cookieValue: string): string {
  return createHash("sha256").update(cookieValue, "utf8").digest("hex");
}

/**
 * Creates a session.
 * @returns the cookie value (send it once, in `Set-Cookie`) and the record
 */
export async function createSession(store: Store, nowMs = Date.now()): Promise<{ cookieValue: string; session: SessionRecord }> {
  const cookieValue = randomBytes(32).toString("base64url");
  const session = { id: sessionIdOf(cookieValue), csrfSecret: tokens.secretSync(), createdAtMs: nowMs, expiresAtMs: nowMs + SESSION_TTL_MS };
  await store.db.insert(sessions).values(session);
  return { cookieValue, session };
}

/** The live session of a cookie value, or `null` (unknown, malformed or expired). */
export async function findSession(store: Store, cookieValue: string | undefined, nowMs = Date.now()): Promise<SessionRecord | null> {
  if (!cookieValue || !/^[A-Za-z0-9_-]{43}$/.test(cookieValue)) return null;
  const rows = await store.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, sessionIdOf(cookieValue)), gt(sessions.expiresAtMs, nowMs)))
    .limit(1);
  return rows[0] ?? null;
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
