/**
 * Browser pages of the session surface (docs/pages.md): the home page `GET /`, `GET /launch`,
 * `GET /token/{address}` (every verified launch's `token_url`) and `GET /t/{slug}` (redirects to
 * the token page); their static files come from `assetRoutes.ts`, their security headers and error
 * pages from `pageResponses.tsx`.
 */
import { Hono } from "hono";
import { formatEther, getAddress, isAddress } from "viem";
import { z } from "zod";
import type { MetadataSource } from "../api/launch/metadata";
import type { Deployment } from "../config/deployment";
import { ApiError } from "../api/errors";
import { assetRoutes } from "./assetRoutes";
import { pageSecurity, refuse, wantsHtml } from "./pageResponses";
import { toJsonText } from "../api/json";
import { DEFAULT_SLIPPAGE_BPS, MAX_FIRST_BUY_WEI, MAX_SLIPPAGE_BPS } from "../api/launch/intent";
import { findTokenBySlug, tokenPage, trendingTokens } from "../api/market/tokenQueries";
import { tradePage } from "../api/market/tradeQueries";
import { withStats } from "../api/market/tokenStats";
import { searchTokens } from "../api/market/search";
import { encodeCursor } from "../api/market/cursor";
import { TOP_HOLDERS, topHolders } from "../api/market/holders";
import { findToken } from "../api/market/tokenQueries";
import type { MarketDb } from "../api/market/db";
import { tokenRecord } from "../api/market/tokenRecord";
import { tradeRecord } from "../api/market/tradeRecord";
import { documented } from "../api/openapi/describe";
import { HomePage, type HomePageProps, type HomeSearch } from "./homePage";
import type { AddEthereumChainParameter } from "../launch/network";
import type { PublicConfig } from "../config/public";
import { LaunchPage } from "./launchPage";
import { TokenPage } from "./tokenPage";
import { launchFactoryAbi } from "../abis/LaunchFactory";
import type { PublicClient } from "viem";
import { SOURCE_TIMEOUT_MS, withTimeout } from "../api/metrics/gauges";
import { validate } from "../api/validation";
import { tokenPath } from "../src/domain/urls";

/** What the pages read. */
export type PagesDeps = {
  db: MarketDb;
  publicBaseUrl: string;
  publicConfig: PublicConfig;
  /** The wallet's network parameters (the explorer the pages link to). */
  network: AddEthereumChainParameter;
  deployment: Deployment;
  publicClient: PublicClient;
  /** Clock, unix seconds (24 h figures). */
  nowSec: () => number;
  /** Creator metadata of confirmed launches (`storedMetadataSource`, built once by `createApp`). */
  storedMetadata: MetadataSource;
};

/** Longest search query, as `GET /api/public/search` accepts it. */
const SEARCH_MAX_CHARS = 64;
const addressPath = z.object({ address: z.string().max(64) });
const slugPath = z.object({ slug: z.string().min(1).max(100) });

/** Builds the pages router (mounted at `/`). */
export function pagesRoutes(deps: PagesDeps) {
  // The explorer the pages link to: the first `BLOCK_EXPLORER_URL` (the list the wallet is given).
  const explorerUrl = deps.network.blockExplorerUrls?.[0] ?? null;
  /** Token rows as the public API serves them (24 h figures, one presenter, one serialisation). */
  const records = async (rows: Parameters<typeof withStats>[1]): Promise<HomePageProps["tokens"]> =>
    JSON.parse(
      toJsonText((await withStats(deps.db, rows, deps.nowSec(), deps.storedMetadata)).map((r) => tokenRecord(r, deps))),
    );

  /**
   * The home page's search: the query as typed (trimmed), its matches (the public search's
   * ranking), or a message in words for a query the search refuses (too long); undefined without `q`.
   */
  async function homeSearch(raw: string | undefined): Promise<HomeSearch | undefined> {
    const query = (raw ?? "").trim();
    if (!query) return undefined;
    if (query.length > SEARCH_MAX_CHARS)
      return { query, tokens: [], message: `Search for at most ${SEARCH_MAX_CHARS} characters.` };
    const hits = await searchTokens(deps.db, query, 20);
    return { query, tokens: await records(hits.map((h) => h.row)) };
  }

  return (
    new Hono()
      /**
       * GET /?q= — the home page for browsers (HTML): search (`q`, as `GET /api/public/search`),
       * trending, about-to-graduate and new tokens, links to the launch page; API clients (no
       * `text/html` in `Accept`) get the usual JSON `not_found`.
       */
      .get(
        "/",
        documented({
          tag: "pages",
          summary: "Home page (HTML, for Accept: text/html): search, trending, about to graduate, new",
          content: { "text/html": "page" },
          errors: ["not_found"],
        }),
        pageSecurity,
        async (c) => {
          if (!wantsHtml(c))
            throw new ApiError("not_found", "no route for GET /; the API is under /api (see /api/docs)");
          const nowSec = deps.nowSec();
          const [newest, trending, graduating, search] = await Promise.all([
            tokenPage(deps.db, { sort: "new", limit: 12 }).then(records),
            trendingTokens(deps.db, nowSec, 6).then((scored) => records(scored.map((s) => s.row))),
            tokenPage(deps.db, { sort: "market_cap", limit: 6, onlyNotGraduated: true }).then(records),
            homeSearch(c.req.query("q")),
          ]);
          return c.html(
            `<!doctype html>${(
              <HomePage
                tokens={newest}
                trending={trending}
                graduating={graduating}
                search={search}
                publicBaseUrl={deps.publicBaseUrl}
              />
            )}`,
          );
        },
      )
      .get(
        "/launch",
        documented({
          tag: "pages",
          summary: "Launch page (HTML form driven by the browser wallet)",
          content: { "text/html": "page" },
        }),
        pageSecurity,
        async (c) => {
          const minimum = await withTimeout(
            deps.publicClient.readContract({
              address: deps.deployment.contracts.launchFactory,
              abi: launchFactoryAbi,
              functionName: "minimumPoolLiquidityWei",
            }),
            SOURCE_TIMEOUT_MS,
          ).catch(() => null);
          return c.html(
            "<!doctype html>" +
            (
              <LaunchPage
                minimumLiquidityEth={minimum === null ? null : formatEther(minimum)}
                maxSlippageBps={MAX_SLIPPAGE_BPS}
                defaultSlippageBps={DEFAULT_SLIPPAGE_BPS}
                maxFirstBuyEth={formatEther(MAX_FIRST_BUY_WEI)}
              />
            ),
          );
        },
      )
      /**
       * GET /token/{address} — the token page (HTML); `token_not_found` (404) for an address that
       * is not a launched token, `invalid_address` (400) for a malformed one: an HTML page for a
       * browser, the JSON error body for API clients.
       */
      .get(
        "/token/:address",
        documented({
          tag: "pages",
          summary: "Token page (HTML): metadata, market, chart, trades, creator fees, contracts",
          content: { "text/html": "page" },
          errors: ["invalid_address", "token_not_found"],
        }),
        pageSecurity,
        validate("param", addressPath),
        async (c) => {
          const { address } = c.req.valid("param");
          if (!isAddress(address, { strict: false })) {
            return refuse(
              c,
              new ApiError("invalid_address", "the path must hold a 20-byte hex address"),
              "Not a token address",
            );
          }
          const row = await findToken(deps.db, getAddress(address), deps.nowSec(), deps.storedMetadata);
          if (!row)
            return refuse(c, new ApiError("token_not_found", `no launched token at ${address}`), "Token not found");
          const [trades, top] = await Promise.all([
            tradePage(deps.db, { limit: 50, token: row.address }),
            // A failed holder read leaves the rest of the page: the list says it could not be loaded.
            topHolders(deps.db, row, deps.deployment).catch((err: unknown) => {
              console.error("token page: top holders", err);
              return null;
            }),
          ]);
          // The page renders exactly what the JSON API serves (one presenter, one serialisation).
          const token = JSON.parse(toJsonText(tokenRecord(row, deps)));
          const tradeRecords = JSON.parse(toJsonText(trades.map(tradeRecord)));
          const holderRecords = top === null ? null : JSON.parse(toJsonText(top));
          // Where "Show more holders" goes on: the holders list's cursor after the last one shown.
          const lastHolder = top?.length === TOP_HOLDERS ? top.at(-1) : undefined;
          const holdersNextCursor =
            lastHolder && row.holderCount > TOP_HOLDERS
              ? encodeCursor({ b: lastHolder.balance_wei.toString(), a: lastHolder.address.toLowerCase() })
              : null;
          return c.html(
            `<!doctype html>${(
              <TokenPage
                token={token}
                trades={tradeRecords}
                holders={holderRecords}
                holdersNextCursor={holdersNextCursor}
                feeLocker={deps.deployment.contracts.feeLocker}
                publicBaseUrl={deps.publicBaseUrl}
                explorerUrl={explorerUrl}
                nowSec={deps.nowSec()}
              />
            )}`,
          );
        },
      )
      /**
       * GET /t/{slug} — 302 to the token page of the token with this slug; 404 otherwise (an HTML
       * page for a browser, JSON for API clients).
       */
      .get(
        "/t/:slug",
        documented({
          tag: "pages",
          status: 302,
          summary: "Short link: redirects to the token page (Location: /token/{address})",
          errors: ["invalid_request", "token_not_found"],
        }),
        pageSecurity,
        validate("param", slugPath),
        async (c) => {
          const row = await findTokenBySlug(deps.db, c.req.valid("param").slug);
          if (!row)
            return refuse(
              c,
              new ApiError("token_not_found", `no launched token with slug "${c.req.valid("param").slug}"`),
              "Token not found",
            );
          return c.redirect(tokenPath(row.address), 302);
        },
      )
      .route("/", assetRoutes())
  );
}
