/**
 * The token half of the public surface `/api/public` (docs/public.md): token lists, search, one
 * token, and a token's holders, trades and candles (the rankings by activity windows are
 * `publicRankings.ts`). No authentication.
 */
import { Hono } from "hono";
import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { lower } from "../../src/domain/hex";
import { isSlugShaped } from "../../src/domain/slug";
import { ApiError } from "../errors";
import { sendOk } from "../json";
import { candlesResponse } from "../market/candlesResponse";
import type { MarketReadDeps } from "../../market/readDeps";
import { holderList, holderPosition, tokenDetail } from "../../market/holders";
import { candlesQuery, issuedCursorParam, tokenBatchQuery } from "../market/params";
import { SEARCH_MAX_CHARS, SEARCH_TIERS, searchTokens } from "../../market/search";
import {
  findToken,
  findTokenRecordBySlug,
  findTokens,
  itemsAtOneBlock,
  TOKEN_BATCH_MAX,
  tokenListPage,
} from "../../market/tokenReads";
import { findTokenAddress, findTokenBySlug } from "../../market/tokenLookups";
import { tokenRecord } from "../../market/tokenRecord";
import { tradeListPage } from "../../market/tradeQueries";
import { tradeRecord } from "../../market/tradeRecord";
import { documented } from "../openapi/describe";
import { addressWire, okBody, uintString } from "../../src/domain/wire";
import { tokenBatchBody, tokenPage as tokenPageWire, tokenWire, tradePage as tradePageWire } from "../../market/wire";
import { candlesDoc, holderListDoc, integrityDoc, tokenDetailDoc } from "../openapi/tokenDocs";
import { tokenIntegrity } from "../../market/integrity";
import { limitParam, validate } from "../validation";

/** What the token routes read (the deployment's fee locker and position manager label holders). */
export type PublicTokenDeps = MarketReadDeps;

const tokenPath = z.object({
  address_or_slug: z.string().min(1).max(100, "must be a token address or a slug of at most 100 characters"),
});
const tokenListQuery = z.object({ limit: limitParam(20, 100), cursor: issuedCursorParam });
const holderListQuery = z.object({ limit: limitParam(50, 200), cursor: issuedCursorParam });
/** Trade lists (one token's, and every token's in `publicActivity.ts`). */
export const tradeListQuery = z.object({ limit: limitParam(50, 200), cursor: issuedCursorParam });
const searchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, "q must not be empty")
    .max(SEARCH_MAX_CHARS, `q must be at most ${SEARCH_MAX_CHARS} characters`),
  limit: limitParam(10, 50),
});

/** Builds the token routes of `/api/public`. */
export function publicTokenRoutes(deps: PublicTokenDeps) {
  const { db, nowSec } = deps;
  const listTokens = async (opts: Omit<Parameters<typeof tokenListPage>[2], "limit"> & { limit: number }) => {
    const page = await tokenListPage(db, nowSec(), opts, deps.storedMetadata);
    return { tokens: page.rows.map((r) => tokenRecord(r, deps)), next_cursor: page.next_cursor };
  };

  /** Address (any case) or slug -> token row; 404 `token_not_found` otherwise. */
  async function resolveToken(addressOrSlug: string) {
    let row = null;
    if (isAddress(addressOrSlug, { strict: false }))
      row = await findToken(db, getAddress(addressOrSlug), nowSec(), deps.storedMetadata);
    else if (isSlugShaped(addressOrSlug))
      row = await findTokenRecordBySlug(db, addressOrSlug, nowSec(), deps.storedMetadata);
    if (!row) throw new ApiError("token_not_found", `no launched token for "${addressOrSlug}"`);
    return row;
  }

  /** Address (any case) or slug -> the token's checksummed address, without its 24 h figures; 404 otherwise. */
  async function resolveTokenAddress(addressOrSlug: string): Promise<`0x${string}`> {
    let address: string | null = null;
    if (isAddress(addressOrSlug, { strict: false })) address = await findTokenAddress(db, getAddress(addressOrSlug));
    else if (isSlugShaped(addressOrSlug)) address = (await findTokenBySlug(db, addressOrSlug))?.address ?? null;
    if (!address) throw new ApiError("token_not_found", `no launched token for "${addressOrSlug}"`);
    return getAddress(address);
  }

  return (
    new Hono()
      .get(
        "/tokens/new",
        documented({
          tag: "public",
          summary: "Newest launches first",
          ok: tokenPageWire,
          errors: ["invalid_request", "invalid_cursor"],
        }),
        validate("query", tokenListQuery),
        async (c) => {
          const { limit, cursor } = c.req.valid("query");
          return sendOk(c, await listTokens({ sort: "new", limit, cursor }));
        },
      )
      // Batch reads: docs/public.md "Batch reads".
      .get(
        "/tokens",
        documented({
          tag: "public",
          summary: `Token records of up to ${TOKEN_BATCH_MAX} addresses in one call, in the order asked, unknown ones as found: false`,
          description:
            `\`addresses\`: 1 to ${TOKEN_BATCH_MAX} comma-separated addresses, no duplicates. One item per address, in ` +
            "the order asked: `found: false` and `token: null` for an address with no launched token (never a 404 " +
            "for the call). Each record is the token record of the lists (no `top_holders`). Cached and validated " +
            "(ETag) like the other market reads.",
          ok: tokenBatchBody,
          errors: ["invalid_request", "invalid_address"],
        }),
        validate("query", tokenBatchQuery),
        async (c) => {
          const { addresses } = c.req.valid("query");
          const rows = await findTokens(db, addresses, nowSec(), deps.storedMetadata);
          return sendOk(c, {
            tokens: addresses.map((address, i) => {
              const row = rows[i] ?? null;
              return { address, found: row !== null, token: row ? tokenRecord(row, deps) : null };
            }),
          });
        },
      )
      // Closest to graduation: market cap descending, then newer launch.
      .get(
        "/tokens/graduating",
        documented({
          tag: "public",
          summary: "Tokens not yet graduated, closest to graduation first",
          ok: tokenPageWire,
          errors: ["invalid_request", "invalid_cursor"],
        }),
        validate("query", tokenListQuery),
        async (c) => {
          const { limit, cursor } = c.req.valid("query");
          return sendOk(c, await listTokens({ sort: "market_cap", limit, cursor, onlyNotGraduated: true }));
        },
      )
      // Ranking: `market/search.ts`, docs/public.md "Search".
      .get(
        "/search",
        documented({
          tag: "public",
          summary: "Search tokens by address prefix, symbol, name or slug, ranked",
          ok: okBody({ query: z.string(), tokens: z.array(tokenWire.extend({ match: z.enum(SEARCH_TIERS) })) }),
          errors: ["invalid_request"],
        }),
        validate("query", searchQuery),
        async (c) => {
          const { q, limit } = c.req.valid("query");
          const hits = await itemsAtOneBlock(
            db,
            nowSec(),
            (tx) => searchTokens(tx, q, limit),
            (h) => h.row,
            deps.storedMetadata,
          );
          return sendOk(c, {
            query: q,
            tokens: hits.map(({ item, token }) => ({ ...tokenRecord(token, deps), match: item.match })),
          });
        },
      )
      .get(
        "/token/:address_or_slug",
        documented(
          tokenDetailDoc("public", "One token record by address or slug, with its top holders", [
            "invalid_request",
            "token_not_found",
          ]),
        ),
        validate("param", tokenPath),
        async (c) => {
          const row = await resolveToken(c.req.valid("param").address_or_slug);
          return sendOk(c, { token: await tokenDetail(db, row, deps) });
        },
      )
      // Source: token_integrity and the holder index (docs/public.md "Launch integrity").
      .get(
        "/token/:address_or_slug/integrity",
        documented(integrityDoc("public", ["invalid_request", "token_not_found"])),
        validate("param", tokenPath),
        async (c) => {
          const address = await resolveTokenAddress(c.req.valid("param").address_or_slug);
          const integrity = await tokenIntegrity(db, address, deps);
          if (!integrity) throw new ApiError("token_not_found", `no launched token at ${address}`);
          return sendOk(c, { integrity });
        },
      )
      // Source: the tokens' `HolderBalances` events (docs/public.md "Holders").
      .get(
        "/token/:address_or_slug/holders",
        documented(holderListDoc("public", ["invalid_request", "invalid_cursor", "token_not_found"])),
        validate("param", tokenPath),
        validate("query", holderListQuery),
        async (c) => {
          const address = await resolveTokenAddress(c.req.valid("param").address_or_slug);
          const { limit, cursor } = c.req.valid("query");
          const after = cursor ? holderPosition(cursor) : undefined;
          return sendOk(c, await holderList(db, address, limit, after, deps.deployment));
        },
      )
      .get(
        "/token/:address_or_slug/trades",
        documented({
          tag: "public",
          summary: "A token's trades, newest first",
          ok: tradePageWire.extend({ token: addressWire }),
          errors: ["invalid_request", "invalid_cursor", "token_not_found"],
        }),
        validate("param", tokenPath),
        validate("query", tradeListQuery),
        async (c) => {
          const address = await resolveTokenAddress(c.req.valid("param").address_or_slug);
          const { limit, cursor } = c.req.valid("query");
          const page = await tradeListPage(db, { limit, cursor, token: lower(address) });
          return sendOk(c, { token: address, trades: page.rows.map(tradeRecord), next_cursor: page.next_cursor });
        },
      )
      // The v1 candles answer without a key (the token page's chart reads it), `format=udf` too.
      .get(
        "/token/:address_or_slug/candles",
        documented(candlesDoc("public", "A token's OHLCV candles, oldest first (as the v1 candles endpoint)", "")),
        validate("param", tokenPath),
        validate("query", candlesQuery),
        async (c) => {
          const address = await resolveTokenAddress(c.req.valid("param").address_or_slug);
          return candlesResponse(c, db, address, c.req.valid("query"), nowSec());
        },
      )
  );
}
