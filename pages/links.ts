/**
 * Link and image safety for server-rendered pages: only `http:`/`https:` URLs become links, and
 * images of this service are referenced by path so the page's `img-src 'self'` CSP admits them.
 */

/**
 * The URL if it is an absolute `http:` or `https:` URL, else `null` (so `javascript:`, `data:`,
 * `vbscript:` and relative or malformed values are never rendered as links).
 * @example safeHttpUrl("javascript:alert(1)") // null
 * @example safeHttpUrl("https://example.org/x") // "https://example.org/x"
 */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
}

/**
 * An image URL as the page should reference it: a URL of this service (`publicBaseUrl` prefix)
 * becomes its path; anything else is not shown (`null`), since the page loads nothing from other
 * origins.
 * @example sameOriginPath("https://svc.example/media/ab.png", "https://svc.example") // "/media/ab.png"
 */
export function sameOriginPath(value: string | null | undefined, publicBaseUrl: string): string | null {
  if (!value) return null;
  let url: URL;
  let base: URL;
  try {
    url = new URL(value);
    base = new URL(publicBaseUrl);
  } catch {
    return null;
  }
  if (url.origin !== base.origin) return null;
  return `${url.pathname}${url.search}`;
}
