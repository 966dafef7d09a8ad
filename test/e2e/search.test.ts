/**
 * End to end, token search (`GET /api/public/search`, docs/public.md "Search") through the real
 * service on PostgreSQL: ranking tiers, LIKE wildcards taken literally, address prefixes, bad
 * input, tsquery syntax in user text, the UDF datafeed's `/search` on the same ranking, and the indexes the prefix tiers rely
 * on (each tier's SQL shape must be an index scan once sequential scans are priced out, so a
 * dropped or unusable index fails here rather than at 100,000 tokens).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress, parseEther, type Address } from "viem";
import { launchToken } from "../../devnet/actions";
import { startStack, until, type Stack } from "../helpers/harness";
import { postgresAvailable } from "../helpers/postgres";

const available = await postgresAvailable();
let stack: Stack;
const tokens: Record<string, Address> = {};

/** Launches, in order; the first buys set market caps so that ties within a tier have an order. */
const LAUNCHES = [
  { name: "Pepe", symbol: "PEPE", firstBuyWei: parseEther("0.01") },
  { name: "Super Pepe", symbol: "SPEPE", firstBuyWei: parseEther("0.02") },
  { name: "Pepper Coin", symbol: "PEPR", firstBuyWei: parseEther("0.05") },
  { name: "Frog 50%_off", symbol: "FROG", firstBuyWei: 0n },
  { name: "Dog", symbol: "DOGE", firstBuyWei: 0n },
];

type Hit = { address: string; symbol: string; match: string };
const search = async (q: string, extra = "") => stack.request(`/api/public/search?q=${encodeURIComponent(q)}${extra}`);
const hits = async (q: string) => {
  const res = await search(q);
  expect(res.status).toBe(200);
  return (res.body.tokens as Hit[]).map((t) => `${t.symbol}:${t.match}`);
};

describe.skipIf(!available)("token search", () => {
  beforeAll(async () => {
    stack = await startStack({
      schema: "e2e_search",
      database: "postgres",
      env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000" },
    });
    for (const [i, launch] of LAUNCHES.entries()) {
      const launched = await launchToken(stack.wallet(1 + i), stack.publicClient, stack.manifest, launch);
      tokens[launch.symbol] = getAddress(launched.event.token);
    }
    await until(
      "launches indexed",
      async () => {
        const { body } = await stack.request(`/api/public/tokens/new?limit=100`);
        return body.ok && body.tokens.length === LAUNCHES.length ? true : undefined;
      },
      60_000,
    );
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("ranks an exact symbol first, then symbol and name prefixes, then word prefixes", async () => {
    expect(await hits("pepe")).toEqual(["PEPE:symbol", "SPEPE:word_prefix"]);
    // Within a tier, the higher market cap first (PEPR's first buy is larger than PEPE's).
    expect(await hits("PEP")).toEqual(["PEPR:symbol_prefix", "PEPE:symbol_prefix", "SPEPE:word_prefix"]);
    expect(await hits("coin")).toEqual(["PEPR:word_prefix"]);
    // Every word of the query must start a word of the name or symbol.
    expect(await hits("super pe")).toEqual(["SPEPE:name_prefix"]);
    expect(await hits("pe super")).toEqual(["SPEPE:word_prefix"]);
    expect(await hits("pe zzz")).toEqual([]);
    expect(await hits("super")).toEqual(["SPEPE:name_prefix"]);
    expect(await hits("  Dog ")).toEqual(["DOGE:symbol_prefix"]);
    // Each token once, at its best tier; the record is the full token record.
    const res = await search("pepper");
    expect(res.body.tokens).toHaveLength(1);
    expect(res.body.tokens[0]).toMatchObject({
      address: tokens.PEPR,
      symbol: "PEPR",
      name: "Pepper Coin",
      match: "name_prefix",
    });
    expect(res.body.query).toBe("pepper");
  });

  it("takes LIKE wildcards and full-text syntax literally", async () => {
    // As wildcards, "fro%" and "d_g" would be symbol prefixes of FROG and DOGE.
    expect(await hits("fro%")).toEqual(["FROG:word_prefix"]);
    expect(await hits("d_g")).toEqual([]);
    expect(await hits("%")).toEqual([]);
    expect(await hits("_")).toEqual([]);
    expect(await hits("frog 50%_off")).toEqual(["FROG:name_prefix"]);
    // tsquery operators in user text are separators, never syntax.
    expect(await hits("pe | zzz")).toEqual([]);
    expect(await hits("!pepe")).toEqual(["SPEPE:word_prefix", "PEPE:word_prefix"]);
    expect(await hits("pep:* & (")).toEqual(["PEPR:word_prefix", "SPEPE:word_prefix", "PEPE:word_prefix"]);
  });

  it("finds a token by an address prefix of 6 or more hex digits, in any case", async () => {
    const address = tokens.FROG!;
    expect(await hits(address.slice(0, 8).toLowerCase())).toContain("FROG:address");
    expect(await hits(address.toUpperCase().replace("0X", "0x"))).toEqual(["FROG:address"]);
    // Shorter prefixes are not address searches.
    expect((await hits(address.slice(0, 6))).filter((h) => h.endsWith(":address"))).toEqual([]);
  });

  it("bounds the page with limit", async () => {
    expect(await hits("pep")).toHaveLength(3);
    const one = await search("pep", "&limit=1");
    expect(one.body.tokens.map((t: Hit) => t.symbol)).toEqual(["PEPR"]);
  });

  it("refuses bad input with a catalogued error", async () => {
    for (const [path, message] of [
      ["/api/public/search", /q: missing/],
      ["/api/public/search?q=", /q must not be empty/],
      ["/api/public/search?q=%20%20", /q must not be empty/],
      [`/api/public/search?q=${"a".repeat(65)}`, /q must be at most 64 characters/],
      ["/api/public/search?q=pep&limit=0", /limit must be at least 1/],
      ["/api/public/search?q=pep&limit=51", /limit must be at most 50/],
    ] as const) {
      const res = await stack.request(path);
      expect({ path, status: res.status, ok: res.body.ok, error: res.body.error }).toEqual({
        path,
        status: 400,
        ok: false,
        error: "invalid_request",
      });
      expect(res.body.message).toMatch(message);
    }
  });

  it("serves the same ranking to the UDF datafeed's /search", async () => {
    const res = await stack.request(`/api/public/udf/search?query=pep&limit=10`);
    expect(res.status).toBe(200);
    expect(res.body.map((r: { symbol: string }) => r.symbol)).toEqual(["PEPR", "PEPE", "SPEPE"]);
  });

  it("answers the prefix tiers from indexes (sequential scans priced out)", async () => {
    const client = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
    await client.connect();
    try {
      await client.query("set enable_seqscan = off");
      await client.query(`set search_path = "${stack.schema}"`);
      const plan = async (where: string) =>
        (await client.query(`explain select * from token where ${where}`)).rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(await plan(`lower(symbol) like 'pep%'`)).toContain("token_symbol_search_idx");
      expect(await plan(`lower(name) like 'pep%'`)).toContain("token_name_search_idx");
      expect(await plan(`slug like 'pep%'`)).toContain("token_slug_search_idx");
      expect(await plan(`slug = 'pepe'`)).toContain("token_slug_search_idx");
      expect(
        await plan(
          `to_tsvector('simple'::regconfig, name || ' ' || symbol) @@ to_tsquery('simple'::regconfig, 'pep:*')`,
        ),
      ).toContain("token_word_search_idx");
      expect(await plan(`address >= '0xabcdef' and address < '0xabcdefg'`)).toMatch(
        /Index.*token_pkey|Index.*address/i,
      );
    } finally {
      await client.end();
    }
  });
});
