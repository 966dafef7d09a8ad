/**
 * The `TRUST_PROXY` setting: which peers are reverse proxies whose `X-Forwarded-For` entries are
 * believed. Validated and compiled once per process by `loadEnv` (`config/env.ts`: `Env.TRUST_PROXY`);
 * applied per request by `clientIp` (`http/middleware/clientIp.ts`) with `proxy-addr`'s
 * trusted-hop semantics. docs/operations.md "Client addresses behind a proxy".
 */
import proxyaddr from "proxy-addr";

/**
 * A compiled trust setting: `false` (no proxy), `true` (one hop, kept for callers that pass the
 * old boolean) or `proxy-addr`'s trust function (`(address, hopIndex) => trusted`, hop 0 is the
 * socket peer).
 */
export type ProxyTrust = boolean | ((address: string, hopIndex: number) => boolean);

/** Names `proxy-addr` accepts in a trust list besides addresses and CIDR ranges. */
const TRUST_NAMES = ["loopback", "linklocal", "uniquelocal"] as const;

/** Largest hop count accepted (more proxies than this in one path is a configuration error). */
const MAX_TRUST_HOPS = 32;

/**
 * Compiles a `TRUST_PROXY` value into a {@link ProxyTrust}.
 *
 * @param setting - `"0"`/empty (no proxy), a hop count `"1"`…`"32"`, or a comma-separated list of
 *   IPv4/IPv6 addresses, CIDR ranges (`10.0.0.0/8`, `fd00::/8`) and `loopback`, `linklocal`,
 *   `uniquelocal`
 * @returns `false`, or a trust function for `proxy-addr`
 * @throws TypeError naming the bad entry (an unknown name, a malformed address or CIDR, a hop
 *   count above {@link MAX_TRUST_HOPS}); `config/env.ts` calls this to validate the variable
 * @example compileProxyTrust("0") // false
 * @example compileProxyTrust("2")("198.51.100.7", 1) // true (the second hop is trusted)
 * @example compileProxyTrust("loopback, 10.0.0.0/8")("10.1.2.3", 0) // true
 */
export function compileProxyTrust(setting: string | undefined): ProxyTrust {
  const value = (setting ?? "").trim();
  if (value === "" || value === "0") return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_TRUST_HOPS) throw new TypeError(`hop count ${hops} is above ${MAX_TRUST_HOPS}`);
    return (_address, hopIndex) => hopIndex < hops;
  }
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if ((TRUST_NAMES as readonly string[]).includes(entry)) continue;
    // proxy-addr validates addresses and ranges itself; compile one entry at a time so the
    // error names the entry.
    try {
      proxyaddr.compile(entry);
    } catch {
      throw new TypeError(`"${entry}" is not an IP address, a CIDR range or one of ${TRUST_NAMES.join(", ")}`);
    }
  }
  return proxyaddr.compile(entries);
}
