/**
 * Row lookups in the indexer's `token` table: by address, slug, symbol and creator, and the
 * existence checks of endpoints that need no figures. One primary-key or index read each; no 24 h
 * figures (those are `market/tokenReads.ts`).
 */
import { asc, eq, inArray, sql } from "ponder";
import type { Address } from "viem";
import * as schema from "../ponder.schema";
import { lower } from "../src/domain/hex";
import type { MarketDb } from "./db";

/** A row of the indexer's `token` table. */
export type TokenRow = typeof schema.token.$inferSelect;

/**
 * The launched token's address if there is one (one primary-key lookup, no 24 h figures): for
 * endpoints that only need to know the token exists (trades, candles).
 * @returns the stored (lowercase) address, or null
 */
export async function findTokenAddress(db: MarketDb, address: Address): Promise<`0x${string}` | null> {
  const rows = await db
    .select({ address: schema.token.address })
    .from(schema.token)
    .where(eq(schema.token.address, lower(address)))
    .limit(1);
  return rows[0]?.address ?? null;
}

/**
 * What a holder page needs of its token (one primary-key lookup): pool, factory, total supply and
 * holder count; null when no launched token has this address.
 */
export async function findTokenHolderFacts(db: MarketDb, address: Address) {
  const t = schema.token;
  const rows = await db
    .select({
      address: t.address,
      pool: t.pool,
      factory: t.factory,
      totalSupply: t.totalSupply,
      holderCount: t.holderCount,
    })
    .from(t)
    .where(eq(t.address, lower(address)))
    .limit(1);
  return rows[0] ?? null;
}

/** The token with this slug, or null. */
export async function findTokenBySlug(db: MarketDb, slug: string): Promise<TokenRow | null> {
  const rows = await db.select().from(schema.token).where(eq(schema.token.slug, slug)).limit(1);
  return rows[0] ?? null;
}

/**
 * The oldest launch with this symbol, compared case-insensitively (symbols are not unique: the
 * first launch keeps a typed symbol, as a chart resolves it; docs/public.md "TradingView datafeed").
 * @example await findTokenBySymbol(db, "alpha") // the row of the first token launched as "ALPHA"
 */
export async function findTokenBySymbol(db: MarketDb, symbol: string): Promise<TokenRow | null> {
  const rows = await db
    .select()
    .from(schema.token)
    .where(sql`lower(${schema.token.symbol}) = lower(${symbol})`)
    .orderBy(asc(schema.token.launchSeq))
    .limit(1);
  return rows[0] ?? null;
}

/** Tokens by address (any order). */
export async function tokensByAddress(db: MarketDb, addresses: `0x${string}`[]): Promise<TokenRow[]> {
  if (addresses.length === 0) return [];
  return db.select().from(schema.token).where(inArray(schema.token.address, addresses));
}

/** Tokens a wallet created, in launch order (bounded by `limit`). */
export async function tokensByCreator(db: MarketDb, creator: `0x${string}`, limit: number): Promise<TokenRow[]> {
  return db
    .select()
    .from(schema.token)
    .where(eq(schema.token.creator, creator))
    .orderBy(asc(schema.token.launchSeq))
    .limit(limit);
}

/**
 * Whether the indexer already has the token's row (its page and read API resolve), waiting up to
 * `waitMs` (polling every 200 ms).
 */
export async function tokenIndexed(db: MarketDb, token: Address, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rows = await db
      .select({ address: schema.token.address })
      .from(schema.token)
      .where(eq(schema.token.address, lower(token)))
      .limit(1);
    if (rows.length > 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
}
