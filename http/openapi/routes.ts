/**
 * `GET /api/openapi.json` (the OpenAPI 3.1 document) and `GET /api/docs` (an interactive reference
 * page: Swagger UI from the `swagger-ui-dist` package, served by the service itself, so the page
 * makes no third-party request; docs/openapi.md).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Env, Hono, Schema } from "hono";
import { Hono as HonoRouter } from "hono";
import { html } from "hono/html";
import { secureHeaders } from "hono/secure-headers";
import { buildOpenApiDocument } from "./document";
import { OPENAPI_PATH, REFERENCE_PATH } from "./paths";
import { documented } from "./describe";
import { toJsonText } from "../../src/domain/json";
import { PAGE_PERMISSIONS_POLICY } from "../../pages/pageResponses";

const require = createRequire(import.meta.url);

/** Reference-page assets: name -> [package file, content type]. */
const ASSETS: Record<string, [string, string]> = {
  "swagger-ui.css": ["swagger-ui-dist/swagger-ui.css", "text/css; charset=utf-8"],
  "swagger-ui-bundle.js": ["swagger-ui-dist/swagger-ui-bundle.js", "text/javascript; charset=utf-8"],
};

/** Starts Swagger UI on the document; no validator badge (it would call a third-party host). */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(OPENAPI_PATH)}, dom_id: "#swagger-ui", validatorUrl: null, deepLinking: true });\n`;

/**
 * Routes of the API description.
 * @param app - the app whose routes the document describes (the document is built on first request)
 * @param publicBaseUrl - the document's server URL
 */
export function openApiRoutes<E extends Env, S extends Schema, P extends string>(
  app: Hono<E, S, P>,
  publicBaseUrl: string,
) {
  let documentText: Promise<string> | undefined;
  const assetCache = new Map<string, string>();
  const readAsset = (name: string) => {
    if (!assetCache.has(name)) assetCache.set(name, readFileSync(require.resolve(ASSETS[name]![0]), "utf8"));
    return assetCache.get(name)!;
  };
  const pageHeaders = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      // Swagger UI sets inline style attributes on its elements.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
    },
    // The pages' frame policy and Permissions-Policy (pages/pageResponses.tsx).
    xFrameOptions: "DENY",
    permissionsPolicy: PAGE_PERMISSIONS_POLICY,
  });
  return new HonoRouter()
    .get(
      OPENAPI_PATH,
      documented({
        tag: "docs",
        summary: "This OpenAPI 3.1 document",
        content: { "application/json": "OpenAPI 3.1.0 document of every route the service serves" },
      }),
      async (c) => {
        documentText ??= buildOpenApiDocument(app, publicBaseUrl).then(toJsonText);
        return c.body(await documentText, 200, {
          "content-type": "application/json; charset=utf-8",
          "cache-control": "public, max-age=300",
        });
      },
    )
    .get(
      REFERENCE_PATH,
      documented({
        tag: "docs",
        summary: "Interactive API reference (Swagger UI)",
        content: { "text/html": "reference page" },
      }),
      pageHeaders,
      (c) =>
        c.html(html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>evmchain launch service — API reference</title>
    <link rel="stylesheet" href="${REFERENCE_PATH}/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${REFERENCE_PATH}/swagger-ui-bundle.js"></script>
    <script src="${REFERENCE_PATH}/init.js"></script>
  </body>
</html>`),
    )
    .get(
      `${REFERENCE_PATH}/init.js`,
      documented({ tag: "docs", summary: "Reference page script", content: { "text/javascript": "script" } }),
      (c) =>
        c.body(INIT_SCRIPT, 200, {
          "content-type": "text/javascript; charset=utf-8",
          "cache-control": "public, max-age=300",
        }),
    )
    .get(
      `${REFERENCE_PATH}/:asset{swagger-ui\\.css|swagger-ui-bundle\\.js}`,
      documented({
        tag: "docs",
        summary: "Reference page assets (Swagger UI)",
        content: { "text/css": "stylesheet", "text/javascript": "script" },
      }),
      (c) => {
        const name = c.req.param("asset");
        return c.body(readAsset(name), 200, {
          "content-type": ASSETS[name]![1],
          "cache-control": "public, max-age=86400",
        });
      },
    );
}
