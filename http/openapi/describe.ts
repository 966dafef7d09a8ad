/**
 * Route descriptions for the OpenAPI document. Each route carries one {@link documented}
 * middleware (a no-op at request time) naming its summary, success schema and the catalogue
 * errors it can return; request schemas come from the validators themselves (`http/validation.ts`),
 * and the surface-wide parts (security, auth/limit errors) are added once in `document.ts`.
 */
import { describeRoute, resolver, type DescribeRouteOptions } from "hono-openapi";
import type { z } from "zod";
import { ERROR_CATALOGUE, type ErrorCode } from "../errors";
import { errorBody } from "./errorBody";

/** The document's tags, one per surface or feature (order is the reference page's order). */
export const TAGS = {
  session: "Session surface",
  v1: "Key-authenticated surface (/api/v1)",
  coins: "Coin flow (/api/v1/coins)",
  public: "Public surface",
  integrations: "Integration feeds",
  dexscreener: "DEX Screener adapter",
  udf: "TradingView UDF datafeed (/api/public/udf)",
  feeds: "Token list and XML feeds",
  media: "Media",
  pages: "Browser pages",
  docs: "API description",
} as const;

/** What one route documents. */
export type RouteDoc = {
  tag: keyof typeof TAGS;
  summary: string;
  description?: string;
  /** Success status (default 200). */
  status?: 200 | 201 | 302 | 304;
  /** JSON success body; omit for non-JSON bodies (give `content`). */
  ok?: z.ZodType;
  /** Non-JSON success content, media type -> description (e.g. RSS, PNG). */
  content?: Record<string, string>;
  /** Other success statuses with a JSON body (e.g. 202 pending). */
  also?: Partial<Record<200 | 201 | 202 | 302 | 304, { description: string; schema?: z.ZodType }>>;
  /** Catalogue errors this route can return besides the surface-wide ones. */
  errors?: readonly ErrorCode[];
  /** JSON request body schema, for routes that parse their body themselves. */
  body?: z.ZodType;
  /** Extra header parameters (e.g. `Idempotency-Key`). */
  headers?: readonly { name: string; required: boolean; description: string }[];
};

const json = (schema: z.ZodType) => ({ "application/json": { schema: resolver(schema) } });

/**
 * Error responses grouped by status: one response per status, listing its identifiers.
 * @param schema - the error body's schema (a resolver while routes are described, a `$ref` after)
 * @example errorResponses(["token_not_found", "invalid_address"]) // { 400: …, 404: … }
 */
export function errorResponses(codes: readonly ErrorCode[], schema: unknown = resolver(errorBody)) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: list.map((c) => `\`${c}\`: ${ERROR_CATALOGUE[c].meaning}`).join("\n\n"),
        content: { "application/json": { schema } },
      },
    ]),
  );
}

/**
 * Describes a route for the OpenAPI document (hono-openapi `describeRoute`); does nothing at
 * request time.
 * @param doc - summary, tag, success schema and errors
 * @returns a middleware to place before the route's validators and handler
 */
export function documented(doc: RouteDoc) {
  const success: Record<string, unknown> = {
    [String(doc.status ?? 200)]: {
      description: doc.summary,
      content: doc.ok
        ? json(doc.ok)
        : Object.fromEntries(
            Object.entries(doc.content ?? {}).map(([type, description]) => [
              type,
              // A JSON body is a JSON value (an object here), not a string; other media types are text.
              { schema: { type: /[/+]json\b/.test(type) ? "object" : "string", description } },
            ]),
          ),
    },
  };
  for (const [status, extra] of Object.entries(doc.also ?? {})) {
    success[status] = { description: extra.description, ...(extra.schema ? { content: json(extra.schema) } : {}) };
  }
  return describeRoute({
    tags: [TAGS[doc.tag]],
    summary: doc.summary,
    description: doc.description,
    parameters: doc.headers?.map((h) => ({
      in: "header" as const,
      name: h.name,
      required: h.required,
      description: h.description,
      schema: { type: "string" as const },
    })),
    requestBody: doc.body ? { required: true, content: json(doc.body) } : undefined,
    responses: { ...success, ...errorResponses(doc.errors ?? []) } as DescribeRouteOptions["responses"],
  });
}
