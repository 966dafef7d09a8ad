/**
 * Bearer API-key authentication and scopes for the key-authenticated surface (spec:
 * Authentication 1–3; RFC 6750 for the `Authorization: Bearer` scheme and `WWW-Authenticate`).
 *
 * Three steps so the rate limiter can sit between them and every v1 response carries rate
 * headers: {@link identifyApiKey} (looks the key up, never throws), the limiter, then
 * {@link requireApiKey} + {@link requireScope} (throw 401/403). Keys are looked up in the store
 * on every request (no caching): a revocation takes effect on the next request. Secrets are never
 * logged or echoed; only the key's public id (`key_…`) appears anywhere.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { Store } from "../../store/index";
import { API_KEY_PATTERN, findActiveKey, type Scope } from "../../store/keys";
import { ApiError } from "../errors";
import type { TrustEnv } from "./context";

/** One row of the scope table: `METHOD path` (Hono path syntax, full path) -> required scope. */
export type ScopeRule = { method: "GET" | "POST" | "DELETE"; path: string; scope: Scope };

/**
 * Every key-authenticated endpoint and the scope it needs (documented in docs/trust.md).
 * A test asserts that every registered `/api/v1` route (other than the open descriptor and health)
 * has a row here.
 */
export const SCOPE_TABLE: readonly ScopeRule[] = [
  { method: "POST", path: "/api/v1/evmchain/media/upload", scope: "evmchain:launch:build" },
  { method: "POST", path: "/api/v1/evmchain/launches/intent", scope: "evmchain:launch:build" },
  { method: "POST", path: "/api/v1/evmchain/launches/build", scope: "evmchain:launch:build" },
  { method: "POST", path: "/api/v1/evmchain/launches/confirm", scope: "evmchain:launch:confirm" },
  { method: "GET", path: "/api/v1/evmchain/launches/status", scope: "evmchain:launch:read" },
  // Building any unsigned transaction for the key's wallet (docs/trade.md "Scope").
  { method: "POST", path: "/api/v1/evmchain/swaps/build", scope: "evmchain:launch:build" },
  { method: "GET", path: "/api/v1/evmchain/tokens", scope: "evmchain:market:read" },
  { method: "GET", path: "/api/v1/evmchain/tokens/:address", scope: "evmchain:market:read" },
  { method: "GET", path: "/api/v1/evmchain/tokens/:address/trades", scope: "evmchain:market:read" },
  { method: "GET", path: "/api/v1/evmchain/tokens/:address/candles", scope: "evmchain:market:read" },
  { method: "GET", path: "/api/v1/evmchain/tokens/:address/holders", scope: "evmchain:market:read" },
  { method: "GET", path: "/api/v1/evmchain/tokens/:address/integrity", scope: "evmchain:market:read" },
  { method: "POST", path: "/api/v1/coins/create-draft", scope: "evmchain:launch:build" },
  { method: "POST", path: "/api/v1/coins/create-transaction", scope: "evmchain:launch:build" },
  { method: "POST", path: "/api/v1/coins/finalize", scope: "evmchain:launch:confirm" },
  { method: "GET", path: "/api/v1/coins/status", scope: "evmchain:launch:read" },
  // Webhook subscriptions (docs/webhooks.md).
  { method: "POST", path: "/api/v1/evmchain/webhooks", scope: "evmchain:webhooks:manage" },
  { method: "GET", path: "/api/v1/evmchain/webhooks", scope: "evmchain:webhooks:manage" },
  { method: "GET", path: "/api/v1/evmchain/webhooks/:id", scope: "evmchain:webhooks:manage" },
  { method: "DELETE", path: "/api/v1/evmchain/webhooks/:id", scope: "evmchain:webhooks:manage" },
  { method: "POST", path: "/api/v1/evmchain/webhooks/:id/rotate-secret", scope: "evmchain:webhooks:manage" },
  { method: "POST", path: "/api/v1/evmchain/webhooks/:id/test", scope: "evmchain:webhooks:manage" },
  { method: "GET", path: "/api/v1/evmchain/webhooks/:id/deliveries", scope: "evmchain:webhooks:manage" },
  { method: "POST", path: "/api/v1/evmchain/webhooks/:id/resume", scope: "evmchain:webhooks:manage" },
];

const compiled = SCOPE_TABLE.map((rule) => ({
  ...rule,
  regex: new RegExp(`^${rule.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+/g, "[^/]+")}/?$`),
}));

/**
 * The scope an endpoint requires (`HEAD` is treated as `GET`).
 * @returns the scope, or `undefined` for a path not in {@link SCOPE_TABLE}
 * @example scopeFor("GET", "/api/v1/evmchain/tokens/0xabc") // "evmchain:market:read"
 */
export function scopeFor(method: string, path: string): Scope | undefined {
  const m = method === "HEAD" ? "GET" : method;
  return compiled.find((r) => r.method === m && r.regex.test(path))?.scope;
}

const BEARER = /^Bearer[ ]+([^\s]+)\s*$/i;

function challenge(
  c: Context,
  error: "invalid_request" | "invalid_token" | "insufficient_scope",
  scope?: string,
): void {
  c.header("WWW-Authenticate", `Bearer realm="evmchain", error="${error}"${scope ? `, scope="${scope}"` : ""}`);
}

/**
 * Reads `Authorization: Bearer <key>` and looks the key up. Sets `apiKey` on success, otherwise
 * `authFailure` (`missing_api_key` / `invalid_api_key`); never throws for bad credentials.
 */
export function identifyApiKey(getStore: () => Promise<Store>): MiddlewareHandler<TrustEnv> {
  return async (c, next) => {
    const header = c.req.header("Authorization");
    const match = header ? BEARER.exec(header) : null;
    if (!header || !match) {
      challenge(c, "invalid_request");
      c.set("authFailure", new ApiError("missing_api_key", "send Authorization: Bearer <API_KEY>"));
    } else if (!API_KEY_PATTERN.test(match[1]!)) {
      challenge(c, "invalid_token");
      c.set("authFailure", new ApiError("invalid_api_key", "the API key is malformed"));
    } else {
      const key = await findActiveKey(await getStore(), match[1]!);
      if (key) c.set("apiKey", key);
      else {
        challenge(c, "invalid_token");
        c.set("authFailure", new ApiError("invalid_api_key", "the API key is unknown or revoked"));
      }
    }
    await next();
  };
}

/** Throws the failure recorded by {@link identifyApiKey} (401) unless a valid key was presented. */
export function requireApiKey(): MiddlewareHandler<TrustEnv> {
  return async (c, next) => {
    if (!c.get("apiKey"))
      throw c.get("authFailure") ?? new ApiError("missing_api_key", "send Authorization: Bearer <API_KEY>");
    c.header("WWW-Authenticate", undefined);
    await next();
  };
}

/**
 * Enforces {@link SCOPE_TABLE} for the request's method and path: 403 `insufficient_scope` when
 * the key lacks the scope. Paths not in the table need no scope (they are 404s).
 */
export function requireScope(): MiddlewareHandler<TrustEnv> {
  return async (c, next) => {
    const key = c.get("apiKey");
    const scope = scopeFor(c.req.method, c.req.path);
    if (scope && !key?.scopes.includes(scope)) {
      challenge(c, "insufficient_scope", scope);
      throw new ApiError("insufficient_scope", `this endpoint requires the scope ${scope}`);
    }
    await next();
  };
}
