/**
 * Response compression (docs/operations.md "Compression and CDN"): brotli when the client lists
 * `br` at least as high as gzip, otherwise gzip/deflate through Hono's `hono/compress` (which has no
 * brotli). Only compressible media types (Hono's list, minus event streams and every `image/*`)
 * of at least `thresholdBytes` are compressed; every such answer carries `Vary: Accept-Encoding`.
 * Server-Sent Events are never compressed, so each event is flushed as it is written.
 */
import { Duplex } from "node:stream";
import { constants, createBrotliCompress } from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX, compress } from "hono/compress";

/** Smallest body compressed, in bytes (below it the framing costs more than it saves). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Brotli quality for answers compressed per request: 5 is ~as fast as gzip -6 and smaller
 * (quality 11, zlib's default, costs ~50x the CPU for a few percent).
 */
const BROTLI_QUALITY = 5;

/** True for a media type worth compressing: text, JSON, JS, CSS, XML; never event streams or images. */
export function isCompressibleType(contentType: string | null): boolean {
  if (!contentType) return false;
  if (/^\s*(?:image\/|text\/event-stream)/i.test(contentType)) return false;
  return COMPRESSIBLE_CONTENT_TYPE_REGEX.test(contentType);
}

/** The `q` a client gives `coding` in `Accept-Encoding` (RFC 9110 §12.5.3; `*` stands for the rest). */
function qualityOf(acceptEncoding: string, coding: string): number {
  let wildcard = 0;
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (name === coding) return Number.isFinite(q) ? q : 0;
    if (name === "*") wildcard = Number.isFinite(q) ? q : 0;
  }
  return wildcard;
}

/**
 * The compression middleware (mount first, outside ETag and the read cache: the ETag and the cache
 * see the uncompressed body; a compressed answer's strong ETag becomes weak, as Hono's does).
 * A body without `Content-Length` (every in-memory answer of this app) is measured first so the
 * threshold applies; event streams and images are passed through untouched.
 * @param options.thresholdBytes - smallest body compressed (default {@link COMPRESS_THRESHOLD_BYTES})
 * @returns the middleware
 */
export function compressResponses(options: { thresholdBytes?: number } = {}): MiddlewareHandler {
  const threshold = options.thresholdBytes ?? COMPRESS_THRESHOLD_BYTES;
  const gzipOrDeflate = compress({ threshold, contentTypeFilter: isCompressibleType });
  return async (c, next) => {
    const accepted = c.req.header("Accept-Encoding") ?? "";
    const brotli =
      qualityOf(accepted, "br") > 0 &&
      qualityOf(accepted, "br") >= Math.max(qualityOf(accepted, "gzip"), qualityOf(accepted, "deflate"));
    const measure = async () => {
      await next();
      const res = c.res;
      if (!res.body || res.headers.has("Content-Length") || !isCompressibleType(res.headers.get("Content-Type")))
        return;
      const bytes = await res.arrayBuffer();
      c.res = new Response(bytes, res);
      c.res.headers.set("Content-Length", String(bytes.byteLength));
    };
    if (!brotli) return gzipOrDeflate(c, measure);
    await measure();
    const res = c.res;
    const length = Number(res.headers.get("Content-Length") ?? Number.NaN);
    if (
      res.status === 206 ||
      res.headers.has("Content-Encoding") ||
      res.headers.has("Transfer-Encoding") ||
      c.req.method === "HEAD" ||
      length < threshold ||
      !isCompressibleType(res.headers.get("Content-Type")) ||
      /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get("Cache-Control") ?? "")
    )
      return;
    const vary = res.headers.get("Vary");
    if (vary !== "*" && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? ""))
      res.headers.set("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    if (!res.body) return;
    const encoder = Duplex.toWeb(
      createBrotliCompress({
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          ...(Number.isFinite(length) ? { [constants.BROTLI_PARAM_SIZE_HINT]: length } : {}),
        },
      }),
    ) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
    c.res = new Response(res.body.pipeThrough(encoder), res);
    c.res.headers.delete("Content-Length");
    c.res.headers.set("Content-Encoding", "br");
    const etag = c.res.headers.get("ETag");
    if (etag && !etag.startsWith("W/")) c.res.headers.set("ETag", `W/${etag}`);
  };
}
