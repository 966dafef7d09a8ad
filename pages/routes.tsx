/**
 * Browser pages of the session surface (docs/pages.md): the home page `GET /`, `GET /launch`,
 * `GET /token/{address}` (every verified launch's `token_url`) and `GET /t/{slug}` (redirects to
 * the token page); their static files come from `assetRoutes.ts`, their security headers and error
 * pages from `pageResponses.tsx`.
 */
import { Hono } from "hono";
import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { ApiError } from "../http/errors";
import { documented } from "../http/openapi/describe";
import type { PageReads } from "../market/pageReads";
import { validate } from "../http/validation";
import type { AddEthereumChainParameter } from "../chain/network";
import { tokenPath } from "../src/domain/urls";
import { assetRoutes } from "./assetRoutes";
import { HomePage } from "./homePage";
import { LaunchPage } from "./launchPage";
import { pageSecurity, refuse, wantsJson } from "./pageResponses";
import { TokenPage } from "./tokenPage";

/** What the pages need: their reads (`market/pageReads.ts`) and a few settings, built once by `createApp`. */
export type PagesDeps = {
  /** Every read of the pages: tokens, trades, holders, search and the launch form's bounds. */
  reads: PageReads;
  publicBaseUrl: string;
  /** The wallet's network parameters (the explorer the pages link to). */
  network: AddEthereumChainParameter;
  /** The fee locker's address (the token page's contracts list). */
  feeLocker: `0x${string}`;
  /** Clock, unix seconds (trending window, the token page's relative times). */
  nowSec: () => number;
};

const addressPath = z.object({ address: z.string().max(64) });
const slugPath = z.object({ slug: z.string().min(1).max(100) });

/** Builds the pages router (mounted at `/`). */
export function pagesRoutes(deps: PagesDeps) {
  const { reads } = deps;
  // The explorer the pages link to: the first `BLOCK_EXPLORER_URL` (the list the wallet is given).
  const explorerUrl = deps.network.blockExplorerUrls?.[0] ?? null;

  return (
    new Hono()
      /**
       * GET /?q= — the home page for browsers (HTML): search (`q`, as `GET /api/public/search`),
       * trending, about-to-graduate and new tokens, links to the launch page; any client that does
       * not ask for JSON gets the page (curl's `Accept: *\/*` included), one that prefers
       * `application/json` gets the usual JSON `not_found`; `Vary: Accept` either way.
       */
      .get(
        "/",
        documented({
          tag: "pages",
          summary: "Home page (HTML unless Accept prefers application/json): search, trending, about to graduate, new",
          content: { "text/html": "page" },
          errors: ["not_found"],
        }),
        pageSecurity,
        async (c) => {
          if (wantsJson(c))
            throw new ApiError("not_found", "no route for GET /; the API is under /api (see /api/docs)");
          const [newest, trending, graduating, search] = await Promise.all([
            reads.newestTokens(12),
            reads.trendingTokens(deps.nowSec(), 6),
            reads.graduatingTokens(6),
            reads.search(c.req.query("q")),
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
        async (c) => c.html(`<!doctype html>${<LaunchPage {...(await reads.launchFormLimits())} />}`),
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
          // The page renders exactly what the JSON API serves (one presenter, one serialisation).
          const page = await reads.tokenPage(getAddress(address));
          if (!page)
            return refuse(c, new ApiError("token_not_found", `no launched token at ${address}`), "Token not found");
          return c.html(
            `<!doctype html>${(
              <TokenPage
                token={page.token}
                trades={page.trades}
                holders={page.holders}
                holdersNextCursor={page.holdersNextCursor}
                feeLocker={deps.feeLocker}
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
          const address = await reads.tokenAddressBySlug(c.req.valid("param").slug);
          if (!address)
            return refuse(
              c,
              new ApiError("token_not_found", `no launched token with slug "${c.req.valid("param").slug}"`),
              "Token not found",
            );
          return c.redirect(tokenPath(address), 302);
        },
      )
      .route("/", assetRoutes())
  );
}
