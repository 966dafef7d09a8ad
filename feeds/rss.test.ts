import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { renderRss, rfc822 } from "./rss";

const channel = {
  title: "New launches",
  link: "https://example.test",
  description: "Newest tokens",
  selfUrl: "https://example.test/feed/new-launches.xml?x=1&y=2",
  ttlMinutes: 1,
};

describe("rfc822", () => {
  it("formats unix seconds as RFC 822 GMT", () => {
    expect(rfc822(0)).toBe("Thu, 01 Jan 1970 00:00:00 GMT");
    expect(rfc822(1_700_000_123)).toBe("Tue, 14 Nov 2023 22:15:23 GMT");
  });
});

describe("renderRss", () => {
  it("renders exactly, escaping hostile text", () => {
    const xml = renderRss({
      ...channel,
      items: [
        {
          title: "Evil <script>&]]>\u0000\u202E name",
          link: "https://example.test/token/evil",
          description: "a & b",
          guid: "launch:0xabc",
          pubDateSec: 1_700_000_123,
          category: "launch",
        },
      ],
    });
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>New launches</title>
    <link>https://example.test</link>
    <description>Newest tokens</description>
    <atom:link href="https://example.test/feed/new-launches.xml?x=1&amp;y=2" rel="self" type="application/rss+xml"/>
    <language>en</language>
    <ttl>1</ttl>
    <lastBuildDate>Tue, 14 Nov 2023 22:15:23 GMT</lastBuildDate>
    <item>
      <title>Evil &lt;script&gt;&amp;]]&gt; name</title>
      <link>https://example.test/token/evil</link>
      <description>a &amp; b</description>
      <guid isPermaLink="false">launch:0xabc</guid>
      <pubDate>Tue, 14 Nov 2023 22:15:23 GMT</pubDate>
      <category>launch</category>
    </item>
  </channel>
</rss>
`);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser().parse(xml);
    expect(parsed.rss.channel.item.title).toBe("Evil <script>&]]> name");
  });

  it("renders an empty channel without lastBuildDate", () => {
    const xml = renderRss({ ...channel, items: [] });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain("lastBuildDate");
    expect(xml).not.toContain("<item");
  });
});
