/**
 * Trusted-hop semantics of `clientIp` (proxy-addr) and the `TRUST_PROXY` parser, through a real
 * Hono app (`app.request()` with the socket address Ponder's node server passes in `c.env`).
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { compileProxyTrust, type ProxyTrust } from "../../config/proxyTrust";
import { clientIp, clientKeyOf } from "./clientIp";

/** The client address the app sees for one request from `socket` with `X-Forwarded-For: xff`. */
async function seen(trust: ProxyTrust, socket: string | undefined, xff?: string): Promise<string> {
  const app = new Hono();
  app.get("/", (c) => c.text(clientIp(c, trust)));
  const env = socket === undefined ? undefined : { incoming: { socket: { remoteAddress: socket } } };
  const res = await app.request("/", { headers: xff === undefined ? {} : { "X-Forwarded-For": xff } }, env);
  return res.text();
}

describe("clientIp", () => {
  it("TRUST_PROXY=0 ignores X-Forwarded-For and keys on the socket peer", async () => {
    const trust = compileProxyTrust("0");
    expect(trust).toBe(false);
    expect(await seen(trust, "127.0.0.1", "10.0.0.1, 203.0.113.5")).toBe("127.0.0.1");
    expect(await seen(trust, "198.51.100.2")).toBe("198.51.100.2");
  });

  it("a hop count trusts exactly that many proxies from the right; what the client wrote is ignored", async () => {
    const one = compileProxyTrust("1");
    // One load balancer appends the address it saw: the last entry. The client's own entries
    // (everything left of it) are never the key.
    expect(await seen(one, "127.0.0.1", "10.0.0.1, 203.0.113.5")).toBe("203.0.113.5");
    expect(await seen(one, "127.0.0.1", "10.0.0.7, 127.0.0.1")).toBe("127.0.0.1");
    expect(await seen(one, "127.0.0.1", "203.0.113.5")).toBe("203.0.113.5");
    // No header: the peer itself.
    expect(await seen(one, "127.0.0.1")).toBe("127.0.0.1");
    const two = compileProxyTrust("2");
    expect(await seen(two, "127.0.0.1", "10.0.0.1, 203.0.113.5, 192.0.2.8")).toBe("203.0.113.5");
    // Fewer entries than hops: the furthest address there is.
    expect(await seen(two, "127.0.0.1", "203.0.113.5")).toBe("203.0.113.5");
    // `true` (the old boolean) means one hop.
    expect(await seen(true, "127.0.0.1", "10.0.0.1, 203.0.113.5")).toBe("203.0.113.5");
  });

  it("a list of addresses and ranges trusts those peers only, walking from the socket leftwards", async () => {
    const trust = compileProxyTrust("loopback, 10.0.0.0/8");
    expect(await seen(trust, "127.0.0.1", "198.51.100.1, 203.0.113.9, 10.1.1.1")).toBe("203.0.113.9");
    // IPv4-mapped IPv6 socket addresses match their IPv4 range.
    expect(await seen(trust, "::ffff:127.0.0.1", "203.0.113.9")).toBe("203.0.113.9");
    // A peer outside the list is the client, whatever it forwards.
    expect(await seen(trust, "203.0.113.50", "10.0.0.1")).toBe("203.0.113.50");
    // A garbage entry stops the walk: it is the (untrusted) client's, not a proxy's.
    expect(await seen(trust, "127.0.0.1", "198.51.100.1, not-an-ip, 10.1.1.1")).toBe("not-an-ip");
  });

  it("without a socket nothing is believed: the address is unknown", async () => {
    expect(await seen(compileProxyTrust("1"), undefined, "203.0.113.5")).toBe("unknown");
    expect(await seen(false, undefined)).toBe("unknown");
  });
});

describe("compileProxyTrust", () => {
  it("treats empty and 0 as no proxy", () => {
    expect(compileProxyTrust(undefined)).toBe(false);
    expect(compileProxyTrust("")).toBe(false);
    expect(compileProxyTrust(" 0 ")).toBe(false);
  });

  it("names the bad entry", () => {
    expect(() => compileProxyTrust("yes")).toThrow(
      '"yes" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal',
    );
    expect(() => compileProxyTrust("loopback, 10.0.0.0/99")).toThrow('"10.0.0.0/99" is not an IP address');
    expect(() => compileProxyTrust("33")).toThrow("hop count 33 is above 32");
  });
});

describe("IPv6 grouping (every per-IP budget keys on the client's network)", () => {
  it("groups IPv6 by /64 (configurable), unmaps IPv4-mapped addresses, keeps IPv4 as is", () => {
    expect(clientKeyOf("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(clientKeyOf("2001:db8:1:2::1")).toBe(clientKeyOf("2001:db8:1:2:ffff:ffff:ffff:ffff"));
    expect(clientKeyOf("2001:db8:1:3::1")).not.toBe(clientKeyOf("2001:db8:1:2::1"));
    expect(clientKeyOf("2001:db8:1:2:aaaa::1", 48)).toBe("2001:db8:1::/48");
    expect(clientKeyOf("2001:db8:1:2:aaaa::1", 128)).toBe("2001:db8:1:2:aaaa::1/128");
    expect(clientKeyOf("::ffff:203.0.113.5")).toBe("203.0.113.5");
    expect(clientKeyOf("203.0.113.5")).toBe("203.0.113.5");
    expect(clientKeyOf("unknown")).toBe("unknown");
  });

  it("100 addresses of one /64 are one client, for direct peers and forwarded addresses alike; another /64 is another", async () => {
    const keys = new Set<string>();
    for (let i = 1; i <= 100; i++) {
      const address = `2001:db8:7:9::${i.toString(16)}:${((i * 7919) % 65_536).toString(16)}`;
      keys.add(await seen(false, address));
      keys.add(await seen(compileProxyTrust("1"), "127.0.0.1", `198.51.100.1, ${address}`));
    }
    expect([...keys]).toEqual(["2001:db8:7:9::/64"]);
    expect(await seen(false, "2001:db8:7:a::1")).toBe("2001:db8:7:a::/64");
  });
});
