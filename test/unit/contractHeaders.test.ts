/**
 * The harness's check for undocumented API headers (test/helpers/contractProxy.ts): it finds the
 * operation by path template and names each API header its status does not document.
 */
import { describe, expect, it } from "vitest";
import { undocumentedHeaders, type OpenApiDocument } from "../helpers/contractProxy";

const document: OpenApiDocument = {
  paths: {
    "/api/public/tokens/new": { get: { responses: { "200": { headers: { "X-Request-Id": {} } } } } },
    "/api/public/token/{address_or_slug}": {
      get: { responses: { "200": { headers: { ETag: {}, "X-Request-Id": {} } }, "404": {} } },
    },
  },
};

describe("undocumentedHeaders", () => {
  it("names the API headers a response carries that its operation and status do not document", () => {
    const headers = new Headers({ "x-request-id": "1", etag: '"a"', "content-type": "application/json" });
    expect(undocumentedHeaders(document, "GET", "/api/public/token/alpha?x=1", 200, headers)).toEqual([]);
    expect(undocumentedHeaders(document, "GET", "/api/public/token/alpha", 404, headers)).toEqual([
      "x-request-id",
      "etag",
    ]);
    expect(undocumentedHeaders(document, "GET", "/api/public/tokens/new", 200, headers)).toEqual(["etag"]);
  });

  it("does not check a path or method the document does not describe", () => {
    const headers = new Headers({ etag: '"a"' });
    expect(undocumentedHeaders(document, "GET", "/metrics", 200, headers)).toEqual([]);
    expect(undocumentedHeaders(document, "POST", "/api/public/tokens/new", 200, headers)).toEqual([]);
    expect(undocumentedHeaders(document, "GET", "/api/public/token/a/b", 200, headers)).toEqual([]);
  });
});
