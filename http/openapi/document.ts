/**
 * The OpenAPI 3.1 document of all three surfaces, generated from the running app's routes: request
 * parameters and bodies from the zod schemas that validate them (`http/validation.ts`), responses
 * from each route's {@link documented} description. Surface-wide facts are applied here, once:
 * the bearer scheme and each v1 route's scope (from `SCOPE_TABLE`, the table the auth middleware
 * enforces), the session cookie + CSRF scheme on session POSTs, and the auth, rate-limit and
 * internal errors every route of a surface can return (docs/openapi.md).
 */
import type { Env, Hono, Schema } from "hono";
import { generateSpecs } from "hono-openapi";
import type { OpenAPIV3_1 } from "openapi-types";
import { scopeFor } from "../middleware/auth";
import { cachePolicyOf } from "../middleware/cachePolicy";
import { LOCAL_SESSION_COOKIE, SECURE_SESSION_COOKIE } from "../session/csrf";
import { errorResponses, TAGS } from "./describe";
import { OPERATION_DESCRIPTIONS } from "./descriptions";
import { describeResponseHeaders } from "./responseHeaders";
import { V1_INTERFACE_VERSION } from "../routes/descriptors";
import type { ErrorCode } from "../errors";
import { z } from "zod";
import { errorBody } from "./errorBody";

/** Errors every route of a surface can return, keyed by path prefix (first match wins). */
const SURFACE_ERRORS: readonly { prefix: string; methods?: readonly string[]; codes: readonly ErrorCode[] }[] = [
  { prefix: "/api/v1/evmchain/", codes: ["missing_api_key", "invalid_api_key", "insufficient_scope", "rate_limited"] },
  { prefix: "/api/v1/coins/", codes: ["missing_api_key", "invalid_api_key", "insufficient_scope", "rate_limited"] },
  { prefix: "/api/evm/evmchain/", methods: ["post"], codes: ["csrf_failed", "rate_limited"] },
  { prefix: "/api/evm/evmchain/", codes: ["rate_limited"] },
  { prefix: "/api/public", codes: ["rate_limited"] },
  { prefix: "/token-list/", codes: ["rate_limited"] },
  { prefix: "/feed/", codes: ["rate_limited"] },
  { prefix: "/media/", codes: ["rate_limited"] },
];

/** Errors the app's body parser (http/middleware/jsonBody.ts) can return on every POST/PUT/PATCH. */
const BODY_ERRORS: readonly ErrorCode[] = ["invalid_request", "forbidden_field", "body_too_large", "request_timeout"];

/**
 * Errors any route can return: the server's per-client connection cap (ops/httpServerLimits.ts), a
 * dependency that cannot be reached (the store, the indexed data) and the catch-all.
 */
const EVERY_ROUTE_ERRORS: readonly ErrorCode[] = ["too_many_connections", "service_unavailable", "internal_error"];
const BODY_METHODS = ["post", "put", "patch"];

/**
 * Generates the document for `app` (call once; the result is immutable for the app's lifetime).
 * @param app - the app from `createApp`
 * @param publicBaseUrl - base URL, the document's server
 * @returns an OpenAPI 3.1.0 document object
 */
export async function buildOpenApiDocument<E extends Env, S extends Schema, P extends string>(
  app: Hono<E, S, P>,
  publicBaseUrl: string,
): Promise<OpenAPIV3_1.Document> {
  const spec = (await generateSpecs(app, {
    documentation: {
      openapi: "3.1.0",
      info: {
        title: "evmchain launch service",
        version: V1_INTERFACE_VERSION,
        contact: { name: "evmchain launch service", url: publicBaseUrl },
        description:
          "Non-custodial token launches and market data for chain 4663. Three surfaces: the browser session surface (`/api/evm/evmchain`, cookie + CSRF), the key-authenticated surface (`/api/v1`, bearer API key with scopes; reports version `v1`) and the read-only public surface (`/api/public`, version `public-v1`), plus the token list and RSS feeds. Amounts are decimal strings in wei or token base units; times are unix seconds; addresses are checksummed.",
      },
      servers: [{ url: publicBaseUrl }],
      tags: Object.values(TAGS).map((name) => ({ name })),
      components: {
        schemas: { Error: z.toJSONSchema(errorBody, { target: "draft-2020-12" }) as OpenAPIV3_1.SchemaObject },
        securitySchemes: {
          apiKey: {
            type: "http",
            scheme: "bearer",
            description:
              "`Authorization: Bearer sk_live_…`. Each route needs the scope listed in its `security` requirement.",
          },
          sessionCookie: {
            type: "apiKey",
            in: "cookie",
            name: SECURE_SESSION_COOKIE,
            description: `Session cookie from \`GET /api/evm/evmchain/session\` (\`${SECURE_SESSION_COOKIE}\` over HTTPS, \`${LOCAL_SESSION_COOKIE}\` on plain-HTTP localhost).`,
          },
          csrfToken: {
            type: "apiKey",
            in: "header",
            name: "X-CSRF-Token",
            description: "The session's CSRF token; the same value goes in the body field `csrf_token`.",
          },
        },
      },
    },
    // Validation failures are the catalogue's 400 body, described per route by `documented`.
    defaultValidationErrorResponse: false,
    // Feeds and the token list end in `.xml` / `.json`: they are endpoints, not static files.
    excludeStaticFile: false,
  })) as OpenAPIV3_1.Document;
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {}) as [string, OpenAPIV3_1.OperationObject][]) {
      if (typeof operation !== "object" || !operation.responses) continue;
      applySurface(path, method, operation);
      applyCaching(path, method, operation);
      applyFreshness(path, method, operation);
    }
  }
  return spec;
}

function applySurface(path: string, method: string, operation: OpenAPIV3_1.OperationObject): void {
  operation.description ||= OPERATION_DESCRIPTIONS[`${method.toUpperCase()} ${path}`];
  const honoPath = path.replace(/\{([^}]+)\}/g, ":$1");
  const scope = scopeFor(method.toUpperCase(), honoPath);
  if (scope) operation.security = [{ apiKey: [scope] }];
  else if (path.startsWith("/api/evm/evmchain/") && method === "post")
    operation.security = [{ sessionCookie: [], csrfToken: [] }];
  else operation.security = [];
  const surface = SURFACE_ERRORS.find((s) => path.startsWith(s.prefix) && (!s.methods || s.methods.includes(method)));
  const bodyCodes = BODY_METHODS.includes(method) ? BODY_ERRORS : [];
  // A code the route already documents is not listed twice.
  const documented = (code: ErrorCode) =>
    Object.values(operation.responses ?? {}).some((r) =>
      (r as OpenAPIV3_1.ResponseObject).description?.includes(`\`${code}\``),
    );
  const codes = [...bodyCodes, ...(surface?.codes ?? []), ...EVERY_ROUTE_ERRORS].filter((code) => !documented(code));
  const extra = errorResponses(codes, { $ref: "#/components/schemas/Error" }) as Record<
    string,
    OpenAPIV3_1.ResponseObject
  >;
  for (const [status, response] of Object.entries(extra)) {
    const existing = operation.responses![status] as OpenAPIV3_1.ResponseObject | undefined;
    operation.responses![status] = existing
      ? { ...existing, description: `${existing.description}\n\n${response.description}` }
      : response;
  }
  describeResponseHeaders(path, method, operation);
}

/** Public market reads that carry `Freshness-Sec` (http/app.ts, http/middleware/freshness.ts). */
const FRESHNESS_PATHS = /^\/api\/public\/(tokens(\/|$)|token\/|trades\/)/;

/** Documents `Freshness-Sec` (docs/public.md "Freshness") on the 200 answers of the public market reads. */
function applyFreshness(path: string, method: string, operation: OpenAPIV3_1.OperationObject): void {
  const ok = operation.responses?.["200"] as OpenAPIV3_1.ResponseObject | undefined;
  if (method !== "get" || !FRESHNESS_PATHS.test(path) || !ok) return;
  ok.headers = {
    ...ok.headers,
    "Freshness-Sec": {
      description:
        "freshness_sec: the indexed head's age when the answer leaves (service clock minus the head block's timestamp), whole seconds, at least 0; absent before the first indexed block",
      schema: { type: "string", pattern: "^\\d+$" },
    },
  };
}

/**
 * Documents the caching headers of a GET (http/middleware/cachePolicy.ts, the table the middleware
 * applies): `Cache-Control` and, where validators apply, `ETag`, `Vary` and the 304 answer to
 * `If-None-Match`.
 */
function applyCaching(path: string, method: string, operation: OpenAPIV3_1.OperationObject): void {
  const policy = method === "get" ? cachePolicyOf(path) : undefined;
  if (!policy) return;
  const text = { type: "string" as const };
  const cacheControl = { description: `\`${policy.cacheControl}\``, schema: text };
  const validators = {
    ETag: { description: "Strong validator of the uncompressed body (weak `W/…` when compressed)", schema: text },
    Vary: { description: "`Accept-Encoding`: the body is gzip- or br-compressed when asked for", schema: text },
  };
  const ok = operation.responses?.["200"] as OpenAPIV3_1.ResponseObject | undefined;
  if (ok) ok.headers = { ...ok.headers, "Cache-Control": cacheControl, ...(policy.etag ? validators : {}) };
  if (policy.etag && operation.responses && !operation.responses["304"])
    operation.responses["304"] = {
      description: "Not Modified: `If-None-Match` names the current `ETag`; no body",
      headers: { "Cache-Control": cacheControl, ETag: validators.ETag },
    };
  if (policy.etag) {
    const parameters = (operation.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
    if (!parameters.some((p) => p.in === "header" && p.name.toLowerCase() === "if-none-match"))
      operation.parameters = [
        ...parameters,
        {
          in: "header",
          name: "If-None-Match",
          required: false,
          description: "An `ETag` from an earlier answer: 304 without a body when it is still current",
          schema: text,
        },
      ];
  }
}
