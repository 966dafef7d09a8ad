/**
 * How the HTTP server's connection bounds tell direct peers apart (ops/httpServerLimits.ts): which
 * peers are trusted proxies (`TRUST_PROXY`, never capped, since every client behind them shares
 * their address) and the budget key of any other peer, the same key the per-IP request budgets use.
 */
import type { ClientIdentity } from "../../ops/httpServerLimits";
import type { ProxyTrust } from "../../config/proxyTrust";
import { clientKeyOf, DEFAULT_IPV6_PREFIX_BITS } from "./clientIp";

/**
 * The identity of direct peers under a trust setting.
 * @param trust - the compiled `TRUST_PROXY` (`false`: no proxies; `true` or a hop count: the peer is
 *   always a proxy; a list: the peers it names)
 * @param ipv6PrefixBits - IPv6 grouping of the key (`CLIENT_IPV6_PREFIX_BITS`, {@link clientKeyOf})
 * @returns `isTrustedProxy` and `clientKey` for {@link ClientIdentity}
 * @example peerIdentity(false).isTrustedProxy("127.0.0.1") // false
 */
export function peerIdentity(trust: ProxyTrust, ipv6PrefixBits = DEFAULT_IPV6_PREFIX_BITS): ClientIdentity {
  return {
    isTrustedProxy: (address) => (typeof trust === "function" ? trust(address, 0) : trust),
    clientKey: (address) => clientKeyOf(address, ipv6PrefixBits),
  };
}
