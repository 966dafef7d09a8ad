/**
 * What the browser pages read (docs/pages.md), behind one seam: the pages router (`pages/routes.tsx`)
 * gets these reads from `createApp` and imports no query module, presenter or launch constant.
 * Every token, trade and holder comes back exactly as the public API serves it: one presenter, one
 * serialisation rule (`jsonValue`: bigints as decimal strings), in the wire shapes of `market/wire.ts`.
 */
import { formatEther, type Address, type PublicClient } from "viem";
import type { z } from "zod";
import { launchFactoryAbi } from "../abis/LaunchFactory";
import type { Deployment } from "../config/deployment";
import type { PublicConfig } from "../config/public";
import { jsonValue } from "../src/domain/json";
import { DEFAULT_SLIPPAGE_BPS, MAX_FIRST_BUY_WEI, MAX_SLIPPAGE_BPS } from "../src/domain/launchBounds";
import type { MetadataSource } from "./metadata";
import { encodeCursor } from "./cursor";
import type { MarketDb } from "./db";
import { TOP_HOLDERS, topHolders } from "./holders";
import { SEARCH_MAX_CHARS, searchTokens } from "./search";
import { findToken, tokensAtOneBlock } from "./tokenReads";
import { findTokenBySlug } from "./tokenLookups";
import { tokenPage } from "./tokenLists";
import { trendingTokens } from "./tokenRankings";
import type { TokenRow } from "./tokenLookups";
import { tokenRecord } from "./tokenRecord";
import { tradePage } from "./tradeQueries";
import { tradeRecord } from "./tradeRecord";
import type { holderWire, tokenWire, tradeWire } from "./wire";
import { SOURCE_TIMEOUT_MS, withTimeout } from "./timeout";

/** A token record as `GET /api/public/token/{address}` serves it (JSON). */
export type TokenJson = z.infer<typeof tokenWire>;
/** A trade record as `GET /api/public/trades` serves it (JSON). */
export type TradeJson = z.infer<typeof tradeWire>;
/** A holder record as the token detail's `top_holders` serves it (JSON). */
export type HolderJson = z.infer<typeof holderWire>;

/** The home page's search: the query as typed (trimmed), its matches, or a message in words instead. */
export type PageSearch = { query: string; tokens: TokenJson[]; message?: string };

/** Everything the token page shows that comes from the index. */
export type TokenPageData = {
  token: TokenJson;
  /** The 50 newest trades, newest first. */
  trades: TradeJson[];
  /** The {@link TOP_HOLDERS} largest holders; null when the holder read failed (the page says so). */
  holders: HolderJson[] | null;
  /** The holder list's cursor after the last holder shown, when more holders exist; else null. */
  holdersNextCursor: string | null;
};

/** The bounds the launch form states, in the intent schema's limits. */
export type LaunchFormLimits = {
  /** The factory's live minimum pool liquidity in ETH (decimal string); null when the RPC did not answer in time. */
  minimumLiquidityEth: string | null;
  maxSlippageBps: number;
  defaultSlippageBps: number;
  /** Largest first buy in ETH (decimal string). */
  maxFirstBuyEth: string;
};

/** The reads of the browser pages (built once per app by {@link pageReads}). */
export type PageReads = {
  /** The `limit` newest launches (`/api/public/tokens/new`). */
  newestTokens(limit: number): Promise<TokenJson[]>;
  /** The `limit` highest trending scores over the last 24 h at `nowSec` (`/api/public/tokens/trending`). */
  trendingTokens(nowSec: number, limit: number): Promise<TokenJson[]>;
  /** The `limit` not yet graduated tokens with the highest market cap (`/api/public/tokens/graduating`). */
  graduatingTokens(limit: number): Promise<TokenJson[]>;
  /**
   * The search of the home page, ranked as `GET /api/public/search` (at most 20 matches); a query
   * over `SEARCH_MAX_CHARS` characters gets a message instead of a refusal.
   * @returns undefined for an empty (or absent) query
   */
  search(raw: string | undefined): Promise<PageSearch | undefined>;
  /** The address of the token with this slug, or null. */
  tokenAddressBySlug(slug: string): Promise<Address | null>;
  /** The token page's data for this (checksummed) address, or null when no token launched there. */
  tokenPage(address: Address): Promise<TokenPageData | null>;
  /** The launch form's bounds (one factory read, bounded by `SOURCE_TIMEOUT_MS`). */
  launchFormLimits(): Promise<LaunchFormLimits>;
};

/** What {@link pageReads} reads from (each built once by `createApp`). */
export type PageReadsDeps = {
  db: MarketDb;
  publicBaseUrl: string;
  publicConfig: PublicConfig;
  deployment: Deployment;
  publicClient: PublicClient;
  /** Clock, unix seconds (24 h figures). */
  nowSec: () => number;
  /** Creator metadata of confirmed launches (`storedMetadataSource`). */
  storedMetadata: MetadataSource;
};

/** Longest token page trade list. */
const TOKEN_PAGE_TRADES = 50;
/** Most matches the home page's search shows. */
const SEARCH_HITS = 20;

/**
 * Builds the pages' reads over the indexer's tables, the store's creator metadata and the chain.
 * @example const reads = pageReads(deps); (await reads.tokenPage(address))?.token.symbol // "PEPE"
 */
export function pageReads(deps: PageReadsDeps): PageReads {
  /**
   * Token rows as the public API serves them: read by `select` and given their figures in one
   * snapshot (`tokensAtOneBlock`), one presenter, one serialisation.
   */
  const records = async (select: (tx: MarketDb) => Promise<TokenRow[]>, nowSec = deps.nowSec()): Promise<TokenJson[]> =>
    jsonValue(
      (await tokensAtOneBlock(deps.db, nowSec, select, deps.storedMetadata)).map((r) => tokenRecord(r, deps)),
    ) as TokenJson[];
  return {
    newestTokens: (limit) => records((tx) => tokenPage(tx, { sort: "new", limit })),
    trendingTokens: (nowSec, limit) => records((tx) => trendingTokens(tx, nowSec, limit), nowSec),
    graduatingTokens: (limit) => records((tx) => tokenPage(tx, { sort: "market_cap", limit, onlyNotGraduated: true })),
    async search(raw) {
      const query = (raw ?? "").trim();
      if (!query) return undefined;
      if (query.length > SEARCH_MAX_CHARS)
        return { query, tokens: [], message: `Search for at most ${SEARCH_MAX_CHARS} characters.` };
      return {
        query,
        tokens: await records(async (tx) => (await searchTokens(tx, query, SEARCH_HITS)).map((h) => h.row)),
      };
    },
    async tokenAddressBySlug(slug) {
      const row = await findTokenBySlug(deps.db, slug);
      return row ? row.address : null;
    },
    async tokenPage(address) {
      const row = await findToken(deps.db, address, deps.nowSec(), deps.storedMetadata);
      if (!row) return null;
      const [trades, top] = await Promise.all([
        tradePage(deps.db, { limit: TOKEN_PAGE_TRADES, token: row.address }),
        // A failed holder read leaves the rest of the page: the list says it could not be loaded.
        topHolders(deps.db, row, deps.deployment).catch((err: unknown) => {
          console.error("token page: top holders", err);
          return null;
        }),
      ]);
      // Where "Show more holders" goes on: the holders list's cursor after the last one shown.
      const lastHolder = top?.length === TOP_HOLDERS ? top.at(-1) : undefined;
      return {
        token: jsonValue(tokenRecord(row, deps)) as TokenJson,
        trades: jsonValue(trades.map(tradeRecord)) as TradeJson[],
        holders: top === null ? null : (jsonValue(top) as HolderJson[]),
        holdersNextCursor:
          lastHolder && row.holderCount > TOP_HOLDERS
            ? encodeCursor({ b: lastHolder.balance_wei.toString(), a: lastHolder.address.toLowerCase() })
            : null,
      };
    },
    async launchFormLimits() {
      const minimum = await withTimeout(
        deps.publicClient.readContract({
          address: deps.deployment.contracts.launchFactory,
          abi: launchFactoryAbi,
          functionName: "minimumPoolLiquidityWei",
        }),
        SOURCE_TIMEOUT_MS,
      ).catch(() => null);
      return {
        minimumLiquidityEth: minimum === null ? null : formatEther(minimum),
        maxSlippageBps: MAX_SLIPPAGE_BPS,
        defaultSlippageBps: DEFAULT_SLIPPAGE_BPS,
        maxFirstBuyEth: formatEther(MAX_FIRST_BUY_WEI),
      };
    },
  };
}
