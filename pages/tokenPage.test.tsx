/**
 * The token page renders hostile metadata inert even if it reached the store some other way than
 * the API's validation: text is escaped, only http(s) links become links, and images from other
 * origins are not loaded.
 */
import { describe, expect, it } from "vitest";
import { TokenPage, type TokenPageProps } from "./tokenPage";

const ADDRESS = "0x1D84b75127c5e16B0980f0C678886a13A7bD17Fc";

function record(metadata: Partial<TokenPageProps["token"]["metadata"]>, name = "Coin"): TokenPageProps["token"] {
  return {
    address: ADDRESS,
    slug: "coin",
    launch_seq: 1,
    name,
    symbol: "COIN",
    decimals: 18,
    total_supply: "1000000000000000000000000000",
    creator: ADDRESS,
    factory: ADDRESS,
    pool: ADDRESS,
    quote_token: ADDRESS,
    token0: ADDRESS,
    token1: ADDRESS,
    position_ids: ["1"],
    launch_tx_hash: `0x${"ab".repeat(32)}`,
    launch_block_number: 1,
    launch_timestamp_sec: 1,
    liquidity_wei: "1",
    first_buy_wei: "0",
    first_buy_tokens_out: "0",
    sqrt_price_x96: "1",
    tick: 0,
    price_wei: "3755028913",
    market_cap_wei: "3755028913000000000",
    launch_price_wei: "1",
    volume_wei: "0",
    volume_token: "0",
    eth_price_usd: null,
    price_usd: null,
    market_cap_usd: null,
    volume_usd: null,
    volume_24h_usd: null,
    volume_24h_wei: null,
    volume_24h_token: null,
    trade_count_24h: null,
    price_24h_ago_wei: null,
    price_change_24h_bps: null,
    windows: null,
    liquidity: { reserve_wei: "0", reserve_token: "0", total_value_wei: "0", total_value_usd: null },
    trade_count: 0,
    buy_count: 0,
    sell_count: 0,
    last_trade_timestamp_sec: null,
    graduated: false,
    graduated_at_sec: null,
    graduation_threshold_wei: "1",
    graduation_threshold_usd: null,
    graduation_progress_bps: 0,
    creator_fees_wei: "0",
    creator_fees_token: "0",
    protocol_fees_wei: "0",
    protocol_fees_token: "0",
    metadata: {
      description: "",
      image_url: "https://svc.example/static/token-default.png",
      website_url: null,
      twitter_url: null,
      telegram_url: null,
      is_default: true,
      ...metadata,
    },
    holder_count: 1,
    launch_integrity: null,
    token_url: `https://svc.example/token/${ADDRESS}`,
    as_of_block: 120,
    as_of_timestamp_sec: 1_700_000_000,
    usd_source_age_sec: null,
    usd_stale: null,
  };
}

function render(token: TokenPageProps["token"]): string {
  return String(
    <TokenPage token={token} trades={[]} holders={[]} feeLocker={ADDRESS} publicBaseUrl="https://svc.example" />,
  );
}

describe("TokenPage", () => {
  it("escapes names and descriptions", () => {
    const html = render(record({ description: `<img src=x onerror=alert(1)>` }, `<script>alert(1)</script>`));
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<img src=x");
  });

  it("renders only http(s) links and only same-origin images", () => {
    const html = render(
      record({
        website_url: "javascript:alert(1)",
        twitter_url: "https://x.com/coin",
        telegram_url: "data:text/html,hi",
        image_url: "https://evil.example/x.png",
      }),
    );
    expect(html).not.toMatch(/href="(javascript|data):/);
    expect(html).toContain('href="https://x.com/coin"');
    expect(html).not.toContain("evil.example");
    expect(html).toContain('src="/static/token-default.png"');
    const scripts = [...html.matchAll(/<script[^>]*src="([^"?]+)\?v=[A-Za-z0-9_-]+"/g)].map((m) => m[1]);
    expect(scripts).toEqual(["/assets/token.js", "/assets/trade.js"]);
    expect(html).not.toMatch(/<script(?![^>]*src=)/); // no inline script
  });
});

describe("TokenPage details", () => {
  it("links to the explorer only when one is configured", () => {
    expect(render(record({}))).not.toContain("View on explorer");
    const html = String(
      <TokenPage
        token={record({})}
        trades={[]}
        holders={[]}
        feeLocker={ADDRESS}
        publicBaseUrl="https://svc.example"
        explorerUrl="https://scan.example/"
      />,
    );
    expect(html).toContain(`href="https://scan.example/address/${ADDRESS}"`);
    expect(html).toContain(`href="https://scan.example/tx/0x${"ab".repeat(32)}"`);
  });

  it("writes the share card with escaped values and absolute URLs", () => {
    const html = render(record({ description: `"><script>x</script>` }, `Coin"><img src=x>`));
    expect(html).toContain('<meta property="og:url" content="https://svc.example/t/coin"/>');
    expect(html).toContain('<meta property="og:image" content="https://svc.example/static/token-default.png"/>');
    expect(html).toContain('<meta name="twitter:card" content="summary"/>');
    expect(html).not.toContain("<img src=x>");
    expect(html).not.toContain("<script>x</script>");
    expect(html).toMatch(/<meta property="og:title" content="Coin&quot;&gt;&lt;img src=x&gt; \(COIN\)"\/>/);
  });

  it("shows each figure's USD value under it, and no USD at all without an ETH/USD reference", () => {
    const withUsd = render({
      ...record({}),
      eth_price_usd: "3000",
      price_usd: "0.000011265086739",
      market_cap_usd: "11265.086739",
      volume_usd: "150.5",
      volume_24h_usd: "0.25",
      liquidity: { reserve_wei: "0", reserve_token: "0", total_value_wei: "0", total_value_usd: "6000" },
    });
    expect(withUsd).toMatch(/id="stat-price-usd">≈ \$0\.0₄1126</);
    expect(withUsd).toContain('id="stat-mcap-usd">≈ $11,265.09<');
    expect(withUsd).toContain('id="stat-volume-usd">≈ $150.50<');
    expect(withUsd).toContain('id="stat-volume-24h-usd">≈ $0.25<');
    expect(withUsd).toContain('id="stat-liquidity-usd">≈ $6,000.00<');
    const withoutUsd = render(record({}));
    expect(withoutUsd).not.toContain("-usd");
    expect(withoutUsd).not.toContain("$0");
  });

  it("shows socials as named icons and graduation as a progress bar", () => {
    const html = render(record({ telegram_url: "https://t.me/coin" }));
    expect(html).toMatch(/<a class="social" href="https:\/\/t.me\/coin"[^>]*><svg[^>]*aria-hidden="true"/);
    expect(html).toContain('<span class="visually-hidden">Telegram</span>');
    expect(html).toMatch(/<progress class="graduation" id="stat-graduation-bar" max="10000" value="0">/);
  });
});

describe("TokenPage top holders", () => {
  const holder = (address: string, balanceWei: string, shareBps: number, label: string | null = null) => ({
    address,
    balance_wei: balanceWei,
    share_bps: shareBps,
    label: label as "pool" | null,
    updated_block_number: 1,
    updated_timestamp_sec: 1_700_000_000,
  });
  const page = (holders: Parameters<typeof TokenPage>[0]["holders"], explorerUrl: string | null = null) =>
    String(
      <TokenPage
        token={{ ...record({}), holder_count: 3 }}
        trades={[]}
        holders={holders}
        feeLocker={ADDRESS}
        publicBaseUrl="https://svc.example"
        explorerUrl={explorerUrl}
      />,
    );
  const text = (html: string) =>
    html
      .replace(/<[^>]+>/g, " ")
      .replace(/&lt;/g, "<")
      .replace(/\s+/g, " ");

  it("lists each holder: short address, tag, balance, share in %, copy and explorer link", () => {
    const pool = `0x${"11".repeat(20)}`;
    const small = `0x${"22".repeat(20)}`;
    const record0 = record({});
    const html = page(
      [
        holder(pool, "800000000000000000000000000", 8000, "pool"),
        holder(record0.creator, "150000000000000000000000000", 1500),
        holder(small, "1000000000000000000", 0),
      ],
      "https://scan.example",
    );
    const words = text(html);
    expect(words).toContain("Top holders");
    expect(words).toContain("All 3 holders, with their share of the total supply.");
    expect(words).toMatch(/0x1111…1111 Pool .*800,000,000 COIN 80 %/);
    expect(words).toMatch(/Creator .*150,000,000 COIN 15 %/);
    expect(words).toContain("1 COIN < 0.01 %");
    expect(html).toContain(`data-copy="${pool}"`);
    expect(html).toContain(`title="${pool}"`);
    expect(html).toContain(`href="https://scan.example/address/${small}"`);
    expect(page([holder(pool, "1", 1)])).not.toContain("Explorer");
    expect(html).not.toContain("data-next-cursor");
    expect(html).toMatch(/<button type="button" id="holders-more" class="secondary" hidden/);
  });

  it("says when there are no holders, and when they could not be read", () => {
    expect(text(page([]))).toContain("No holders yet.");
    const failed = text(page(null));
    expect(failed).toContain("The holders could not be loaded.");
    expect(page(null)).toMatch(/<p id="holders-empty"[^>]*hidden/);
  });
});
