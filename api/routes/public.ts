/**
 * Public read-only surface `/api/public` (spec: Public surface). No authentication.
 */
import { Hono } from "hono";
import { isAddress, getAddress } from "viem";
import { z } from "zod";
import { ApiError } from "../errors";
import { sendOk } from "../json";
import { tokensQuery, tradesQuery } from "../market/params";
import { findToken, newestTokens, recentTrades, tokenTrades, type MarketDb } from "../market/queries";
import { tokenRecord, tradeRecord } from "../market/records";
import { validate } from "../validation";

/** What the public router reads. */
export type PublicDeps = { db: MarketDb; publicBaseUrl: string };

const tokenPath = z.object({ address_or_slug: z.string().min(1).max(100) });

/** Builds the `/api/public` router. */
export function publicRoutes(deps: PublicDeps) {
  async function resolveToken(addressOrSlug: string) {
    // Slugs arrive with the public-surface issue; until then only addresses resolve.
    const row = isAddress(addressOrSlug, { strict: false }) ? await findToken(deps.db, getAddress(addressOrSlug)) : null;
    if (!row) throw new ApiError("token_not_found", `no launched token for "${addressOrSlug}"`);
    return row;
  }
  return (
    new Hono()
      /** GET /api/public/tokens/new?limit= — newest launches first; limit default 20, max 100. */
      .get("/tokens/new", validate("query", tokensQuery), async (c) => {
        const rows = await newestTokens(deps.db, c.req.valid("query").limit);
        return sendOk(c, { tokens: rows.map((r) => tokenRecord(r, deps.publicBaseUrl)) });
      })
      /** GET /api/public/token/{address_or_slug} — one token record; 404 `token_not_found`. */
      .get("/token/:address_or_slug", validate("param", tokenPath), async (c) => {
        const row = await resolveToken(c.req.valid("param").address_or_slug);
        return sendOk(c, { token: tokenRecord(row, deps.publicBaseUrl) });
      })
      /** GET /api/public/token/{address_or_slug}/trades?limit= — newest first; default 50, max 200. */
      .get("/token/:address_or_slug/trades", validate("param", tokenPath), validate("query", tradesQuery), async (c) => {
        const row = await resolveToken(c.req.valid("param").address_or_slug);
        const rows = await tokenTrades(deps.db, getAddress(row.address), c.req.valid("query").limit);
        return sendOk(c, { token: getAddress(row.address), trades: rows.map(tradeRecord) });
      })
      /** GET /api/public/trades/recent?limit= — trades of every launched token, newest first. */
      .get("/trades/recent", validate("query", tradesQuery), async (c) => {
        const rows = await recentTrades(deps.db, c.req.valid("query").limit);
        return sendOk(c, { trades: rows.map(tradeRecord) });
      })
  );
}
