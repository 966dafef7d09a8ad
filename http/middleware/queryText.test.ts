/**
 * Control characters in every query parameter and path parameter of every GET operation the
 * document describes (http/middleware/queryText.ts): 400 `invalid_request` naming the parameter,
 * never a 500. The app runs on placeholder dependencies: the refusal comes before any route reads
 * the database, which is what the rule requires (a NUL reaching PostgreSQL was a 500).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { placeholderApp } from "../openapi/placeholderApp";

const app = placeholderApp();

type Param = { name: string; in: string };
type Doc = { paths: Record<string, Record<string, { parameters?: Param[] }>> };

/**
 * A control character: C0, DEL, C1, U+2028/U+2029 (a lone surrogate cannot travel in a URL: its
 * percent-encoding is not UTF-8, and decoding gives U+FFFD).
 */
const control = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }), fc.constantFrom(0x2028, 0x2029))
  .map((code) => String.fromCharCode(code));

describe("control characters in URLs", () => {
  it("answers the outside finding's two requests (NUL in search) with 400 invalid_request", async () => {
    for (const path of ["/api/public/search?q=%00", "/api/public/udf/search?query=%00"]) {
      const res = await app.request(path);
      expect({ path, status: res.status, body: await res.json() }).toMatchObject({
        path,
        status: 400,
        body: { ok: false, error: "invalid_request" },
      });
    }
  });

  it("refuses a control character in every query and path parameter of every GET operation, naming it", async () => {
    const doc = (await (await app.request("/api/openapi.json")).json()) as Doc;
    const cases: { path: string; param: Param }[] = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const param of item.get?.parameters ?? [])
        if (param.in === "query" || param.in === "path") cases.push({ path, param });
    expect(cases.length).toBeGreaterThan(40);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...cases),
        fc.string({ maxLength: 8 }),
        control,
        async ({ path, param }, text, ch) => {
          const value = encodeURIComponent(`${text.replace(/[\ud800-\udfff]/g, "")}${ch}`);
          const url =
            param.in === "path"
              ? path.replace(`{${param.name}}`, value).replace(/\{[^}]+\}/g, "x")
              : `${path.replace(/\{[^}]+\}/g, "x")}?${encodeURIComponent(param.name)}=${value}`;
          const res = await app.request(url);
          const body = (await res.json()) as { error?: string; message?: string };
          expect({ url, status: res.status, error: body.error }).toEqual({
            url,
            status: 400,
            error: "invalid_request",
          });
          expect(body.message).toMatch(param.in === "path" ? /^path: / : new RegExp(`^${param.name}: `));
        },
      ),
      { numRuns: 300 },
    );
  });
});
