/**
 * The client address used as the key of per-IP limits (public and session surfaces).
 *
 * `X-Forwarded-For` is honoured only when `TRUST_PROXY=1` (the service runs behind a reverse
 * proxy that sets it); otherwise the socket's remote address (Node server) is used, and
 * `unknown` when there is none (in-process `app.request()` calls).
 */
import type { Context } from "hono";

/**
 * @param trustProxy - honour the first `X-Forwarded-For` entry
 * @example clientIp(c, false) // "127.0.0.1"
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("X-Forwarded-For")?.split(",")[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? "unknown";
}
