/**
 * SSRF rules of webhook receivers (docs/webhooks.md "Receiver URLs", docs/security.md): a URL
 * must be `https` and every address it resolves to must be a public unicast address: loopback,
 * private (RFC 1918, unique local), link-local (the cloud metadata services 169.254.169.254 and
 * fd00:ec2::254), carrier-grade NAT, multicast, reserved, documentation and benchmarking ranges
 * are refused. Checked when the subscription is created and again at connect time (the `lookup`
 * of every request: a name that resolves to a refused address later, DNS rebinding, is refused
 * then). Redirects are never followed (the sender does not follow them).
 *
 * The devnet setting `WEBHOOKS_ALLOW_LOOPBACK_HTTP=1` (on under `npm start`, off by default)
 * admits `http://` and loopback addresses (127.0.0.0/8, ::1) and nothing else besides public ones.
 * Address classes come from the maintained `ipaddr.js`.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Longest receiver URL accepted, characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2_048;

/** Which receivers are admitted. */
export type UrlPolicy = {
  /** Admit `http://` URLs and loopback addresses (the devnet; `WEBHOOKS_ALLOW_LOOPBACK_HTTP`). */
  allowLoopbackHttp: boolean;
};

/** Ranges `ipaddr.js` 1.9 calls `unicast` that are not public either. */
const EXTRA_REFUSED = [
  "198.18.0.0/15", // benchmarking (RFC 2544)
  "192.0.0.0/24", // IETF protocol assignments
  "192.88.99.0/24", // 6to4 relay anycast (deprecated)
].map((cidr) => ipaddr.parseCIDR(cidr));

/**
 * Whether an IP address may receive webhooks.
 * @param address - IPv4 or IPv6 text (an IPv4-mapped IPv6 address is judged as its IPv4 address)
 * @returns `null` when allowed, else the refused class (`loopback`, `private`, `linkLocal`, …)
 * @example refusedAddressClass("8.8.8.8", { allowLoopbackHttp: false }) // null
 * @example refusedAddressClass("169.254.169.254", { allowLoopbackHttp: false }) // "linkLocal"
 */
export function refusedAddressClass(address: string, policy: UrlPolicy): string | null {
  if (!ipaddr.isValid(address)) return "invalid";
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === "loopback" && policy.allowLoopbackHttp) return null;
  if (range !== "unicast") return range;
  if (
    parsed.kind() === "ipv4" &&
    EXTRA_REFUSED.some(([net, bits]) => (parsed as ipaddr.IPv4).match(net as ipaddr.IPv4, bits))
  )
    return "reserved";
  return null;
}

/** Why a receiver URL is refused (`invalid_webhook_url` message), or ok. */
export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Checks a receiver URL's form (before any DNS): absolute `https` (or `http` under the devnet
 * setting), no credentials, at most {@link MAX_WEBHOOK_URL_LENGTH} characters, and, when the host is
 * an IP literal, an admitted address; `localhost` only under the devnet setting. Names are checked
 * again at every connect ({@link guardedLookup}).
 * @example checkWebhookUrl("https://hooks.example.com/x", { allowLoopbackHttp: false }) // { ok: true, url }
 * @example checkWebhookUrl("http://10.0.0.1/", { allowLoopbackHttp: false }) // { ok: false, reason: "the URL must use https" }
 */
export function checkWebhookUrl(text: string, policy: UrlPolicy): UrlCheck {
  if (text.length > MAX_WEBHOOK_URL_LENGTH)
    return { ok: false, reason: `the URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: "the URL is not an absolute URL" };
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowLoopbackHttp))
    return { ok: false, reason: "the URL must use https" };
  if (url.username || url.password) return { ok: false, reason: "the URL must not carry credentials" };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!host) return { ok: false, reason: "the URL has no host" };
  if (isIP(host)) {
    const refused = refusedAddressClass(host, policy);
    if (refused) return { ok: false, reason: `the URL's address is not public (${refused})` };
  } else if (/(^|\.)localhost\.?$/i.test(host) && !policy.allowLoopbackHttp) {
    return { ok: false, reason: "the URL's host is not public (localhost)" };
  } else if (!host.includes(".") && !policy.allowLoopbackHttp) {
    return { ok: false, reason: "the URL's host must be a fully qualified public name" };
  }
  if (url.protocol === "http:" && !isLoopbackHost(host))
    return { ok: false, reason: "http is admitted only for loopback receivers (devnet); use https" };
  return { ok: true, url };
}

function isLoopbackHost(host: string): boolean {
  if (/^localhost\.?$/i.test(host)) return true;
  return isIP(host) !== 0 && ipaddr.process(host).range() === "loopback";
}

/** Error of a refused connect-time address (the attempt's error `address_refused`). */
export class AddressRefusedError extends Error {
  override readonly name = "AddressRefusedError";
  readonly code = "EADDRREFUSED_WEBHOOK";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly addressClass: string,
  ) {
    super(`${host} resolves to ${address} (${addressClass}), which may not receive webhooks`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that resolves the name and refuses it when any of its addresses is
 * refused ({@link refusedAddressClass}): the socket then connects only to an address checked at
 * that moment, which defeats DNS rebinding between the subscription check and the delivery.
 * @example https.request(url, { lookup: guardedLookup(policy) })
 */
export function guardedLookup(policy: UrlPolicy) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...(options as Record<string, unknown>), all: true }, (err, addresses) => {
      if (err) return callback(err, "");
      const list = addresses as LookupAddress[];
      for (const entry of list) {
        const refused = refusedAddressClass(entry.address, policy);
        if (refused) return callback(new AddressRefusedError(hostname, entry.address, refused), "");
      }
      if ((options as { all?: boolean }).all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "");
      callback(null, first.address, first.family);
    });
  };
}
