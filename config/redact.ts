/**
 * Keeps private URLs out of what the service publishes or logs. The service's own RPC URL
 * (`RPC_URL`, `INDEXER_RPC_URLS`, `INDEXER_WS_URL`, the manifest's `rpcUrl`) may carry a provider secret in its query
 * (`?apikey=…`), path (`/v3/<key>`) or credentials; viem puts the whole URL into its error messages
 * (`URL: …`, stripping only basic-auth credentials), so any error text that reaches a response body
 * or a log line passes through {@link redactPrivateUrls} first.
 */

/** What a private URL is replaced with. */
export const REDACTED_URL = "[private RPC URL]";

/**
 * Replaces every occurrence of each private URL in `text` — as given, as normalised by `URL`,
 * without credentials, and its secret-bearing parts (path beyond `/`, query and each query value,
 * password) on their own, when at least 8 characters long (shorter ones are no secret and would hit ordinary text) —
 * with {@link REDACTED_URL}.
 * @param text - an error message, stack or log line
 * @param privateUrls - the URLs to hide (unparsable entries are hidden as given)
 * @returns the text without any of them
 * @example redactPrivateUrls("URL: https://rpc.example/v3/abc?apikey=SECRET", ["https://rpc.example/v3/abc?apikey=SECRET"]) // "URL: [private RPC URL]"
 */
export function redactPrivateUrls(text: string, privateUrls: readonly string[]): string {
  const needles = new Set<string>();
  const part = (value: string) => {
    if (value.length >= 8) needles.add(value);
  };
  for (const raw of privateUrls) {
    if (!raw) continue;
    needles.add(raw);
    try {
      const url = new URL(raw);
      needles.add(url.href);
      if (url.username || url.password) {
        part(url.password);
        url.username = "";
        url.password = "";
        needles.add(url.href);
      }
      part(url.search.slice(1));
      for (const value of url.searchParams.values()) part(value);
      part(url.pathname);
      // A URL given without a path (`https://host?k=v`) prints as `https://host/?k=v` once parsed.
      needles.add(url.href.replace(/\/$/, ""));
    } catch {
      // not a URL: hidden as given
    }
  }
  // Longest first, so a whole URL is replaced before its parts.
  let out = text;
  for (const needle of [...needles].sort((a, b) => b.length - a.length)) out = out.split(needle).join(REDACTED_URL);
  return out;
}
