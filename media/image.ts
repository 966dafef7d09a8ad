/**
 * The pure image core of the media upload: decide what an uploaded file
 * really is from its bytes, refuse anything hostile, and re-encode what is left with sharp (libvips)
 * so that only freshly encoded pixels are ever stored or served.
 *
 * No I/O, no HTTP, no store: {@link sanitizeImage} takes bytes and returns bytes (or throws an
 * {@link InvalidImageError}). The upload route maps every {@link InvalidImageError} to HTTP 400
 * `{ ok: false, error: code, message }` and stores nothing.
 *
 * Pipeline, in order (each step is cheap before the next, more expensive one):
 *  1. empty -> `image_missing`; over {@link IMAGE_LIMITS}.maxBytes -> `image_too_large` (before any
 *     parsing);
 *  2. magic-number sniff (PNG, JPEG, WebP, GIF signatures); anything else (SVG, HTML, text, PDF,
 *     TIFF, BMP, HEIC/AVIF, ZIP, ...) -> `image_type_unsupported`;
 *  3. a container walk (chunk / segment / block framing only, no pixel decoding) that reads the
 *     declared dimensions and frame count from the headers and finds where the format's stream
 *     ends: declared sizes over the limits -> `image_dimensions_exceeded` (a 50000x50000 "bomb" is
 *     refused here, before anything is allocated); framing that runs past the end of the input ->
 *     `image_corrupt`; bytes after the end marker -> `image_polyglot`;
 *  4. a signature scan of the whole input for markup/script (`<script`, `<html`, `<?php`, ...) and
 *     for a ZIP end-of-central-directory record near the end -> `image_polyglot`;
 *  5. sharp `metadata()` (header only) must agree on the format and the dimensions;
 *  6. sharp decode with `failOn: "warning"` (truncated or corrupt pixel data aborts),
 *     `limitInputPixels` and a timeout, auto-orientation, and re-encode in the same format. The
 *     re-encode drops EXIF (GPS), XMP, IPTC, ICC profiles, text/comment chunks and any trailing
 *     bytes; pixels are converted to sRGB;
 *  7. the output is checked again (format, dimensions, signature scan) and hashed.
 *
 * Sources: PNG (ISO/IEC 15948, W3C PNG 3rd ed.), JPEG (ITU-T T.81 / JFIF, CIPA DC-007 MPF),
 * WebP (RFC 9649, "WebP Container Specification"), GIF (GIF89a specification), ZIP (PKWARE
 * APPNOTE 4.3.16), sharp constructor/output docs (https://sharp.pixelplumbing.com/api-constructor,
 * https://sharp.pixelplumbing.com/api-output).
 */
import { createHash } from "node:crypto";
import sharp, { type SharpOptions } from "sharp";
import { inspectContainer, type Layout, sniffFormat } from "./containers";
import { DECODE_QUEUE_DEFAULTS, DecodeOverloadedError, type DecodeQueue } from "./decodeQueue";
import {
  checkDimensions,
  IMAGE_CONTENT_TYPES,
  IMAGE_LIMITS,
  type ImageContentType,
  type ImageFormat,
  InvalidImageError,
} from "./imageRules";
import { scanForPayload } from "./payloadScan";

export {
  IMAGE_CONTENT_TYPES,
  IMAGE_ERROR_CODES,
  IMAGE_LIMITS,
  type ImageContentType,
  type ImageErrorCode,
  type ImageFormat,
  InvalidImageError,
} from "./imageRules";
/** The result of {@link sanitizeImage}: freshly encoded bytes, safe to store and serve. */
export type SanitizedImage = {
  /** `Content-Type` to serve `bytes` with. */
  contentType: ImageContentType;
  /** The re-encoded image (no metadata, no trailing data). */
  bytes: Uint8Array;
  /** Width in pixels (after EXIF auto-orientation). */
  width: number;
  /** Height in pixels of one frame (after EXIF auto-orientation). */
  height: number;
  /** Frames (1 for a still image). */
  frames: number;
  /** Output format, always the input format. */
  format: ImageFormat;
  /** SHA-256 of `bytes`, lowercase hex (64 chars); usable as a content address. */
  sha256: string;
};

/**
 * Quality of lossy re-encodes (JPEG with mozjpeg's encoder, lossy WebP). At 90 a re-encoded photo
 * came out 1.6-1.9x larger than the upload (phones and editors save at 80-90 with better
 * encoders); at 80 with mozjpeg it is no larger than a typical upload (media/image.test.ts),
 * and a logo shown at 64-256 px shows no difference.
 */
export const LOSSY_QUALITY = 80;

/**
 * Validate an uploaded image by its real bytes and re-encode it.
 *
 * Policy: the output keeps the input format (PNG -> PNG, JPEG -> JPEG quality 80 with mozjpeg,
 * WebP -> WebP lossless if the input was lossless else quality 80, GIF -> GIF). Animated GIF and animated WebP
 * stay animated (all frames, loop count and delays kept); PNG animation chunks (APNG) are not
 * supported by libvips, so an APNG becomes its still default image. JPEG/PNG/WebP EXIF
 * orientation is applied to the pixels before the metadata is dropped.
 *
 * The byte checks (steps 1-4) run at once; the sharp steps (5-7, the CPU-heavy part) run inside
 * `options.schedule` when given, e.g. a bounded {@link DecodeQueue}'s `run`, so a flood of uploads
 * waits for a slot (or is refused as overload) instead of decoding all at once.
 *
 * @param bytes the uploaded file, as received.
 * @param options.schedule runs the sharp part (default: at once)
 * @returns the sanitized image; see {@link SanitizedImage}.
 * @throws {InvalidImageError} with one of the {@link IMAGE_ERROR_CODES}; nothing else is thrown
 *   for bad input (sharp failures on the input are mapped to `image_corrupt`).
 * @throws {DecodeOverloadedError} when the server, not the image, is at fault: sharp's time
 *   limit ran out (`decode_timeout`), or `schedule` refused the work (`queue_full`, `wait_timeout`).
 */
export async function sanitizeImage(
  bytes: Uint8Array,
  options: { schedule?: <T>(task: () => Promise<T>) => Promise<T> } = {},
): Promise<SanitizedImage> {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) {
    throw new InvalidImageError("image_missing", "The upload is empty.");
  }
  if (bytes.byteLength > IMAGE_LIMITS.maxBytes) {
    throw new InvalidImageError(
      "image_too_large",
      `The image is ${bytes.byteLength} bytes; the limit is ${IMAGE_LIMITS.maxBytes} bytes (2 MiB).`,
    );
  }

  const format = sniffFormat(bytes);
  const layout = inspectContainer(bytes, format);
  checkDimensions(layout.width, layout.height, layout.frames, "declares");
  scanForPayload(bytes, "input");

  const schedule = options.schedule ?? ((task) => task());
  return schedule(() => decodeAndReencode(bytes, format, layout));
}

/** Steps 5-7 of {@link sanitizeImage}: sharp's header check, decode, re-encode, output check. */
async function decodeAndReencode(bytes: Uint8Array, format: ImageFormat, layout: Layout): Promise<SanitizedImage> {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const animated = layout.frames > 1;
  const options: SharpOptions = {
    failOn: "warning",
    limitInputPixels: IMAGE_LIMITS.maxPixels,
    animated,
    autoOrient: !animated,
  };

  // Header-only cross-check: libvips must agree with the container walk.
  const meta = await withSharpErrors(() => sharp(input, options).metadata());
  if (meta.format !== format) {
    throw new InvalidImageError(
      "image_type_unsupported",
      `The file starts like ${format.toUpperCase()} but decodes as ${String(meta.format).toUpperCase()}.`,
    );
  }
  const metaFrames = animated ? (meta.pages ?? 1) : 1;
  const metaFrameHeight = animated ? (meta.pageHeight ?? meta.height) : meta.height;
  checkDimensions(meta.width, metaFrameHeight, metaFrames, "decodes to");

  const { data, info } = await withSharpErrors(() => {
    const pipeline = sharp(input, options).timeout({ seconds: IMAGE_LIMITS.decodeTimeoutSeconds });
    switch (format) {
      case "png":
        return pipeline.png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true });
      case "jpeg":
        return pipeline.jpeg({ quality: LOSSY_QUALITY, mozjpeg: true }).toBuffer({ resolveWithObject: true });
      case "webp":
        return pipeline
          .webp(layout.lossless ? { lossless: true } : { quality: LOSSY_QUALITY })
          .toBuffer({ resolveWithObject: true });
      case "gif":
        return pipeline.gif().toBuffer({ resolveWithObject: true });
    }
  });

  const outFrames = info.pages ?? 1;
  const outHeight = info.pageHeight ?? info.height;
  if (info.format !== format) {
    throw new InvalidImageError("image_corrupt", "The image could not be re-encoded in its own format.");
  }
  checkDimensions(info.width, outHeight, outFrames, "decodes to");
  const out = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  scanForPayload(out, "output");

  return {
    contentType: IMAGE_CONTENT_TYPES[format],
    bytes: out,
    width: info.width,
    height: outHeight,
    frames: outFrames,
    format,
    sha256: createHash("sha256").update(out).digest("hex"),
  };
}

// ---------------------------------------------------------------------------------------------
// sharp error mapping

/** Run a sharp call on untrusted input; every failure becomes an {@link InvalidImageError}. */
async function withSharpErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof InvalidImageError) throw err;
    const msg = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(msg)) {
      throw new InvalidImageError("image_dimensions_exceeded", "The image has more pixels than allowed.", {
        cause: err,
      });
    }
    if (/unsupported image format/i.test(msg)) {
      throw new InvalidImageError("image_type_unsupported", "The image format is not supported.", { cause: err });
    }
    if (/timeout/i.test(msg)) {
      // Time ran out because the machine is busy: the server's fault, not the image's (503).
      throw new DecodeOverloadedError(
        "decode_timeout",
        DECODE_QUEUE_DEFAULTS.retryAfterSec,
        `decoding took longer than ${IMAGE_LIMITS.decodeTimeoutSeconds} s`,
        { cause: err },
      );
    }
    throw new InvalidImageError("image_corrupt", "The image is truncated or corrupt and could not be decoded.", {
      cause: err,
    });
  }
}
