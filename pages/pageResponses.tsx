/**
 * What every page answer shares: the strict Content-Security-Policy (scripts, styles, images and
 * requests from this origin only), one frame policy (CSP `frame-ancestors 'none'` and
 * `X-Frame-Options: DENY`, the same rule for browsers without CSP 2), a Permissions-Policy turning
 * off the powerful features no page uses, `Vary: Accept` (pages negotiate between HTML and the JSON
 * error body), and that choice: an HTML page for a browser, the JSON error body for an API client.
 */
import type { Context, MiddlewareHandler } from "hono";
import { accepts } from "hono/accepts";
import { every } from "hono/combine";
import { secureHeaders } from "hono/secure-headers";
import { type ApiError, ERROR_CATALOGUE } from "../http/errors";
import { ErrorPage } from "./errorPage";

/**
 * Features no page uses, off for the page and anything it could embed (Permissions Policy,
 * W3C): camera, microphone, geolocation, payment, USB, serial, HID, Bluetooth, MIDI, sensors,
 * display capture, fullscreen by frames and interest-based ad topics.
 */
export const PAGE_PERMISSIONS_POLICY = {
  camera: false,
  microphone: false,
  geolocation: false,
  payment: false,
  usb: false,
  serial: false,
  hid: false,
  bluetooth: false,
  midi: false,
  accelerometer: false,
  gyroscope: false,
  magnetometer: false,
  displayCapture: false,
  browsingTopics: false,
};

/** Adds `Accept` to `Vary` (a page answers HTML or JSON by `Accept`; a shared cache must key on it). */
const varyOnAccept: MiddlewareHandler = async (c, next) => {
  await next();
  const vary = c.res.headers.get("Vary");
  if (vary === "*" || /(?:^|,)\s*accept\s*(?:,|$)/i.test(vary ?? "")) return;
  c.res.headers.set("Vary", vary ? `${vary}, Accept` : "Accept");
};

/** The pages' CSP: nothing from other origins, no inline script or style, no framing. */
const pageSecureHeaders = secureHeaders({
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
  xFrameOptions: "DENY",
  permissionsPolicy: PAGE_PERMISSIONS_POLICY,
  referrerPolicy: "same-origin",
});

/** Every page's headers: the security headers above and `Vary: Accept`. */
export const pageSecurity: MiddlewareHandler = every(pageSecureHeaders, varyOnAccept);

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

/**
 * True when the request asks for JSON over HTML: `Accept` names `application/json` above
 * `text/html` (a bare wildcard, curl's `*\/*`, or no `Accept` is not asking for JSON). The home
 * page `/` answers everyone else with the page.
 */
export function wantsJson(c: Context): boolean {
  return (
    accepts(c, { header: "Accept", supports: ["text/html", "application/json"], default: "text/html" }) ===
    "application/json"
  );
}

/** An `ApiError` as an HTML page for browsers (its status, its catalogue message), JSON otherwise. */
export function refuse(c: Context, err: ApiError, title: string): Response {
  if (!wantsHtml(c)) throw err;
  const status = ERROR_CATALOGUE[err.code].status as 400 | 404;
  return c.html(`<!doctype html>${<ErrorPage title={title} message={err.message} status={status} />}`, status);
}
