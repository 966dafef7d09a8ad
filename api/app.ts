/**
 * The HTTP application: one router per surface, request ids, and one `onError` that renders every
 * failure as the spec's error body `{ ok: false, error, message }`.
 *
 * `createApp` takes its dependencies, so the same app runs inside Ponder (`api/index.ts` passes
 * Ponder's read-only db) and anywhere a db handle exists.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import { ApiError, type ErrorBody } from "./errors";
import { toJsonText } from "./json";
import type { MarketDb } from "./market/queries";
import { publicRoutes } from "./routes/public";
import { v1Routes } from "./routes/v1";

/** Dependencies of the app. */
export type AppDeps = {
  db: MarketDb;
  /** Base URL of the service's pages and API, without trailing slash. */
  publicBaseUrl: string;
  /** Clock in unix seconds (tests pin it). */
  nowSec?: () => number;
};

/**
 * Builds the Hono app.
 * @param deps - database handle and public base URL
 * @returns the app; mount it as Ponder's API (`src/api/index.ts`) or call `app.request()`
 */
export function createApp(deps: AppDeps) {
  const app = new Hono();
  app.use("*", requestId({ headerName: "X-Request-Id" }));
  app.route("/api/v1/evmchain", v1Routes(deps));
  app.route("/api/public", publicRoutes(deps));

  app.notFound((c) => errorResponse(c.get("requestId"), new ApiError("not_found", `no route for ${c.req.method} ${c.req.path}`)));
  app.onError((err, c) => {
    const requestIdValue = c.get("requestId");
    if (err instanceof ApiError) return errorResponse(requestIdValue, err);
    if (err instanceof HTTPException && err.status < 500) {
      return errorResponse(requestIdValue, new ApiError("invalid_request", err.message || "invalid request"));
    }
    console.error(`request ${requestIdValue} failed`, err);
    return errorResponse(requestIdValue, new ApiError("internal_error", "internal error; safe to retry"));
  });
  return app;
}

function errorResponse(requestIdValue: string | undefined, err: ApiError): Response {
  const body: ErrorBody = { ok: false, error: err.code, message: err.message, request_id: requestIdValue };
  return new Response(toJsonText(body), {
    status: err.status,
    headers: { "content-type": "application/json; charset=utf-8", ...(requestIdValue ? { "x-request-id": requestIdValue } : {}) },
  });
}
