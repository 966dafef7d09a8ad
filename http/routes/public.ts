/**
 * Public read-only surface `/api/public` (spec: Public surface, Events). No authentication.
 * Definitions, limits and cursors: docs/public.md.
 */
import { Hono } from "hono";
import { type PublicActivityDeps, publicActivityRoutes } from "./publicActivity";
import { publicRankingRoutes } from "./publicRankings";
import { type PublicTokenDeps, publicTokenRoutes } from "./publicTokens";

/** What the public router reads. */
export type PublicDeps = PublicTokenDeps & PublicActivityDeps;

/** Builds the `/api/public` router: the token routes and the activity routes (trades, events). */
export function publicRoutes(deps: PublicDeps) {
  return new Hono()
    .route("/", publicTokenRoutes(deps))
    .route("/", publicRankingRoutes(deps))
    .route("/", publicActivityRoutes(deps));
}
