/**
 * Public read-only surface `/api/public` (spec: Public surface, Events). No authentication.
 * Definitions, limits and cursors: docs/public.md.
 */
import { Hono } from "hono";
import { type PublicActivityDeps, publicActivityRoutes } from "./publicActivity";
import { type PublicTokenDeps, publicTokenRoutes } from "./publicTokens";

/** What the public router reads. */
export type PublicDeps = Omit<PublicTokenDeps, "nowSec"> & PublicActivityDeps & { nowSec?: () => number };

/** Builds the `/api/public` router: the token routes and the activity routes (trades, events). */
export function publicRoutes(deps: PublicDeps) {
  const nowSec = deps.nowSec ?? (() => Math.floor(Date.now() / 1000));
  return new Hono().route("/", publicTokenRoutes({ ...deps, nowSec })).route("/", publicActivityRoutes(deps));
}
