/**
 * End to end, public surface: anvil + real Uniswap V3 + our contracts and the real service. Wallets
 * launch tokens (colliding symbols, hostile names, one that graduates), buy and sell; then every
 * public list, the events feed, the token list (validated with the schema shipped in
 * `@uniswap/token-lists`), the RSS feeds (parsed by a third-party feed parser) and the
 * integration feeds must agree with the chain.
 */
import { createRequire } from "node:module";
import { parseFeed } from "@rowanmanning/feed-parser";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { erc20Abi, formatEther, getAddress, keccak256, parseEther, toBytes, type Address } from "viem";
import { buyToken, launchToken, sellToken } from "../../devnet/actions";
import { startStack, until, type Stack } from "../helpers/harness";
import { untilCreatorFundingSettled } from "../helpers/creatorFunding";
import { FINALIZED_DEPTH } from "../helpers/eventsFeed";

const tokenListSchema = createRequire(import.meta.url)("@uniswap/token-lists/src/tokenlist.schema.json");
const HOSTILE_NAME = "Evil <script>&]]>\u0000\u202E\u200F x";
const HOSTILE_SYMBOL = "EV IL<&";
const CONFIRMATIONS = 2;

let stack: Stack;
type Launched = { address: Address; pool: Address; name: string; symbol: string; creator: Address; block: bigint };
const launched: Launched[] = [];

async function mine(blocks: number) {
  await stack.publicClient.request({ method: "anvil_mine" as never, params: [`0x${blocks.toString(16)}`] as never });
}

async function launch(walletIndex: number, name: string, symbol: string, firstBuy: string) {
  const w = stack.wallet(walletIndex);
  const r = await launchToken(w, stack.publicClient, stack.manifest, {
    name,
    symbol,
    firstBuyWei: parseEther(firstBuy),
  });
  const t = {
    address: getAddress(r.event.token),
    pool: getAddress(r.event.pool),
    name,
    symbol,
    creator: w.account.address,
    block: r.receipt.blockNumber,
  };
  launched.push(t);
  return t;
}

beforeAll(async () => {
  stack = await startStack({
    schema: "e2e_public",
    env: {
      EVENTS_CONFIRMATION_BLOCKS: String(CONFIRMATIONS),
      GRADUATION_MARKET_CAP_WEI: parseEther("4").toString(),
      PARTNER_A_SLUG: "alpha",
      PARTNER_B_SLUG: "beta",
      PUBLIC_RATE_LIMIT_PER_MINUTE: "100000",
    },
  });
  const pepe = await launch(1, "Pepe", "PEPE", "0.01");
  await launch(2, "Pepe Again", "pepe", "0");
  await launch(1, HOSTILE_NAME, HOSTILE_SYMBOL, "0.02");
  await launch(3, "Graduate", "GRAD", "0.6"); // first buy lifts the market cap past 4 ETH
  await buyToken(stack.wallet(4), stack.publicClient, stack.manifest, pepe.address, parseEther("0.06")); // a big buy
  const bal = await stack.publicClient.readContract({
    address: pepe.address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [stack.wallet(4).account.address],
  });
  await sellToken(stack.wallet(4), stack.publicClient, stack.manifest, pepe.address, bal / 3n);
  await mine(FINALIZED_DEPTH);
  const head = await stack.publicClient.getBlockNumber({ cacheTime: 0 });
  await until("indexed head", async () => {
    const { body } = await stack.request("/api/public/events?limit=1");
    return body.ok && BigInt(body.head_block) >= head ? true : undefined;
  });
  // The sniper windows are confirmed now: records change once more, when the funding scan lands.
  expect(
    await untilCreatorFundingSettled(
      stack,
      launched.map((t) => t.address),
    ),
  ).toEqual(launched.map(() => "measured"));
});

afterAll(async () => {
  await stack?.stop();
});

describe("tokens and slugs", () => {
  it("assigns unique slugs in launch order and resolves tokens by slug or address", async () => {
    const slugs = ["pepe", "pepe-2", "ev-il", "grad"];
    for (const [i, slug] of slugs.entries()) {
      const bySlug = await stack.request(`/api/public/token/${slug}`);
      expect(bySlug.status).toBe(200);
      expect(bySlug.body.token.address).toBe(launched[i]!.address);
      expect(bySlug.body.token.slug).toBe(slug);
      expect(bySlug.body.token.launch_seq).toBe(i + 1);
      const byAddress = await stack.request(`/api/public/token/${launched[i]!.address.toLowerCase()}`);
      expect(byAddress.body.token).toEqual(bySlug.body.token);
    }
    const trades = await stack.request(`/api/public/token/pepe/trades?limit=10`);
    expect(trades.body.trades.map((t: { side: string }) => t.side)).toEqual(["sell", "buy", "buy"]);
  });

  it("serves liquidity equal to the pool's balances and 24 h figures from the trades", async () => {
    for (const t of launched) {
      const { body } = await stack.request(`/api/public/token/${t.address}`);
      const [wethBal, tokenBal] = await Promise.all([
        stack.publicClient.readContract({
          address: stack.manifest.contracts.weth,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [t.pool],
        }),
        stack.publicClient.readContract({
          address: t.address,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [t.pool],
        }),
      ]);
      expect(body.token.liquidity.reserve_wei).toBe(wethBal.toString());
      expect(body.token.liquidity.reserve_token).toBe(tokenBal.toString());
      const all = await stack.request(`/api/public/token/${t.address}/trades?limit=200`);
      const vol = all.body.trades.reduce(
        (s: bigint, x: { eth_amount_wei: string }) => s + BigInt(x.eth_amount_wei),
        0n,
      );
      expect(body.token.volume_24h_wei).toBe(vol.toString());
      expect(body.token.trade_count_24h).toBe(all.body.trades.length);
      expect(body.token.price_24h_ago_wei).toBe(body.token.launch_price_wei);
      const expectedChange =
        ((BigInt(body.token.price_wei) - BigInt(body.token.launch_price_wei)) * 10_000n) /
        BigInt(body.token.launch_price_wei);
      expect(body.token.price_change_24h_bps).toBe(Number(expectedChange));
      expect(body.token.metadata).toMatchObject({ is_default: true, website_url: null });
      expect(body.token.token_url).toMatch(new RegExp(`/token/${t.address}$`));
      expect(body.token.creator).toBe(t.creator);
    }
  });

  it("pages newest launches with an opaque cursor and rejects a forged one", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const { body } = await stack.request(`/api/public/tokens/new?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(body.ok).toBe(true);
      seen.push(...body.tokens.map((t: { address: string }) => t.address));
      cursor = body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...launched].reverse().map((t) => t.address));
    for (const bad of ["%%%", "eyJ4IjoxfQ", "bm90IGpzb24"]) {
      const res = await stack.request(`/api/public/tokens/new?cursor=${bad}`);
      expect([res.status, res.body.error]).toEqual([400, "invalid_cursor"]);
    }
  });

  it("lists graduating (not graduated, by progress) and trending tokens", async () => {
    const grad = await stack.request(`/api/public/token/grad`);
    expect(grad.body.token.graduated).toBe(true);
    expect(grad.body.token.graduation_progress_bps).toBe(10_000);
    const { body } = await stack.request(`/api/public/tokens/graduating?limit=2`);
    const page2 = await stack.request(`/api/public/tokens/graduating?limit=2&cursor=${body.next_cursor}`);
    const list = [...body.tokens, ...page2.body.tokens];
    expect(list.map((t: { slug: string }) => t.slug)).not.toContain("grad");
    expect(list).toHaveLength(3);
    const caps = list.map((t: { market_cap_wei: string }) => BigInt(t.market_cap_wei));
    expect([...caps].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(caps);
    for (const t of list)
      expect(t.graduation_progress_bps).toBe(Number((BigInt(t.market_cap_wei) * 10_000n) / parseEther("4")));
    const trending = await stack.request(`/api/public/tokens/trending?limit=10`);
    const scores = trending.body.tokens.map((t: { trending_score: string }) => BigInt(t.trending_score));
    expect(scores.length).toBe(3); // "pepe-2" never traded
    expect([...scores].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(scores);
    expect(trending.body.tokens[0].slug).toBe("grad");
    // The same ranking pieces on PGlite: a top list holds the tokens trending holds (traded in
    // 24 h), in the order of the records' own window figures.
    const top = await stack.request(`/api/public/tokens/top?window=h24&sort=trades&limit=100`);
    expect(top.status, JSON.stringify(top.body)).toBe(200);
    const counts = top.body.tokens.map(
      (t: { windows: { h24: { buys: number; sells: number } } }) => t.windows.h24.buys + t.windows.h24.sells,
    );
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    const addresses = (list: Array<{ address: string }>) => list.map((t) => t.address).sort();
    expect(addresses(top.body.tokens)).toEqual(addresses(trending.body.tokens));
  });
});

describe("events feed", () => {
  it("returns confirmed events ascending with a cursor that pages through everything", async () => {
    const all = await stack.request(`/api/public/events?limit=500`);
    const ids = all.body.events.map((e: { id: number }) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const kinds = new Set(all.body.events.map((e: { kind: string }) => e.kind));
    expect([...kinds].sort()).toEqual(["big_buy", "graduation", "launch", "trade"]);
    expect(
      all.body.events.filter((e: { kind: string }) => e.kind === "launch").map((e: { token: string }) => e.token),
    ).toEqual(launched.map((t) => t.address));
    // min(head − depth, the indexer's finalized block), which trails the head by 30-59 blocks.
    expect(all.body.confirmed_block).toBeLessThanOrEqual(all.body.head_block - 30);
    expect(all.body.confirmed_block).toBeGreaterThanOrEqual(all.body.head_block - (FINALIZED_DEPTH - 1));
    expect(all.body.next_since_id).toBeLessThan((all.body.confirmed_block + 1) * 1_000_000);
    let since = 0;
    const paged: number[] = [];
    for (;;) {
      const { body } = await stack.request(`/api/public/events?since_id=${since}&limit=2`);
      paged.push(...body.events.map((e: { id: number }) => e.id));
      if (body.events.length === 0) break;
      since = body.next_since_id;
    }
    expect(paged).toEqual(ids);
    const bad = await stack.request(`/api/public/events?since_id=-1`);
    expect([bad.status, bad.body.error]).toEqual([400, "invalid_request"]);
  });
});

describe("token list", () => {
  it("is a valid Uniswap token list with hostile labels sanitised, versioned by its content whatever the limit", async () => {
    const ajv = new Ajv({ allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(tokenListSchema);
    const res = await stack.request(`/token-list/evmchain.json`);
    expect(res.status).toBe(200);
    expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
    expect(res.body.version).toEqual({ major: 1, minor: 4, patch: 0 });
    expect(res.body.tokens.map((t: { address: string }) => t.address)).toEqual(launched.map((t) => t.address));
    const hostile = res.body.tokens[2];
    expect(hostile).toMatchObject({
      name: "Evil <script>&]]> x",
      symbol: "EVIL<&",
      chainId: 4663,
      decimals: 18,
      extensions: { sanitized: true, slug: "ev-il" },
    });
    const small = await stack.request(`/token-list/evmchain.json?limit=2`);
    expect(validate(small.body)).toBe(true);
    expect(small.body.version).toEqual({ major: 1, minor: 4, patch: 0 }); // the same list content, a smaller window
    expect(small.body.tokens.map((t: { address: string }) => t.address)).toEqual(
      launched.slice(2).map((t) => t.address),
    );
    const notModified = await fetch(`${stack.service.url}/token-list/evmchain.json`, {
      headers: { "If-None-Match": res.headers.get("etag")! },
    });
    expect(notModified.status).toBe(304);
  });
});

describe("RSS feeds", () => {
  it("parse with a third-party parser, escape hostile names and honour conditional GET", async () => {
    const expected = {
      "new-launches": launched.map((t) => `launch:${t.address}`).reverse(),
      "big-buys": null,
      graduations: [`graduation:${launched[3]!.address}`],
    } as const;
    for (const [name, guids] of Object.entries(expected)) {
      const res = await fetch(`${stack.service.url}/feed/${name}.xml`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/rss+xml");
      expect(res.headers.get("cache-control")).toMatch(/max-age=\d+/);
      const xml = await res.text();
      expect(XMLValidator.validate(xml)).toBe(true);
      const feed = parseFeed(xml);
      expect(feed.meta.type).toBe("rss");
      expect(feed.title).toMatch(/^evmchain: /);
      expect(feed.self).toBe(
        `${stack.service.url.replace("127.0.0.1", "localhost")}/feed/${name}.xml`.replace(
          /^http:\/\/localhost:\d+/,
          new URL(feed.self!).origin,
        ),
      );
      expect(feed.items.length).toBeGreaterThan(0);
      for (const item of feed.items) {
        expect(item.url).toMatch(/\/token\/0x[0-9a-fA-F]{40}$/);
        expect(item.published).toBeInstanceOf(Date);
      }
      if (guids) expect(feed.items.map((i) => i.id)).toEqual(guids);
      if (name === "new-launches") {
        const hostile = feed.items.find((i) => i.id === `launch:${launched[2]!.address}`)!;
        expect(hostile.title).toBe("Evil <script>&]]> x (EV IL<&) launched");
        expect(xml).not.toMatch(/[\u0000\u202E\u200F]/);
        expect(xml).toContain("Evil &lt;script&gt;&amp;]]&gt; x");
      }
      if (name === "big-buys") {
        // buys of at least 0.05 ETH: Graduate's first buy (0.6) and the 0.06 buy of Pepe
        expect(feed.items.map((i) => i.title)).toEqual([
          "Big buy: 0.06 ETH of Pepe (PEPE)",
          "Big buy: 0.6 ETH of Graduate (GRAD)",
        ]);
      }
      const etag = res.headers.get("etag")!;
      const lastModified = res.headers.get("last-modified")!;
      expect(
        (await fetch(`${stack.service.url}/feed/${name}.xml`, { headers: { "If-None-Match": etag } })).status,
      ).toBe(304);
      expect(
        (await fetch(`${stack.service.url}/feed/${name}.xml`, { headers: { "If-Modified-Since": lastModified } }))
          .status,
      ).toBe(304);
      expect(
        (await fetch(`${stack.service.url}/feed/${name}.xml`, { headers: { "If-None-Match": '"other"' } })).status,
      ).toBe(200);
    }
  });
});

describe("integrations", () => {
  it("serves launches by every sort, token metadata, factories and both partner feeds", async () => {
    const byCap = await stack.request(`/api/public/integrations/evmchain/launches?sort=market_cap&limit=10`);
    const caps = byCap.body.launches.map((t: { market_cap_wei: string }) => BigInt(t.market_cap_wei));
    expect([...caps].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(caps);
    const old = await stack.request(`/api/public/integrations/evmchain/launches?sort=old&limit=10`);
    expect(old.body.launches.map((t: { address: string }) => t.address)).toEqual(launched.map((t) => t.address));
    expect((await stack.request(`/api/public/integrations/evmchain/launches?sort=hot`)).status).toBe(400);

    const meta = await stack.request(
      `/api/public/integrations/evmchain/token-metadata?address=${launched[0]!.address}`,
    );
    expect(meta.body.token).toMatchObject({
      address: launched[0]!.address,
      name: "Pepe",
      symbol: "PEPE",
      decimals: 18,
      slug: "pepe",
      is_default: true,
    });
    expect((await stack.request(`/api/public/integrations/evmchain/token-metadata?address=0x12`)).body.error).toBe(
      "invalid_address",
    );

    const factories = await stack.request(`/api/public/integrations/evmchain/factories`);
    const signature = "TokenLaunched(address,address,address,uint256[],string,string,uint256,uint256,uint256,uint256)";
    expect(factories.body.factories).toEqual([
      expect.objectContaining({
        version: 1,
        address: stack.manifest.contracts.launchFactory,
        start_block: stack.manifest.startBlock,
        launch_event: signature,
        launch_event_topic0: keccak256(toBytes(signature)),
        fee_locker: stack.manifest.contracts.feeLocker,
        pool_fee: 10_000,
      }),
    ]);

    const first = await stack.request(`/api/public/integrations/alpha/evmchain/tokens?orderId=0&limit=3`);
    expect(first.body.tokens.map((t: { orderId: number }) => t.orderId)).toEqual([1, 2, 3]);
    const next = await stack.request(
      `/api/public/integrations/alpha/evmchain/tokens?orderId=${first.body.nextOrderId}&limit=3`,
    );
    expect(next.body.tokens.map((t: { address: string }) => t.address)).toEqual([launched[3]!.address]);
    const end = await stack.request(`/api/public/integrations/alpha/evmchain/tokens?orderId=4`);
    expect([end.body.tokens, end.body.nextOrderId]).toEqual([[], 4]);

    const beta = await stack.request(`/api/public/integrations/beta/evmchain/launches?sort=new&limit=1`);
    expect(beta.body.launches[0]).toMatchObject({ address: launched[3]!.address, graduated: true });
    const status = await stack.request(`/api/public/integrations/beta/evmchain/status?address=${launched[0]!.address}`);
    expect(status.body.status).toMatchObject({
      address: launched[0]!.address,
      launched: true,
      confirmed: true,
      graduated: false,
    });
    expect(
      (
        await stack.request(
          `/api/public/integrations/beta/evmchain/status?address=0x000000000000000000000000000000000000dEaD`,
        )
      ).status,
    ).toBe(404);
  });
});

describe("candles for charting libraries", () => {
  it("answers in the TradingView UDF history shape, with optional gap filling and countback", async () => {
    const pepe = launched[0]!.address;
    const trades = (await stack.request(`/api/public/token/${pepe}/trades?limit=200`)).body.trades;
    const first = trades.at(-1).timestamp_sec;
    const last = trades[0].timestamp_sec;
    const from = first - (first % 60) - 120;
    const to = last - (last % 60) + 120;
    const json = await stack.request(`/api/v1/evmchain/tokens/${pepe}/candles?resolution=1m&from=${from}&to=${to}`);
    const udf = await stack.request(
      `/api/v1/evmchain/tokens/${pepe}/candles?resolution=1&format=udf&from=${from}&to=${to}`,
    );
    expect(udf.status).toBe(200);
    const eth = (wei: string) => Number(formatEther(BigInt(wei)));
    expect(udf.body).toEqual({
      s: "ok",
      t: json.body.candles.map((k: { bucket_start_sec: number }) => k.bucket_start_sec),
      o: json.body.candles.map((k: { open_wei: string }) => eth(k.open_wei)),
      h: json.body.candles.map((k: { high_wei: string }) => eth(k.high_wei)),
      l: json.body.candles.map((k: { low_wei: string }) => eth(k.low_wei)),
      c: json.body.candles.map((k: { close_wei: string }) => eth(k.close_wei)),
      v: json.body.candles.map((k: { volume_wei: string }) => eth(k.volume_wei)),
    });
    const filled = await stack.request(
      `/api/v1/evmchain/tokens/${pepe}/candles?resolution=1&format=udf&from=${from}&to=${to}&fill=1`,
    );
    const starts = json.body.candles.map((k: { bucket_start_sec: number }) => k.bucket_start_sec);
    expect(filled.body.t[0]).toBe(starts[0]);
    expect(filled.body.t.at(-1)).toBe(to);
    for (let i = 1; i < filled.body.t.length; i++) {
      expect(filled.body.t[i] - filled.body.t[i - 1]).toBe(60);
      if (!starts.includes(filled.body.t[i])) {
        expect([filled.body.o[i], filled.body.h[i], filled.body.l[i], filled.body.v[i]]).toEqual([
          filled.body.c[i - 1],
          filled.body.c[i - 1],
          filled.body.c[i - 1],
          0,
        ]);
      }
    }
    const cb = await stack.request(
      `/api/v1/evmchain/tokens/${pepe}/candles?resolution=1&format=udf&to=${to}&countback=2&fill=1`,
    );
    expect(cb.body.t).toEqual([to - 60, to]);
    const none = await stack.request(
      `/api/v1/evmchain/tokens/${pepe}/candles?resolution=1D&format=udf&from=0&to=86400`,
    );
    expect(none.body).toEqual({ s: "no_data" });
    const later = await stack.request(
      `/api/v1/evmchain/tokens/${pepe}/candles?resolution=1&format=udf&from=${to + 600}&to=${to + 1200}`,
    );
    expect(later.body).toEqual({ s: "no_data", nextTime: starts.at(-1) });
    expect((await stack.request(`/api/v1/evmchain/tokens/${pepe}/candles?resolution=1&format=xml`)).status).toBe(400);
  });
});
