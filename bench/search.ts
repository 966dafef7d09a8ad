/**
 * Search benchmark: `searchTokens` (`market/search.ts`, the query behind
 * `GET /api/public/search`) at 100,000 tokens on PostgreSQL.
 *
 * Set-up: the real stack on PostgreSQL (`test/helpers/harness.ts`) indexes one real launch; its `token`
 * row is then copied 100,000 times inside the database with synthetic addresses, names, symbols,
 * slugs and market caps (three syllables drawn from a fixed list by `md5(i)`, so names share
 * prefixes the way real ones do), and the table is analysed. A launch history of 100,000 tokens
 * would take hours to index; the rows are what the query reads, and they have the indexer's exact
 * shape because they are copies of its row.
 *
 * Each query kind runs `--runs` times (after 20 warm-up runs): an exact symbol, 2- and 3-character
 * prefixes, a full name, the name's second word (the word tier), an address prefix, and text that
 * matches nothing (the worst case: every tier runs). Baseline, in the same run: a primary-key
 * lookup of one token row. Then the four search indexes are dropped and every kind runs again, to
 * show what the indexes buy.
 *
 * Usage: `npm run bench -- search [--tokens 100000] [--runs 200]`.
 * Result: `bench/results/latest/search.json` (milliseconds; ratios = p50 of a kind / p50 of the baseline).
 */
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { eq } from "drizzle-orm";
import { parseEther } from "viem";
import * as schema from "../ponder.schema";
import type { MarketDb } from "../market/db";
import { writeLatestResult } from "./latest";
import { searchTokens } from "../market/search";
import { launchToken } from "../devnet/actions";
import { startStack, until } from "../test/helpers/harness";
import { percentile } from "./stats";
import { parseBenchFlags } from "./harness";

const values = parseBenchFlags("search", {
  tokens: { type: "string", default: "100000" },
  runs: { type: "string", default: "200" },
});
const tokenCount = Number(values.tokens);
const runs = Number(values.runs);
const SYLLABLES = [
  "pe",
  "po",
  "mo",
  "ka",
  "zu",
  "ri",
  "do",
  "ge",
  "la",
  "ne",
  "to",
  "bi",
  "sha",
  "kun",
  "mar",
  "fro",
  "dog",
  "cat",
  "moon",
  "chad",
];

/** Times `fn` `runs` times after a warm-up; milliseconds. */
async function timeIt(fn: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 20; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return { p50: percentile(samples, 0.5)!, p99: percentile(samples, 0.99)! };
}

const stack = await startStack({ schema: "bench_search", database: "postgres" });
const pool = new pg.Pool({
  connectionString: stack.serviceEnv.DATABASE_URL,
  options: `-c search_path="${stack.schema}"`,
  max: 2,
});
try {
  const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
    name: "Template",
    symbol: "TMPL",
    firstBuyWei: parseEther("0.01"),
  });
  const template = launched.event.token.toLowerCase();
  await until(
    "template indexed",
    async () => ((await stack.request(`/api/public/token/${template}`)).status === 200 ? true : undefined),
    60_000,
  );

  // Copies of the indexer's row: every column as the template's, except identity, text and market cap.
  const columns = (
    await pool.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_schema = $1 and table_name = 'token' order by ordinal_position`,
      [stack.schema],
    )
  ).rows.map((r) => r.column_name);
  const syllable = (n: number) =>
    `(array[${SYLLABLES.map((s) => `'${s}'`).join(",")}])[1 + ('x' || substr(md5(i::text), ${n}, 2))::bit(8)::int % ${SYLLABLES.length}]`;
  const word = `${syllable(1)} || ${syllable(3)} || ${syllable(5)}`;
  const overrides: Record<string, string> = {
    address: `'0x' || lpad(to_hex(i), 8, '0') || substr(md5(i::text), 1, 32)`,
    launch_seq: `t.launch_seq + i`,
    slug: `(${word}) || '-' || i`,
    name: `initcap(${word}) || ' ' || initcap(${syllable(7)} || ${syllable(9)})`,
    symbol: `upper(${word})`,
    market_cap_wei: `(('x' || substr(md5(i::text), 11, 12))::bit(48)::bigint)::numeric(78,0)`,
  };
  const select = columns.map((c) => overrides[c] ?? `t."${c}"`).join(", ");
  const t0 = performance.now();
  // Ponder's triggers (live queries, reorg log) are for rows it writes; these copies skip them.
  const filler = await pool.connect();
  try {
    await filler.query("set session_replication_role = replica");
    await filler.query(
      `insert into token (${columns.map((c) => `"${c}"`).join(", ")}) select ${select} from token t, generate_series(1, ${tokenCount}) i where t.address = $1`,
      [template],
    );
  } finally {
    await filler.query("reset session_replication_role");
    filler.release();
  }
  await pool.query("analyze token");
  const fillSec = (performance.now() - t0) / 1000;

  const db = drizzle(pool, { schema }) as unknown as MarketDb;
  const sample = (
    await pool.query<{ address: string; symbol: string; name: string }>(
      `select address, symbol, name from token where launch_seq = (select max(launch_seq) / 2 from token)`,
    )
  ).rows[0]!;
  const kinds: Record<string, () => Promise<unknown>> = {
    symbol_exact: () => searchTokens(db, sample.symbol, 10),
    prefix_2: () => searchTokens(db, sample.symbol.slice(0, 2), 10),
    prefix_3: () => searchTokens(db, sample.symbol.slice(0, 3), 10),
    full_name: () => searchTokens(db, sample.name, 10),
    second_word: () => searchTokens(db, sample.name.split(" ")[1]!, 10),
    address_prefix: () => searchTokens(db, sample.address.slice(0, 10), 10),
    no_match: () => searchTokens(db, "zzqqx", 10),
  };
  const baseline = () =>
    db
      .select()
      .from(schema.token)
      .where(eq(schema.token.address, sample.address as `0x${string}`))
      .limit(1);

  const measure = async () => {
    const base = await timeIt(baseline);
    const out: Record<string, { p50Ms: number; p99Ms: number; ratioP50: number }> = {};
    for (const [kind, fn] of Object.entries(kinds)) {
      const t = await timeIt(fn);
      out[kind] = { p50Ms: round(t.p50), p99Ms: round(t.p99), ratioP50: round(t.p50 / base.p50) };
    }
    return { baseline: { p50Ms: round(base.p50), p99Ms: round(base.p99) }, kinds: out };
  };
  const indexed = await measure();
  for (const name of [
    "token_symbol_search_idx",
    "token_name_search_idx",
    "token_slug_search_idx",
    "token_word_search_idx",
  ])
    await pool.query(`drop index "${name}"`);
  const withoutIndexes = await measure();

  const result = {
    benchmark: "search",
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, loadavg: loadavg() },
    tokens: tokenCount + 1,
    runs,
    fillSec: round(fillSec),
    indexed,
    withoutIndexes,
  };
  writeLatestResult("search", result);
  console.log(JSON.stringify(result, null, 2));
} finally {
  await pool.end();
  await stack.stop();
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
