/**
 * The client address used as the key of per-IP limits (public and session surfaces).
 *
 * Behind reverse proxies the client address is found with the trusted-hop semantics of
 * `proxy-addr` (the library Express uses): walk `X-Forwarded-For` from the right, starting at the
 * socket's peer, and stop at the first address that is not a trusted proxy. Entries left of that
 * point were written by the client and are never used, so a client cannot pick its own key by
 * sending `X-Forwarded-For: <anything>, …`.
 *
 * The trust setting (`TRUST_PROXY`, validated in `config/env.ts`, compiled once by
 * `compileProxyTrust` in `config/proxyTrust.ts`) is one of:
 * - `0` (default): no proxy; the socket's remote address is the client;
 * - a hop count `N` (1-32): the socket peer and the next `N - 1` entries from the right are
 *   proxies (`1`: one load balancer in front of the service);
 * - a comma-separated list of addresses, CIDR ranges and the names `loopback`, `linklocal`,
 *   `uniquelocal`: those addresses are proxies, e.g. `loopback, 10.0.0.0/8`.
 *
 * Without a socket (an in-process `app.request()` with no `env.incoming`) the address is
 * `unknown` whatever the headers say: a header is only believed when the peer that sent it is.
 *
 * The key is the client's *network*, not its address: an IPv6 address is grouped by its first
 * `ipv6PrefixBits` bits (`CLIENT_IPV6_PREFIX_BITS`, default 64: one end site's /64, which any
 * client holds entirely and can rotate through at will), for direct peers and forwarded addresses
 * alike; an IPv4-mapped IPv6 address is its IPv4 address. So every per-IP budget (requests,
 * sessions, streams, key creation, connections) holds per /64 (docs/trust.md "Limits").
 */

/** The IPv6 prefix length per-IP budgets group by (a /64, the smallest end-site allocation). */
export const DEFAULT_IPV6_PREFIX_BITS = 64;

/**
 * The budget key of one address: IPv4 as is (IPv4-mapped IPv6 unmapped), IPv6 masked to its first
 * `ipv6PrefixBits` bits and written as a CIDR; anything unparseable as is.
 * @example clientKeyOf("2001:db8:1:2:aaaa::1") // "2001:db8:1:2::/64"
 * @example clientKeyOf("::ffff:203.0.113.5") // "203.0.113.5"
 */
export function clientKeyOf(address: string, ipv6PrefixBits = DEFAULT_IPV6_PREFIX_BITS): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const bytes = parsed.toByteArray();
  for (let bit = ipv6PrefixBits; bit < 128; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6PrefixBits}`;
}
import type { Context } from "hono";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";
import type { ProxyTrust } from "../../config/proxyTrust";

export type { ProxyTrust };

/**
 * The client address of a request, for per-IP limits.
 *
 * @param c - the Hono context; the socket address is read from `c.env.incoming.socket`
 *   (`@hono/node-server`, as Ponder serves the app)
 * @param trust - the compiled `TRUST_PROXY` setting (`compileProxyTrust`); `false` ignores
 *   `X-Forwarded-For`, `true` trusts one hop
 * @param ipv6PrefixBits - IPv6 grouping ({@link clientKeyOf}; default 64)
 * @returns the client's budget key (at most 64 characters), or `unknown` when the request has no socket
 * @example clientIp(c, false) // "127.0.0.1" (the socket peer)
 * @example clientIp(c, compileProxyTrust("1")) // with X-Forwarded-For "10.0.0.9, 203.0.113.5"
 *   // from peer 127.0.0.1: "203.0.113.5" (the entry the proxy appended); "10.0.0.9" is ignored
 */
export function clientIp(c: Context, trust: ProxyTrust, ipv6PrefixBits = DEFAULT_IPV6_PREFIX_BITS): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const remoteAddress = env?.incoming?.socket?.remoteAddress;
  if (!remoteAddress) return "unknown";
  if (trust === false) return clientKeyOf(remoteAddress, ipv6PrefixBits);
  const fn = trust === true ? (_address: string, hopIndex: number) => hopIndex < 1 : trust;
  const forwardedFor = c.req.header("X-Forwarded-For");
  // proxy-addr reads only these two fields of a Node request.
  const request = {
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
    connection: { remoteAddress },
    socket: { remoteAddress },
  };
  return clientKeyOf(proxyaddr(request as unknown as Parameters<typeof proxyaddr>[0], fn), ipv6PrefixBits).slice(0, 64);
}
