/**
 * RSS 2.0 rendering (RSS 2.0 specification, https://www.rssboard.org/rss-specification, plus the
 * Atom `atom:link rel="self"` the RSS Advisory Board recommends). Pure: no Hono, no database.
 * XML is produced by fast-xml-parser's builder, which escapes `<`, `>`, `&`, `"` and `'` in text
 * and attributes; {@link cleanText} removes what XML 1.0 cannot carry at all (control
 * characters, lone surrogates) and bidi overrides.
 */
import { XMLBuilder } from "fast-xml-parser";
import { cleanText } from "./text";

/** One feed entry. */
export type RssItem = {
  title: string;
  /** Absolute URL (the token page). */
  link: string;
  description: string;
  /** Stable, globally unique id (not a URL: rendered with `isPermaLink="false"`). */
  guid: string;
  pubDateSec: number;
  category?: string;
};

/** A feed channel. */
export type RssChannel = {
  title: string;
  /** Absolute URL of the site the feed belongs to. */
  link: string;
  description: string;
  /** Absolute URL of this feed (atom:link rel="self"). */
  selfUrl: string;
  /** Minutes a reader may cache the feed (`<ttl>`). */
  ttlMinutes: number;
  items: readonly RssItem[];
};

/**
 * RFC 822 date-time (as RFC 1123 tightened it), the format RSS 2.0 requires for `pubDate`.
 * @param sec - unix seconds
 * @example rfc822(0) // "Thu, 01 Jan 1970 00:00:00 GMT"
 */
export function rfc822(sec: number): string {
  return new Date(sec * 1000).toUTCString();
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  format: true,
  suppressEmptyNode: true,
  processEntities: true,
});

/**
 * Renders an RSS 2.0 document. `lastBuildDate` is the newest item's date (so equal input gives
 * byte-equal output, which keeps ETags stable).
 * @param channel - channel fields and items (newest first)
 * @returns the XML document, UTF-8, with an XML declaration
 * @example renderRss({ title: "t", link: "https://x", description: "d", selfUrl: "https://x/f.xml", ttlMinutes: 1, items: [] })
 */
export function renderRss(channel: RssChannel): string {
  const newest = channel.items.reduce((max, i) => Math.max(max, i.pubDateSec), 0);
  const doc = {
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    rss: {
      "@_version": "2.0",
      "@_xmlns:atom": "http://www.w3.org/2005/Atom",
      channel: {
        title: cleanText(channel.title),
        link: channel.link,
        description: cleanText(channel.description),
        "atom:link": { "@_href": channel.selfUrl, "@_rel": "self", "@_type": "application/rss+xml" },
        language: "en",
        ttl: channel.ttlMinutes,
        ...(channel.items.length > 0 ? { lastBuildDate: rfc822(newest) } : {}),
        item: channel.items.map((i) => ({
          title: cleanText(i.title),
          link: i.link,
          description: cleanText(i.description),
          guid: { "#text": cleanText(i.guid), "@_isPermaLink": "false" },
          pubDate: rfc822(i.pubDateSec),
          ...(i.category ? { category: cleanText(i.category) } : {}),
        })),
      },
    },
  };
  return builder.build(doc) as string;
}
