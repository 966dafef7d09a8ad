/**
 * Session cookie and CSRF protection for the session surface (spec: Authentication 7, session
 * surface: "Every POST sends the current same-origin CSRF token both in header `X-CSRF-Token`
 * and in body field `csrf_token`").
 *
 * Reusable by every session POST (key creation, launch build/verify, rewards claim):
 *
 * ```ts
 * router.post("/build-direct-v3-launch", requireCsrf(csrfOptions), async (c) => {
 *   const session = c.get("session")!; // the verified session
 *   const body = await jsonBodyOf(c);   // already read and checked by the guard
 * })
 * ```
 *
 * Cookie: `__Host-session` (Secure) or `session` on localhost/127.0.0.1 (plain HTTP), HttpOnly,
 * SameSite=Strict, Path=/, 24 h. CSRF tokens come from the `csrf` package, derived from a secret
 * stored with the session (a token of another session never verifies).
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { timingSafeEqual } from "node:crypto";
import type { Store } from "../../store/index";
import { createSession, findSession, SESSION_TTL_MS, verifyCsrfToken, type SessionRecord } from "../../store/sessions";
import { ApiError } from "../errors";
import type { TrustEnv } from "../middleware/context";
import { jsonBodyOf } from "../middleware/jsonBody";

/** Cookie name over HTTPS (the `__Host-` prefix pins it to this host, Secure, Path=/). */
export const SECURE_SESSION_COOKIE = "__Host-session";
/** Cookie name on plain-HTTP localhost. */
export const LOCAL_SESSION_COOKIE = "session";
/** Request header carrying the CSRF token. */
const CSRF_HEADER = "X-CSRF-Token";

/** Options shared by the session middleware. */
export type SessionOptions = {
  getStore: () => Promise<Store>;
  /** Origins accepted besides the request's own (e.g. the public base URL behind a proxy). */
  allowedOrigins: string[];
};

function isLocalHost(hostname: string): boolean {
  return (
    hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]" || hostname.endsWith(".localhost")
  );
}

/** Whether cookies must be `Secure` for this request (everything but localhost/127.0.0.1). */
function cookieIsSecure(c: Context): boolean {
  return !isLocalHost(new URL(c.req.url).hostname);
}

function readCookie(c: Context): string | undefined {
  return getCookie(c, cookieIsSecure(c) ? SECURE_SESSION_COOKIE : LOCAL_SESSION_COOKIE);
}

/**
 * The request's session, creating one (and setting the cookie) when there is none or it expired.
 * Used by `GET /api/evm/evmchain/session`.
 * @param options.beforeCreate - runs before a new session is stored (e.g. the per-IP bound on new
 *   sessions); what it throws leaves the request without a session
 * @returns the live session
 */
export async function loadOrCreateSession(
  c: Context<TrustEnv>,
  getStore: () => Promise<Store>,
  options: { beforeCreate?: (store: Store) => Promise<void> } = {},
): Promise<SessionRecord> {
  const store = await getStore();
  const existing = await findSession(store, readCookie(c));
  if (existing) return existing;
  await options.beforeCreate?.(store);
  const { cookieValue, session } = await createSession(store);
  setSessionCookie(c, cookieValue, session.expiresAtMs);
  return session;
}

/**
 * Sets the session cookie (HttpOnly, SameSite=Strict, Secure except on localhost) to `cookieValue`,
 * living until `expiresAtMs` (unix ms). Used when a session is created and when sign-in rotates it.
 */
export function setSessionCookie(c: Context, cookieValue: string, expiresAtMs: number): void {
  const secure = cookieIsSecure(c);
  setCookie(c, secure ? SECURE_SESSION_COOKIE : LOCAL_SESSION_COOKIE, cookieValue, {
    httpOnly: true,
    sameSite: "Strict",
    secure,
    path: "/",
    maxAge: Math.max(0, Math.min(Math.floor(SESSION_TTL_MS / 1000), Math.ceil((expiresAtMs - Date.now()) / 1000))),
  });
}

/**
 * The wallet a CSRF-checked session request acts for: passes only when the session (set on the
 * context by {@link requireCsrf}) proved control of `wallet` with Sign-In with Ethereum.
 * @throws ApiError 403 `sign_in_required` (no wallet proven), 403 `wallet_mismatch` (another wallet)
 */
export function assertSessionWallet(c: Context<TrustEnv>, wallet: string, field = "creator"): void {
  const session = c.get("session");
  if (!session?.wallet) {
    throw new ApiError(
      "sign_in_required",
      "sign in with this wallet first: POST /api/evm/evmchain/sign-in/challenge, sign the message, POST /api/evm/evmchain/sign-in",
    );
  }
  if (session.wallet.toLowerCase() !== wallet.toLowerCase()) {
    throw new ApiError(
      "wallet_mismatch",
      `${field} ${wallet} is not the wallet this session signed in with (${session.wallet})`,
    );
  }
}

function sameOrigin(c: Context, allowed: string[]): boolean {
  const origin = c.req.header("Origin");
  if (origin !== undefined) {
    if (origin === "null") return false;
    return origin === new URL(c.req.url).origin || allowed.includes(origin);
  }
  // No Origin (older browsers on same-origin requests): rely on Fetch Metadata.
  return c.req.header("Sec-Fetch-Site") === "same-origin";
}

function equalStrings(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Guards a state-changing session request. Passes only when all hold, otherwise 403
 * `csrf_failed` before the handler runs (nothing changes):
 * 1. same origin: `Origin` equals the request's origin or an allowed origin; without `Origin`,
 *    `Sec-Fetch-Site: same-origin`;
 * 2. `Content-Type: application/json` and a JSON object body;
 * 3. a live session cookie;
 * 4. `X-CSRF-Token` and body `csrf_token` both present, equal, and valid for that session.
 * Steps 1 and 3 and the header token are checked before the body is read. Sets `session` on the
 * context; the parsed body stays available through `jsonBodyOf(c)`.
 */
export function requireCsrf(options: SessionOptions): MiddlewareHandler<TrustEnv> {
  const allowed = options.allowedOrigins.map((o) => new URL(o).origin);
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") return next();
    if (!sameOrigin(c, allowed)) throw new ApiError("csrf_failed", "cross-origin request refused");
    if (!(c.req.header("Content-Type") ?? "").toLowerCase().startsWith("application/json")) {
      throw new ApiError("csrf_failed", "session requests must be application/json");
    }
    // Everything the headers can decide is decided before the body is read (a request without a
    // live session or a token header never holds its connection for a body).
    const session = await findSession(await options.getStore(), readCookie(c));
    if (!session) throw new ApiError("csrf_failed", "no live session: GET /api/evm/evmchain/session first");
    const headerToken = c.req.header(CSRF_HEADER);
    if (!headerToken || !verifyCsrfToken(session, headerToken)) {
      throw new ApiError(
        "csrf_failed",
        headerToken
          ? "the CSRF token is not valid for this session"
          : `send the CSRF token in both the ${CSRF_HEADER} header and the csrf_token body field`,
      );
    }
    // The body parser's own errors (413, 400 invalid_request / forbidden_field) pass through.
    const bodyToken = (await jsonBodyOf(c)).csrf_token;
    if (typeof bodyToken !== "string" || !bodyToken) {
      throw new ApiError(
        "csrf_failed",
        `send the CSRF token in both the ${CSRF_HEADER} header and the csrf_token body field`,
      );
    }
    if (!equalStrings(headerToken, bodyToken))
      throw new ApiError("csrf_failed", `${CSRF_HEADER} and csrf_token differ`);
    c.set("session", session);
    await next();
  };
}
