/**
 * What every page answer shares: the strict Content-Security-Policy (scripts, styles, images and
 * requests from this origin only), and the choice between an HTML error page for a browser and
 * the JSON error body for an API client.
 */
import type { Context } from "hono";
import { accepts } from "hono/accepts";
import { secureHeaders } from "hono/secure-headers";
import { type ApiError, ERROR_CATALOGUE } from "../api/errors";
import { ErrorPage } from "./errorPage";

/** The pages' CSP: nothing from other origins, no inline script or style, no framing. */
export const pageSecurity = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", "data:"],
    connectSrc: ["'self'"],
    fontSrc: ["'self'"],
    formAction: ["'self'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
  },
  referrerPolicy: "same-origin",
});

/**
 * True when the request prefers an HTML page (a browser navigating) over JSON: `Accept` names
 * `text/html` before or above `application/json`. A bare wildcard `Accept` (fetch, curl) and no
 * `Accept` keep JSON, so API clients see the error bodies they always did.
 */
export function wantsHtml(c: Context): boolean {
  return (
    accepts(c, { header: "Accept", supports: ["application/json", "text/html"], default: "application/json" }) ===
    "text/html"
  );
}

/** An `ApiError` as an HTML page for browsers (its status, its catalogue message), JSON otherwise. */
export function refuse(c: Context, err: ApiError, title: string): Response {
  if (!wantsHtml(c)) throw err;
  const status = ERROR_CATALOGUE[err.code].status as 400 | 404;
  return c.html(`<!doctype html>${<ErrorPage title={title} message={err.message} status={status} />}`, status);
}
