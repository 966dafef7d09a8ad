/**
 * Sniffing and the container walk of an upload (steps 2-3 of `sanitizeImage`): the format from its
 * magic number, then framing only (chunk lengths, markers, block sizes), never pixel data. Sources:
 * PNG (ISO/IEC 15948), JPEG (ITU-T T.81 / JFIF), WebP (RFC 9649), GIF (GIF89a).
 */
import { ascii, latin1, matchesAt, startsWith, u16be, u16le, u24le, u32be, u32le } from "./bytes";
import { IMAGE_LIMITS, type ImageFormat, InvalidImageError } from "./imageRules";
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
export function sniffFormat(b: Uint8Array): ImageFormat {
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

export type Layout = {
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

export function inspectContainer(b: Uint8Array, format: ImageFormat): Layout {
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
