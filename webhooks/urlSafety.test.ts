import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { sendWebhook } from "./send";
import { checkWebhookUrl, guardedLookup, refusedAddressClass } from "./urlSafety";

const prod = { allowLoopbackHttp: false };
const devnet = { allowLoopbackHttp: true };
const message = { body: "{}", headers: { "webhook-id": "1", "webhook-timestamp": "0", "webhook-signature": "v1,x" } };

describe("webhook receiver URL rules (SSRF)", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["::1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["fd00:ec2::254", "uniqueLocal"],
    ["fe80::1", "linkLocal"],
    ["100.100.100.200", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["198.18.0.1", "reserved"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:169.254.169.254", "linkLocal"],
  ])("refuses %s (%s) in production", (address, klass) => {
    expect(refusedAddressClass(address, prod)).toBe(klass);
  });

  it("admits public addresses; the devnet setting admits loopback and nothing else private", () => {
    expect(refusedAddressClass("8.8.8.8", prod)).toBeNull();
    expect(refusedAddressClass("2001:4860:4860::8888", prod)).toBeNull();
    expect(refusedAddressClass("127.0.0.1", devnet)).toBeNull();
    expect(refusedAddressClass("10.0.0.1", devnet)).toBe("private");
    expect(refusedAddressClass("169.254.169.254", devnet)).toBe("linkLocal");
  });

  it.each([
    ["http://hooks.example.com/x", "https"],
    ["https://127.0.0.1/x", "not public"],
    ["https://[::1]/x", "not public"],
    ["https://169.254.169.254/latest/meta-data", "not public"],
    ["https://localhost/x", "localhost"],
    ["https://user:pw@hooks.example.com/x", "credentials"],
    ["https://intranet/x", "fully qualified"],
    ["ftp://hooks.example.com/x", "https"],
    ["not a url", "absolute"],
    [`https://hooks.example.com/${"a".repeat(2100)}`, "longer"],
  ])("refuses %s in production", (url, why) => {
    const check = checkWebhookUrl(url, prod);
    expect(check.ok).toBe(false);
    expect(check.ok ? "" : check.reason).toContain(why);
  });

  it("admits https public names in production, http only to loopback under the devnet setting", () => {
    expect(checkWebhookUrl("https://hooks.example.com/x?y=1", prod).ok).toBe(true);
    expect(checkWebhookUrl("http://127.0.0.1:9999/hook", devnet).ok).toBe(true);
    expect(checkWebhookUrl("http://127.0.0.1:9999/hook", prod).ok).toBe(false);
    expect(checkWebhookUrl("http://hooks.example.com/x", devnet).ok).toBe(false);
    expect(checkWebhookUrl("http://10.0.0.1/x", devnet).ok).toBe(false);
  });

  it("re-checks at connect time: a name that resolves to loopback is refused by the lookup (DNS rebinding)", async () => {
    const answer = await new Promise<{ err: Error | null }>((resolve) =>
      guardedLookup(prod)("localhost", {}, (err) => resolve({ err })),
    );
    expect(answer.err?.name).toBe("AddressRefusedError");
    const allowed = await new Promise<{ err: Error | null; address: unknown }>((resolve) =>
      guardedLookup(devnet)("localhost", {}, (err, address) => resolve({ err, address })),
    );
    expect(allowed.err).toBeNull();
  });

  it("sends nothing to a refused receiver, and follows no redirect", async () => {
    let hits = 0;
    const server = createServer((req, res) => {
      hits++;
      if (req.url === "/redirect") {
        res.writeHead(302, { Location: "/landing" }).end();
        return;
      }
      res.writeHead(200).end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      // Production policy: the loopback receiver is never contacted.
      const refused = await sendWebhook({ url: `http://127.0.0.1:${port}/x`, message, policy: prod });
      expect(refused.error).toBe("invalid_url");
      const viaName = await sendWebhook({ url: `https://localhost.:${port}/x`, message, policy: prod });
      expect(viaName.error).toBe("invalid_url");
      expect(hits).toBe(0);
      // Devnet: delivered; a redirect is an answer (not 2xx), not followed.
      const redirect = await sendWebhook({ url: `http://127.0.0.1:${port}/redirect`, message, policy: devnet });
      expect(redirect.statusCode).toBe(302);
      expect(hits).toBe(1);
    } finally {
      server.close();
    }
  });

  it("times out a receiver that does not answer and keeps only a prefix of a long answer", async () => {
    const server = createServer((req, res) => {
      if (req.url === "/slow") return; // never answers
      res.writeHead(500).end("x".repeat(10_000));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const slow = await sendWebhook({ url: `http://127.0.0.1:${port}/slow`, message, policy: devnet, timeoutMs: 200 });
      expect(slow.error).toBe("timeout");
      expect(slow.statusCode).toBeUndefined();
      const long = await sendWebhook({ url: `http://127.0.0.1:${port}/long`, message, policy: devnet });
      expect(long.statusCode).toBe(500);
      expect(long.responsePrefix?.length).toBe(256);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
