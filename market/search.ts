/**
 * Token search over name, symbol, slug and address prefix, ranked (consumers expect a
 * search box; docs/public.md "Search").
 *
 * Ranking (lower is better), one row per token at its best tier; within a tier, higher market
 * cap first, then the newer launch:
 *   0 `address`        — the address, or an address prefix of at least 6 hex digits after `0x`
 *   1 `symbol`         — the symbol equals the query (case-insensitive)
 *   2 `symbol_prefix`  — the symbol starts with the query
 *   3 `name_prefix`    — the name starts with the query
 *   4 `slug_prefix`    — the slug starts with the query
 *   5 `word_prefix`    — every word of the query starts a word of the name or symbol
 *                        ("pepe" finds "Super Pepe"; words are runs of letters and digits)
 *
 * An address-shaped query (`0x` + hex) is answered by tier 0 alone.
 *
 * Index use, so that every tier stays an index read at 100,000 tokens (bench/search.ts): tiers
 * 1-4 are prefix ranges on the expression indexes `lower(symbol)`, `lower(name)` and on `slug`
 * (operator class `text_pattern_ops`, so `LIKE 'q%'` is an index range in any collation); tier 0
 * is a range on the primary key; tier 5 is a full-text prefix query on a GIN index of
 * `to_tsvector('simple', name || ' ' || symbol)`.
 */
import { and, asc, desc, sql, type SQL } from "drizzle-orm";
import * as schema from "../ponder.schema";
import type { MarketDb } from "./db";

/** Row of Ponder's `token` table. */
type TokenRow = typeof schema.token.$inferSelect;

/** Why a token matched; the names above, in rank order. */
export const SEARCH_TIERS = [
  "address",
  "symbol",
  "symbol_prefix",
  "name_prefix",
  "slug_prefix",
  "word_prefix",
] as const;
export type SearchTier = (typeof SEARCH_TIERS)[number];

/** One ranked hit. */
export type SearchHit = { row: TokenRow; match: SearchTier };

/** Longest query, in characters after trimming (`GET /api/public/search` refuses longer ones). */
export const SEARCH_MAX_CHARS = 64;
/** At most this many query words reach the word tier. */
export const MAX_QUERY_WORDS = 8;
/** Hex digits after `0x` an address prefix needs (shorter prefixes match too many tokens to mean anything). */
const ADDRESS_PREFIX_MIN_HEX = 6;

/**
 * Escapes `LIKE` wildcards so user text matches literally (the default escape character `\`).
 * @example likeLiteral("50%_off") // "50\\%\\_off"
 */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/**
 * The query's words as a `simple` full-text prefix query: runs of letters and digits, each
 * matched as a word prefix, all required. Only letters and digits reach `to_tsquery`, so its
 * syntax characters in user text never take effect.
 * @returns the tsquery text, or null when the query has no word
 * @example wordPrefixQuery("Super pe!") // "super:* & pe:*"
 */
export function wordPrefixQuery(text: string): string | null {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_QUERY_WORDS);
  return words.length === 0 ? null : words.map((w) => `${w}:*`).join(" & ");
}

/**
 * Searches launched tokens, ranked as the module docs say.
 * @param db - the indexer's read-only handle
 * @param query - the user's text, trimmed, 1-64 characters (validated by the route)
 * @param limit - at most this many hits
 * @param maxLaunchBlock - when given, only tokens launched at or below this block (the served head)
 * @returns hits, best first, each token once
 */
export async function searchTokens(
  db: MarketDb,
  query: string,
  limit: number,
  maxLaunchBlock?: bigint,
): Promise<SearchHit[]> {
  const q = query.trim().toLowerCase();
  const tk = schema.token;
  const served = maxLaunchBlock === undefined ? undefined : sql`${tk.launchBlockNumber} <= ${maxLaunchBlock}`;
  const byMarketCap = [desc(tk.marketCapWei), desc(tk.launchSeq)];
  const hits = new Map<string, SearchHit>();
  const take = (rows: TokenRow[], match: SearchTier) => {
    for (const row of rows) if (!hits.has(row.address) && hits.size < limit) hits.set(row.address, { row, match });
  };
  const tier = (where: SQL | undefined) =>
    db
      .select()
      .from(tk)
      .where(and(where, served))
      .orderBy(...byMarketCap)
      .limit(limit);

  if (/^0x[0-9a-f]*$/.test(q)) {
    if (q.length < 2 + ADDRESS_PREFIX_MIN_HEX || q.length > 42) return [];
    // Hex strings of one case sort as their characters in every collation; "g" follows "f" and the
    // digits. Raw parameters: the hex column's driver mapping pads odd-length values ("0xabc" -> "0x0abc").
    const rows = await db
      .select()
      .from(tk)
      .where(and(sql`${tk.address} >= ${q}`, sql`${tk.address} < ${`${q}g`}`, served))
      .orderBy(asc(tk.address))
      .limit(limit);
    take(rows, "address");
    return [...hits.values()];
  }
  const prefix = `${likeLiteral(q)}%`;
  if (hits.size < limit) take(await tier(sql`lower(${tk.symbol}) = ${q}`), "symbol");
  if (hits.size < limit) take(await tier(sql`lower(${tk.symbol}) like ${prefix}`), "symbol_prefix");
  if (hits.size < limit) take(await tier(sql`lower(${tk.name}) like ${prefix}`), "name_prefix");
  if (hits.size < limit) take(await tier(sql`${tk.slug} like ${prefix}`), "slug_prefix");
  const words = wordPrefixQuery(q);
  if (hits.size < limit && words !== null) {
    take(
      await tier(
        sql`to_tsvector('simple'::regconfig, ${tk.name} || ' ' || ${tk.symbol}) @@ to_tsquery('simple'::regconfig, ${words})`,
      ),
      "word_prefix",
    );
  }
  return [...hits.values()];
}
