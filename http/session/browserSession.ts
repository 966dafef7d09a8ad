/**
 * `GET /api/evm/evmchain/session` on the session surface (spec: Authentication 7; docs/trust.md
 * "Session surface and CSRF"): the browser session itself, its cookie and its CSRF token, and the
 * wallet it signed in with. A read (no CSRF), under the per-IP session limit of the surface; the
 * number of new sessions per client IP is bounded besides.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { ProxyTrust } from "../../config/proxyTrust";
import type { Store } from "../../store/index";
import { createCsrfToken } from "../../store/sessions";
import { sendOk } from "../json";
import { clientIp } from "../middleware/clientIp";
import type { TrustEnv } from "../middleware/context";
import type { Limits } from "../../config/limits";
import { loadOrCreateSession } from "./csrf";
import { consumeNewSession } from "../middleware/rateLimit";
import { documented } from "../openapi/describe";
import { addressWire, okBody } from "../../src/domain/wire";

/** What the session route needs (built once by `createApp`). */
export type BrowserSessionDeps = {
  getStore: () => Promise<Store>;
  limits: Pick<Limits, "sessionsPerIpPerHour">;
  trustProxy?: ProxyTrust;
  /** IPv6 grouping of per-IP budgets (`CLIENT_IPV6_PREFIX_BITS`). */
  ipv6PrefixBits?: number;
  /** Clock, unix milliseconds (the new-session budget window). */
  nowMs: () => number;
};

/** Builds the session route (mount at `/api/evm/evmchain`). */
export function browserSessionRoutes(deps: BrowserSessionDeps) {
  const { getStore, limits } = deps;
  return (
    new Hono<TrustEnv>()
      /**
       * GET /api/evm/evmchain/session — the session's CSRF token and the wallet it signed in
       * with. Sets the session cookie (HttpOnly, SameSite=Strict, Secure except on localhost)
       * when missing or expired. 200 `{ok, csrf_token, expires_at_sec, wallet (checksummed, or
       * null before sign-in), signed_in_at_sec}`.
       */
      .get(
        "/session",
        documented({
          tag: "session",
          summary: "The session's CSRF token and signed-in wallet (sets the session cookie)",
          ok: okBody({
            csrf_token: z.string(),
            expires_at_sec: z.number().int(),
            wallet: addressWire.nullable(),
            signed_in_at_sec: z.number().int().nullable(),
          }),
        }),
        async (c) => {
          const session = await loadOrCreateSession(c, getStore, {
            // Bounded: a client makes at most `sessionsPerIpPerHour` new sessions (store rows).
            beforeCreate: (store) =>
              consumeNewSession(
                store,
                c,
                clientIp(c, deps.trustProxy ?? false, deps.ipv6PrefixBits),
                limits.sessionsPerIpPerHour,
                deps.nowMs(),
              ),
          });
          c.header("Cache-Control", "no-store");
          return sendOk(c, {
            csrf_token: createCsrfToken(session),
            expires_at_sec: Math.floor(session.expiresAtMs / 1000),
            wallet: session.wallet,
            signed_in_at_sec: session.signedInAtMs === null ? null : Math.floor(session.signedInAtMs / 1000),
          });
        },
      )
  );
}
