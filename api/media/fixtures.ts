/**
 * Test fixture generators for `api/media/image.test.ts`: real images made with sharp at test time,
 * and hand-framed hostile files (crafted PNG chunks with valid CRCs, patched GIF/WebP headers,
 * a minimal ZIP). Test-only; nothing in the service imports this module.
 */
import { deflateSync } from "node:zlib";
import sharp from "sharp";

/** CRC-32 (IEEE 802.3, as used by PNG and ZIP), bitwise; fixtures are small. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** Deterministic pseudo-random bytes (xorshift32), so fixtures do not compress away. */
export function noise(length: number, seed = 0x9e3779b9): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** Raw RGB(A) pixels: a noisy gradient (different per `seed`). */
function pixels(width: number, height: number, channels: 3 | 4, seed = 1): Buffer {
  const n = noise(width * height * channels, seed);
  for (let i = 0; i < width * height; i++) {
    const o = i * channels;
    n[o] = (n[o]! & 0x1f) + ((i % width) * 200) / width;
    if (channels === 4) n[o + 3] = 255;
  }
  return n;
}

export async function png(width = 64, height = 48): Promise<Buffer> {
  return sharp(pixels(width, height, 3), { raw: { width, height, channels: 3 } }).png().toBuffer();
}

export async function jpeg(width = 64, height = 48): Promise<Buffer> {
  return sharp(pixels(width, height, 3), { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}

/** Markers written into the EXIF/GPS/XMP of {@link jpegWithMetadata}, to look for after sanitizing. */
export const METADATA_MARKERS = ["SecretCam", "Jane Q. Creator", "GPSSecretDatum", "XmpSecretTitle"] as const;

type IfdEntry = { tag: number; type: 3 | 4 | 5 | 2; values: number[] | string };

/** Little-endian TIFF IFD bytes placed at `at` (offsets are relative to the TIFF header). */
function ifd(entries: IfdEntry[], at: number, next = 0): Buffer {
  const head = Buffer.alloc(2 + entries.length * 12 + 4);
  head.writeUInt16LE(entries.length, 0);
  const extra: Buffer[] = [];
  let dataAt = at + head.length;
  entries.forEach((e, i) => {
    const o = 2 + i * 12;
    let payload: Buffer;
    let count: number;
    if (e.type === 2) {
      payload = Buffer.from(`${e.values as string}\0`, "latin1");
      count = payload.length;
    } else {
      const nums = e.values as number[];
      const size = e.type === 3 ? 2 : e.type === 4 ? 4 : 8;
      payload = Buffer.alloc(nums.length * size);
      count = e.type === 5 ? nums.length / 2 : nums.length;
      nums.forEach((v, k) => {
        if (e.type === 3) payload.writeUInt16LE(v, k * 2);
        else payload.writeUInt32LE(v, k * 4);
      });
    }
    head.writeUInt16LE(e.tag, o);
    head.writeUInt16LE(e.type, o + 2);
    head.writeUInt32LE(count, o + 4);
    if (payload.length <= 4) payload.copy(head, o + 8);
    else {
      head.writeUInt32LE(dataAt, o + 8);
      const padded = payload.length % 2 ? Buffer.concat([payload, Buffer.alloc(1)]) : payload;
      extra.push(padded);
      dataAt += padded.length;
    }
  });
  head.writeUInt32LE(next, head.length - 4);
  return Buffer.concat([head, ...extra]);
}

/**
 * An EXIF APP1 segment (CIPA DC-008): IFD0 with Make, Artist, Orientation and a GPS IFD pointer;
 * the GPS IFD with latitude/longitude and a GPSMapDatum marker string.
 */
export function exifApp1(orientation = 1): Buffer {
  const gpsEntries = (): IfdEntry[] => [
    { tag: 0x0001, type: 2, values: "N" },
    { tag: 0x0002, type: 5, values: [48, 1, 51, 1, 2400, 100] },
    { tag: 0x0003, type: 2, values: "E" },
    { tag: 0x0004, type: 5, values: [2, 1, 21, 1, 300, 100] },
    { tag: 0x0012, type: 2, values: "GPSSecretDatum" },
  ];
  const ifd0Entries = (gpsAt: number): IfdEntry[] => [
    { tag: 0x010f, type: 2, values: "SecretCam" },
    { tag: 0x0112, type: 3, values: [orientation, 0] },
    { tag: 0x013b, type: 2, values: "Jane Q. Creator" },
    { tag: 0x8825, type: 4, values: [gpsAt] },
  ];
  const ifd0Len = ifd(ifd0Entries(0), 8).length;
  const gpsAt = 8 + ifd0Len;
  const tiff = Buffer.concat([
    Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]),
    ifd(ifd0Entries(gpsAt), 8),
    ifd(gpsEntries(), gpsAt),
  ]);
  const body = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/**
 * A JPEG carrying EXIF (camera, artist, orientation), GPS and XMP. `orientation` is the EXIF
 * Orientation tag (6 = rotate 90 degrees clockwise to display).
 */
export async function jpegWithMetadata(width = 40, height = 20, orientation = 1): Promise<Buffer> {
  const base = await sharp(pixels(width, height, 3), { raw: { width, height, channels: 3 } })
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
        '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>XmpSecretTitle</dc:title>' +
        "</rdf:Description></rdf:RDF></x:xmpmeta>",
    )
    .jpeg({ quality: 80 })
    .toBuffer();
  return Buffer.concat([base.subarray(0, 2), exifApp1(orientation), base.subarray(2)]);
}

export async function webp(width = 64, height = 48, lossless = false): Promise<Buffer> {
  return sharp(pixels(width, height, 3), { raw: { width, height, channels: 3 } })
    .webp(lossless ? { lossless: true } : { quality: 80 })
    .toBuffer();
}

export async function gif(width = 32, height = 24): Promise<Buffer> {
  return sharp(pixels(width, height, 4), { raw: { width, height, channels: 4 } }).gif().toBuffer();
}

/** Frames stacked vertically, each visibly different (so encoders do not merge them). */
function framesRaw(width: number, height: number, frames: number): Buffer {
  const out = Buffer.alloc(width * height * frames * 4);
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < width * height; i++) {
      const o = (f * width * height + i) * 4;
      out[o] = (f * 37) & 0xff;
      out[o + 1] = ((i % width) * 255) / width;
      out[o + 2] = (255 - f * 53) & 0xff;
      out[o + 3] = 255;
    }
  }
  return out;
}

export async function animatedGif(width = 32, height = 24, frames = 3, delay = [100, 200, 300]): Promise<Buffer> {
  return sharp(framesRaw(width, height, frames), { raw: { width, height: height * frames, channels: 4, pageHeight: height } })
    .gif(delay.length > 0 ? { loop: 0, delay: delay.slice(0, frames) } : { loop: 0 })
    .toBuffer();
}

export async function animatedWebp(width = 32, height = 24, frames = 3): Promise<Buffer> {
  return sharp(framesRaw(width, height, frames), { raw: { width, height: height * frames, channels: 4, pageHeight: height } })
    .webp({ loop: 0, delay: 100, quality: 80 })
    .toBuffer();
}

/** One PNG chunk: length, type, data, CRC over type + data. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const body = Buffer.concat([head.subarray(4), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([head.subarray(0, 4), body, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** IHDR data: width, height, bit depth, colour type (0 grey, 2 RGB), no interlace. */
export function ihdr(width: number, height: number, bitDepth = 8, colourType = 2): Buffer {
  const d = Buffer.alloc(13);
  d.writeUInt32BE(width, 0);
  d.writeUInt32BE(height, 4);
  d[8] = bitDepth;
  d[9] = colourType;
  return d;
}

/**
 * A tiny, framing-valid PNG whose IHDR declares `width` x `height` (e.g. 50000 x 50000 RGB = 7.5 GB
 * decoded) with one short IDAT: the classic header-only decompression bomb.
 */
export function pngDeclaring(width: number, height: number): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", ihdr(width, height)),
    pngChunk("IDAT", deflateSync(Buffer.alloc(1024))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * A complete, valid PNG of `side` x `side` 1-bit grey pixels, all zero: `side`^2 pixels decoded
 * from a file of a few KiB (e.g. 8192 -> 67 M pixels from about 8 KiB).
 */
export function zeroPngBomb(side: number): Buffer {
  const row = 1 + Math.ceil(side / 8);
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", ihdr(side, side, 1, 0)),
    pngChunk("IDAT", deflateSync(Buffer.alloc(row * side), { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Split a PNG into its chunks (type + full chunk bytes), signature excluded. */
export function pngChunks(file: Buffer): Array<{ type: string; bytes: Buffer }> {
  const out: Array<{ type: string; bytes: Buffer }> = [];
  let p = 8;
  while (p < file.length) {
    const len = file.readUInt32BE(p);
    out.push({ type: file.toString("latin1", p + 4, p + 8), bytes: file.subarray(p, p + 12 + len) });
    p += 12 + len;
  }
  return out;
}

/** Insert extra chunks just before IEND. */
export function pngInsertBeforeIend(file: Buffer, ...chunks: Buffer[]): Buffer {
  const parts = pngChunks(file);
  const iend = parts.findIndex((c) => c.type === "IEND");
  return Buffer.concat([
    PNG_SIGNATURE,
    ...parts.slice(0, iend).map((c) => c.bytes),
    ...chunks,
    ...parts.slice(iend).map((c) => c.bytes),
  ]);
}

/** A minimal, valid ZIP archive holding one stored file (PKWARE APPNOTE 4.3). */
export function zipArchive(name = "shell.php", content = "<?php system($_GET['c']); ?>"): Buffer {
  const data = Buffer.from(content, "latin1");
  const fname = Buffer.from(name, "latin1");
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fname.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fname.length, 28);
  const localPart = Buffer.concat([local, fname, data]);
  const centralPart = Buffer.concat([central, fname]);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(1, 8);
  eocd.writeUInt16LE(1, 10);
  eocd.writeUInt32LE(centralPart.length, 12);
  eocd.writeUInt32LE(localPart.length, 16);
  return Buffer.concat([localPart, centralPart, eocd]);
}

/** A minimal valid 2x2 24-bit BMP (BITMAPINFOHEADER). */
export function bmp(): Buffer {
  const rowSize = 8; // 2 px * 3 bytes, padded to 4
  const pixelBytes = rowSize * 2;
  const b = Buffer.alloc(54 + pixelBytes);
  b.write("BM", 0, "latin1");
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(2, 18);
  b.writeInt32LE(2, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  b.writeUInt32LE(pixelBytes, 34);
  return b;
}

/** Offset of the first GIF image descriptor (0x2C) after header, screen descriptor and GCT. */
export function gifFirstImageDescriptor(file: Buffer): number {
  let p = 13;
  if (file[10]! & 0x80) p += 3 << ((file[10]! & 7) + 1);
  while (file[p] === 0x21) {
    p += 2;
    while (file[p] !== 0) p += 1 + file[p]!;
    p++;
  }
  if (file[p] !== 0x2c) throw new Error("fixture: no image descriptor");
  return p;
}

/** A GIF comment extension block carrying `text`. */
export function gifComment(text: string): Buffer {
  const t = Buffer.from(text, "latin1");
  if (t.length > 255) throw new Error("fixture: comment too long");
  return Buffer.concat([Buffer.from([0x21, 0xfe, t.length]), t, Buffer.from([0])]);
}

/** A JPEG COM (comment) segment carrying `text`. */
export function jpegComment(text: string): Buffer {
  const t = Buffer.from(text, "latin1");
  const head = Buffer.from([0xff, 0xfe, 0, 0]);
  head.writeUInt16BE(t.length + 2, 2);
  return Buffer.concat([head, t]);
}

/** Offset just past the JPEG's first entropy-coded segment start (after the SOS header). */
export function jpegScanStart(file: Buffer): number {
  let p = 2;
  for (;;) {
    const marker = file[p + 1]!;
    const len = file.readUInt16BE(p + 2);
    if (marker === 0xda) return p + 2 + len;
    p += 2 + len;
  }
}
