/**
 * `GET /media/{id}.{ext}` — uploaded images, public (spec: key-authenticated surface, upload:
 * "a validated, hosted logo"). Served from the offchain store with the sanitized content type,
 * `Cache-Control: public, max-age=31536000, immutable` (the URL is content-addressed),
 * `X-Content-Type-Options: nosniff` and a `Content-Security-Policy` that forbids any active
 * content. 404 `media_not_found` for anything else.
 */
import { Hono } from "hono";
import { documented } from "../openapi/describe";
import type { Store } from "../../store/index";
import { findMedia } from "../../store/media";
import { ApiError } from "../errors";
import type { TrustEnv } from "../middleware/context";

const FILE = /^([0-9a-f]{32})\.(png|jpg|webp|gif)$/;

/** Builds the `/media` router. */
export function mediaRoutes(deps: { getStore: () => Promise<Store> }) {
  return new Hono<TrustEnv>().get(
    "/:file",
    documented({
      tag: "media",
      summary: "An uploaded image (immutable; sandboxed by its CSP)",
      content: { "image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WebP", "image/gif": "GIF" },
      also: { 304: { description: "Not modified (If-None-Match)" } },
      errors: ["media_not_found"],
    }),
    async (c) => {
      const match = FILE.exec(c.req.param("file"));
      const row = match ? await findMedia(await deps.getStore(), match[1]!) : null;
      if (!row || row.extension !== match![2]) throw new ApiError("media_not_found", "no uploaded image at this URL");
      const etag = `"${row.id}"`;
      const headers = {
        "Content-Type": row.contentType,
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        ETag: etag,
      };
      if (c.req.header("If-None-Match") === etag) return c.body(null, 304, headers);
      return c.body(row.bytes as Uint8Array<ArrayBuffer>, 200, {
        ...headers,
        "Content-Length": String(row.byteLength),
      });
    },
  );
}
