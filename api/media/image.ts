/**
 * The pure image core of the media upload (issue 3, "Media upload"): decide what an uploaded file
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
import { DECODE_QUEUE_DEFAULTS, DecodeOverloadedError, type DecodeQueue } from "./decodeQueue";

/** Formats accepted as input; the output keeps the input's format (see {@link sanitizeImage}). */
export type ImageFormat = "png" | "jpeg" | "webp" | "gif";

/** Content type of each accepted format, as served. */
export type ImageContentType = "image/png" | "image/jpeg" | "image/webp" | "image/gif";

/** Format -> `Content-Type` to serve the sanitized bytes with. */
export const IMAGE_CONTENT_TYPES: Readonly<Record<ImageFormat, ImageContentType>> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
};

/**
 * Upload limits, enforced by {@link sanitizeImage}. Document them with the endpoint.
 *
 * - `maxBytes`: upload size in bytes (2 MiB), checked before any parsing.
 * - `maxWidth` / `maxHeight`: pixels per side of the image (for GIF: of the logical screen and of
 *   every frame; for animations: of one frame).
 * - `maxPixels`: total decoded pixels, summed over all frames of an animation (4096 x 4096 =
 *   16,777,216, about 64 MiB of RGBA). Also passed to sharp as `limitInputPixels`.
 * - `maxFrames`: frames of an animated GIF or WebP.
 * - `decodeTimeoutSeconds`: wall-clock cap on one decode + re-encode (sharp `timeout`).
 * - `formats`: accepted input formats, decided from the bytes (magic numbers), never from a
 *   declared type or file name.
 */
export const IMAGE_LIMITS = {
  maxBytes: 2 * 1024 * 1024,
  maxWidth: 4096,
  maxHeight: 4096,
  maxPixels: 4096 * 4096,
  maxFrames: 256,
  decodeTimeoutSeconds: 10,
  formats: ["png", "jpeg", "webp", "gif"] as const satisfies readonly ImageFormat[],
} as const;

/**
 * Every `error` identifier an image upload can fail with, and its meaning. All are HTTP 400; add
 * them to the API error catalogue as they are.
 */
export const IMAGE_ERROR_CODES = {
  image_missing: "No image was sent, or the file is empty.",
  image_too_large: "The file is larger than the upload limit (2 MiB).",
  image_type_unsupported:
    "The bytes are not a PNG, JPEG, WebP or GIF image (SVG, BMP, TIFF, HEIC, PDF, HTML and text are refused), whatever the declared type.",
  image_corrupt: "The image is truncated, malformed or could not be decoded.",
  image_dimensions_exceeded:
    "The image declares a width, height, pixel count or frame count over the limits (4096 px per side, 16,777,216 pixels in total, 256 frames).",
  image_polyglot:
    "The file carries data besides the image (bytes after the end of the image, or embedded markup, script or an archive).",
} as const;

/** An image error identifier (closed set, see {@link IMAGE_ERROR_CODES}). */
export type ImageErrorCode = keyof typeof IMAGE_ERROR_CODES;

/**
 * Why an upload was refused. `code` is the API `error` identifier (HTTP 400), `shortMessage` its
 * fixed one-line meaning, `message` a human sentence with the detail (never echoes file content).
 */
export class InvalidImageError extends Error {
  override readonly name = "InvalidImageError" as const;
  /** One line, fixed per code (the {@link IMAGE_ERROR_CODES} meaning). */
  readonly shortMessage: string;
  constructor(
    readonly code: ImageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.shortMessage = IMAGE_ERROR_CODES[code];
  }
}

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
 * Validate an uploaded image by its real bytes and re-encode it.
 *
 * Policy: the output keeps the input format (PNG -> PNG, JPEG -> JPEG quality 90, WebP -> WebP
 * lossless if the input was lossless else quality 90, GIF -> GIF). Animated GIF and animated WebP
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
        return pipeline.jpeg({ quality: 90 }).toBuffer({ resolveWithObject: true });
      case "webp":
        return pipeline
          .webp(layout.lossless ? { lossless: true } : { quality: 90 })
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
// Sniffing

/** Signatures of formats we refuse, only to give a precise message. */
const KNOWN_UNSUPPORTED: ReadonlyArray<{ name: string; test: (b: Uint8Array) => boolean }> = [
  { name: "BMP", test: (b) => startsWith(b, [0x42, 0x4d]) },
  { name: "TIFF", test: (b) => startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]) },
  { name: "PDF", test: (b) => startsWith(b, ascii("%PDF")) },
  { name: "ZIP", test: (b) => startsWith(b, [0x50, 0x4b, 0x03, 0x04]) },
  { name: "ICO", test: (b) => startsWith(b, [0x00, 0x00, 0x01, 0x00]) },
  { name: "HEIC/AVIF", test: (b) => b.length >= 12 && matchesAt(b, 4, ascii("ftyp")) },
  {
    name: "JPEG XL",
    test: (b) => startsWith(b, [0xff, 0x0a]) || startsWith(b, [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20]),
  },
  { name: "SVG/XML/HTML", test: (b) => /^\s*</.test(latin1(b.subarray(0, 64)).replace(/^\uFEFF|^\xEF\xBB\xBF/, "")) },
];

/**
 * Decide the format from the magic number (PNG 8-byte signature, JPEG SOI + marker, RIFF/WEBP,
 * GIF87a/GIF89a). Throws `image_type_unsupported` for anything else.
 */
function sniffFormat(b: Uint8Array): ImageFormat {
  if (startsWith(b, PNG_SIGNATURE)) return "png";
  if (startsWith(b, [0xff, 0xd8, 0xff])) return "jpeg";
  if (b.length >= 12 && startsWith(b, ascii("RIFF")) && matchesAt(b, 8, ascii("WEBP"))) return "webp";
  if (startsWith(b, ascii("GIF87a")) || startsWith(b, ascii("GIF89a"))) return "gif";
  const known = KNOWN_UNSUPPORTED.find((k) => k.test(b));
  throw new InvalidImageError(
    "image_type_unsupported",
    known
      ? `The file is ${known.name}; only PNG, JPEG, WebP and GIF are accepted.`
      : "The file is not a PNG, JPEG, WebP or GIF image.",
  );
}

// ---------------------------------------------------------------------------------------------
// Container walk: framing only (lengths, markers, block sizes), never pixel data.

type Layout = {
  /** Declared width (GIF: max of logical screen and frame extents). */
  width: number;
  /** Declared height of one frame. */
  height: number;
  frames: number;
  /** WebP only: the image data is VP8L (lossless). */
  lossless: boolean;
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function truncated(format: ImageFormat, what: string): InvalidImageError {
  return new InvalidImageError(
    "image_corrupt",
    `The ${format.toUpperCase()} file is truncated or malformed (${what}).`,
  );
}

function trailing(format: ImageFormat, extra: number): InvalidImageError {
  return new InvalidImageError(
    "image_polyglot",
    `The ${format.toUpperCase()} file has ${extra} bytes of other data after the end of the image.`,
  );
}

function inspectContainer(b: Uint8Array, format: ImageFormat): Layout {
  switch (format) {
    case "png":
      return inspectPng(b);
    case "jpeg":
      return inspectJpeg(b);
    case "webp":
      return inspectWebp(b);
    case "gif":
      return inspectGif(b);
  }
}

/** PNG: signature, then length/type/data/CRC chunks; IHDR first (13 bytes), IEND last. */
function inspectPng(b: Uint8Array): Layout {
  let p = PNG_SIGNATURE.length;
  let width = 0;
  let height = 0;
  let first = true;
  for (;;) {
    if (p + 12 > b.length) throw truncated("png", "chunk header past the end of the file");
    const len = u32be(b, p);
    const type = latin1(b.subarray(p + 4, p + 8));
    const end = p + 12 + len;
    if (len > 0x7fffffff || end > b.length) throw truncated("png", `${type} chunk runs past the end of the file`);
    if (first) {
      if (type !== "IHDR" || len !== 13) throw truncated("png", "IHDR is not the first chunk");
      width = u32be(b, p + 8);
      height = u32be(b, p + 12);
      first = false;
    }
    p = end;
    if (type === "IEND") break;
  }
  rejectTrailing(b, p, "png");
  return { width, height, frames: 1, lossless: true };
}

/**
 * JPEG: SOI, then marker segments (2-byte big-endian length) until SOS, entropy-coded data (0xFF is
 * followed by 0x00 stuffing or RST0-7 inside it), more segments/scans, EOI. Reads SOFn dimensions.
 * After EOI only zero/0xFF padding or further complete JPEG streams (MPF / Ultra HDR secondary
 * images, CIPA DC-007) are tolerated; they are dropped by the re-encode.
 */
function inspectJpeg(b: Uint8Array): Layout {
  const first = walkJpegStream(b, 0);
  let p = first.end;
  // Concatenated secondary images (multi-picture format): walk each completely.
  while (p + 3 <= b.length && b[p] === 0xff && b[p + 1] === 0xd8 && b[p + 2] === 0xff) {
    p = walkJpegStream(b, p).end;
  }
  rejectTrailing(b, p, "jpeg", true);
  return { width: first.width, height: first.height, frames: 1, lossless: false };
}

function walkJpegStream(b: Uint8Array, start: number): { end: number; width: number; height: number } {
  let p = start + 2; // SOI
  let width = 0;
  let height = 0;
  let sawFrame = false;
  for (;;) {
    if (p >= b.length) throw truncated("jpeg", "no end-of-image marker");
    if (b[p] !== 0xff) throw truncated("jpeg", "expected a marker");
    while (p < b.length && b[p] === 0xff) p++; // fill bytes
    if (p >= b.length) throw truncated("jpeg", "no end-of-image marker");
    const marker = b[p]!;
    p++;
    if (marker === 0xd9) break; // EOI
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // TEM, RSTn: no length
    if (marker === 0xd8 || marker === 0x00) throw truncated("jpeg", "unexpected marker");
    if (p + 2 > b.length) throw truncated("jpeg", "segment length past the end of the file");
    const len = u16be(b, p);
    if (len < 2 || p + len > b.length) throw truncated("jpeg", "segment runs past the end of the file");
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof && !sawFrame) {
      if (len < 8) throw truncated("jpeg", "short frame header");
      height = u16be(b, p + 3);
      width = u16be(b, p + 5);
      sawFrame = true;
    }
    p += len;
    if (marker === 0xda) {
      // Entropy-coded data: scan to the next marker that is not stuffing or a restart marker.
      for (;;) {
        if (p + 1 >= b.length) throw truncated("jpeg", "scan data runs past the end of the file");
        if (b[p] === 0xff) {
          const next = b[p + 1]!;
          if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
            p += next === 0xff ? 1 : 2;
            continue;
          }
          break;
        }
        p++;
      }
    }
  }
  if (!sawFrame) throw truncated("jpeg", "no frame header");
  return { end: p, width, height };
}

/**
 * WebP: RIFF header (`RIFF`, little-endian payload size, `WEBP`), then chunks padded to even size.
 * Dimensions from VP8X (canvas, 24-bit minus one), VP8L (14-bit minus one) or VP8 (14-bit key
 * frame header). Frames are counted from ANMF chunks.
 */
function inspectWebp(b: Uint8Array): Layout {
  const riffEnd = 8 + u32le(b, 4);
  if (riffEnd > b.length) throw truncated("webp", "RIFF size past the end of the file");
  let p = 12;
  let width = 0;
  let height = 0;
  let frames = 0;
  let lossless: boolean | undefined;
  let haveSize = false;
  while (p < riffEnd) {
    if (p + 8 > riffEnd) throw truncated("webp", "chunk header past the end of the RIFF");
    const type = latin1(b.subarray(p, p + 4));
    const len = u32le(b, p + 4);
    const data = p + 8;
    const end = data + len + (len & 1);
    if (data + len > riffEnd) throw truncated("webp", `${type.trim()} chunk runs past the end of the RIFF`);
    if (type === "VP8X" && !haveSize) {
      if (len < 10) throw truncated("webp", "short VP8X chunk");
      width = u24le(b, data + 4) + 1;
      height = u24le(b, data + 7) + 1;
      haveSize = true;
    } else if (type === "VP8L" || type === "VP8 ") {
      const size = webpBitstreamSize(b, data, len, type);
      if (!haveSize) {
        ({ width, height } = size);
        haveSize = true;
      }
      lossless ??= type === "VP8L";
      frames = Math.max(frames, 1);
    } else if (type === "ANMF") {
      frames++;
      if (len >= 24 && lossless === undefined) lossless = latin1(b.subarray(data + 16, data + 20)) === "VP8L";
    }
    p = Math.min(end, riffEnd);
  }
  if (!haveSize) throw truncated("webp", "no image data");
  rejectTrailing(b, riffEnd, "webp");
  return { width, height, frames: Math.max(frames, 1), lossless: lossless ?? false };
}

function webpBitstreamSize(b: Uint8Array, data: number, len: number, type: string): { width: number; height: number } {
  if (type === "VP8L") {
    if (len < 5 || b[data] !== 0x2f) throw truncated("webp", "bad VP8L header");
    const bits = u32le(b, data + 1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (len < 10 || b[data + 3] !== 0x9d || b[data + 4] !== 0x01 || b[data + 5] !== 0x2a) {
    throw truncated("webp", "bad VP8 header");
  }
  return { width: u16le(b, data + 6) & 0x3fff, height: u16le(b, data + 8) & 0x3fff };
}

/**
 * GIF: header, logical screen descriptor (+ global colour table), then blocks: `!` extensions and
 * `,` image descriptors (+ local colour table, LZW code size) each followed by data sub-blocks,
 * until the `;` trailer. Width/height are the larger of the logical screen and every frame's
 * extent (left + width, top + height), so a huge logical screen or frame is refused from headers.
 */
function inspectGif(b: Uint8Array): Layout {
  if (b.length < 13) throw truncated("gif", "short header");
  let width = u16le(b, 6);
  let height = u16le(b, 8);
  let p = 13;
  if (b[10]! & 0x80) p += 3 << ((b[10]! & 7) + 1);
  let frames = 0;
  const skipSubBlocks = (): void => {
    for (;;) {
      if (p >= b.length) throw truncated("gif", "data runs past the end of the file");
      const n = b[p]!;
      p += 1 + n;
      if (n === 0) return;
    }
  };
  for (;;) {
    if (p >= b.length) throw truncated("gif", "no trailer");
    const block = b[p]!;
    if (block === 0x3b) {
      p++;
      break;
    }
    if (block === 0x21) {
      p += 2; // introducer + label
      skipSubBlocks();
    } else if (block === 0x2c) {
      if (p + 10 > b.length) throw truncated("gif", "image descriptor past the end of the file");
      const left = u16le(b, p + 1);
      const top = u16le(b, p + 3);
      const w = u16le(b, p + 5);
      const h = u16le(b, p + 7);
      const packed = b[p + 9]!;
      width = Math.max(width, left + w);
      height = Math.max(height, top + h);
      frames++;
      if (frames > IMAGE_LIMITS.maxFrames) break; // refused by checkDimensions; stop walking
      p += 10;
      if (packed & 0x80) p += 3 << ((packed & 7) + 1);
      p++; // LZW minimum code size
      skipSubBlocks();
    } else {
      throw truncated("gif", "unknown block");
    }
  }
  if (frames === 0) throw truncated("gif", "no image");
  if (frames <= IMAGE_LIMITS.maxFrames) rejectTrailing(b, p, "gif");
  return { width, height, frames, lossless: true };
}

/** Bytes after the format's end: only 0x00 padding (and 0xFF fill after a JPEG) is tolerated. */
function rejectTrailing(b: Uint8Array, end: number, format: ImageFormat, allowFf = false): void {
  for (let i = end; i < b.length; i++) {
    const v = b[i]!;
    if (v !== 0x00 && !(allowFf && v === 0xff)) throw trailing(format, b.length - end);
  }
}

function checkDimensions(width: number, height: number, frames: number, verb: string): void {
  if (!(width > 0 && height > 0 && frames > 0)) {
    throw new InvalidImageError("image_corrupt", `The image ${verb} an empty size (${width}x${height}).`);
  }
  if (width > IMAGE_LIMITS.maxWidth || height > IMAGE_LIMITS.maxHeight) {
    throw new InvalidImageError(
      "image_dimensions_exceeded",
      `The image ${verb} ${width}x${height} pixels; the limit is ${IMAGE_LIMITS.maxWidth}x${IMAGE_LIMITS.maxHeight}.`,
    );
  }
  if (frames > IMAGE_LIMITS.maxFrames) {
    throw new InvalidImageError(
      "image_dimensions_exceeded",
      `The image ${verb} more than ${IMAGE_LIMITS.maxFrames} frames; the limit is ${IMAGE_LIMITS.maxFrames}.`,
    );
  }
  if (width * height * frames > IMAGE_LIMITS.maxPixels) {
    throw new InvalidImageError(
      "image_dimensions_exceeded",
      `The image ${verb} ${width * height * frames} pixels over ${frames} frame(s); the limit is ${IMAGE_LIMITS.maxPixels}.`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Payload scan

/**
 * Markup/script openers that make a file dangerous if a browser or server ever sniffs it as
 * HTML/SVG/XML/PHP, matched case-insensitively anywhere in the (latin1-decoded) bytes. Each pattern
 * is long enough (or needs a delimiter after a short tag name) that compressed image data matches
 * by chance with negligible probability (well under 1e-6 for a 2 MiB file). XMP packets
 * (`<?xpacket`, `<x:xmpmeta`, `<rdf:RDF`) do not match; they are simply dropped by the re-encode.
 */
const MARKUP_PATTERNS: readonly RegExp[] = [
  /<script/,
  /<\?php/,
  /<!doctype/,
  /<iframe/,
  /<object[\s>/]/,
  /<embed[\s>/]/,
  /<style[\s>/]/,
  /<(?:html|head|body|meta|svg|form|link|base)[\s>/]/,
  /<a\s+href/,
  /javascript:/,
  /\bon(?:error|load)\s*=/,
];

/** ZIP end-of-central-directory signature; readers look for it in the last 65,557 bytes. */
const ZIP_EOCD = [0x50, 0x4b, 0x05, 0x06];
const ZIP_EOCD_WINDOW = 22 + 0xffff;
/** ZIP central-directory and local-file header signatures (APPNOTE 4.3.7, 4.3.12). */
const ZIP_CDH = [0x50, 0x4b, 0x01, 0x02];
const ZIP_LFH = [0x50, 0x4b, 0x03, 0x04];

/**
 * Refuse markup/script anywhere, and (input only) a ZIP archive: an end-of-central-directory record
 * in the last 65,557 bytes plus a central-directory or local-file header anywhere. A ZIP/JAR/DOCX
 * polyglot can hide its entries in an ancillary chunk before the image end, so the trailing-data
 * check alone would miss it. Compressed text (PNG zTXt/iTXt) is not inflated; it is dropped by the
 * re-encode. The output is scanned for markup too (defence against payloads crafted to survive in
 * re-encoded pixel data).
 */
function scanForPayload(b: Uint8Array, where: "input" | "output"): void {
  const text = latin1(b).toLowerCase();
  const hit = MARKUP_PATTERNS.find((re) => re.test(text));
  if (hit !== undefined) {
    throw new InvalidImageError(
      "image_polyglot",
      where === "input"
        ? `The file contains embedded markup or script (matched ${hit.source}).`
        : `The re-encoded image still contains markup-like bytes (matched ${hit.source}).`,
    );
  }
  if (where === "input") {
    const from = Math.max(0, b.length - ZIP_EOCD_WINDOW);
    if (indexOf(b, ZIP_EOCD, from) >= 0 && (indexOf(b, ZIP_CDH, 0) >= 0 || indexOf(b, ZIP_LFH, 0) >= 0)) {
      throw new InvalidImageError("image_polyglot", "The file contains an embedded ZIP archive.");
    }
  }
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

// ---------------------------------------------------------------------------------------------
// Byte helpers

function ascii(s: string): number[] {
  return Array.from(s, (c) => c.charCodeAt(0));
}
function latin1(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");
}
function startsWith(b: Uint8Array, sig: readonly number[]): boolean {
  return matchesAt(b, 0, sig);
}
function matchesAt(b: Uint8Array, at: number, sig: readonly number[]): boolean {
  if (at + sig.length > b.length) return false;
  return sig.every((v, i) => b[at + i] === v);
}
function indexOf(b: Uint8Array, sig: readonly number[], from: number): number {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).indexOf(Buffer.from(sig), from);
}
function u16be(b: Uint8Array, p: number): number {
  return (b[p]! << 8) | b[p + 1]!;
}
function u16le(b: Uint8Array, p: number): number {
  return b[p]! | (b[p + 1]! << 8);
}
function u24le(b: Uint8Array, p: number): number {
  return b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16);
}
function u32be(b: Uint8Array, p: number): number {
  return ((b[p]! << 24) >>> 0) + ((b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!);
}
function u32le(b: Uint8Array, p: number): number {
  return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16)) + ((b[p + 3]! << 24) >>> 0);
}
