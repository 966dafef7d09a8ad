import { createHash } from "node:crypto";
import fc from "fast-check";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import * as fx from "../test/fixtures/images";
import {
  IMAGE_CONTENT_TYPES,
  IMAGE_ERROR_CODES,
  IMAGE_LIMITS,
  type ImageErrorCode,
  InvalidImageError,
  sanitizeImage,
  type SanitizedImage,
} from "./image.js";

/** Assert `sanitizeImage(bytes)` rejects with exactly `code`; returns the error for more checks. */
async function rejects(bytes: Uint8Array, code: ImageErrorCode): Promise<InvalidImageError> {
  let caught: unknown;
  try {
    await sanitizeImage(bytes);
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(InvalidImageError);
  const err = caught as InvalidImageError;
  expect({ code: err.code, message: err.message }).toMatchObject({ code });
  expect(err.name).toBe("InvalidImageError");
  expect(err.shortMessage).toBe(IMAGE_ERROR_CODES[code]);
  expect(err.message.length).toBeGreaterThan(0);
  return err;
}

/** The output must be a clean, re-parsable image of the expected type and size. */
async function expectClean(out: SanitizedImage, format: SanitizedImage["format"], width: number, height: number) {
  expect(out.format).toBe(format);
  expect(out.contentType).toBe(IMAGE_CONTENT_TYPES[format]);
  expect(out.width).toBe(width);
  expect(out.height).toBe(height);
  expect(out.sha256).toBe(createHash("sha256").update(out.bytes).digest("hex"));
  expect(out.sha256).toMatch(/^[0-9a-f]{64}$/);
  const meta = await sharp(out.bytes, { animated: true, failOn: "warning" }).metadata();
  expect(meta.format).toBe(format);
  expect(meta.width).toBe(width);
  expect(meta.pageHeight ?? meta.height).toBe(height);
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.icc).toBeUndefined();
  // Re-sanitizing the output is stable in shape (the output passes every check).
  const again = await sanitizeImage(out.bytes);
  expect([again.format, again.width, again.height, again.frames]).toEqual([format, width, height, out.frames]);
}

describe("IMAGE_LIMITS and error codes", () => {
  it("documents the limits", () => {
    expect(IMAGE_LIMITS).toMatchObject({
      maxBytes: 2 * 1024 * 1024,
      maxWidth: 4096,
      maxHeight: 4096,
      maxPixels: 16_777_216,
      maxFrames: 256,
    });
    expect(IMAGE_LIMITS.formats).toEqual(["png", "jpeg", "webp", "gif"]);
  });

  it("has a closed set of codes with a meaning each", () => {
    expect(Object.keys(IMAGE_ERROR_CODES).sort()).toEqual(
      [
        "image_corrupt",
        "image_dimensions_exceeded",
        "image_missing",
        "image_polyglot",
        "image_too_large",
        "image_type_unsupported",
      ].sort(),
    );
    for (const meaning of Object.values(IMAGE_ERROR_CODES)) expect(meaning.length).toBeGreaterThan(10);
    const err = new InvalidImageError("image_corrupt", "detail");
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe("InvalidImageError");
    expect(err.shortMessage).toBe(IMAGE_ERROR_CODES.image_corrupt);
  });
});

describe("sanitizeImage: accepted images", () => {
  it("re-encodes a PNG as PNG", async () => {
    const input = await fx.png(64, 48);
    const out = await sanitizeImage(input);
    await expectClean(out, "png", 64, 48);
    expect(out.frames).toBe(1);
  });

  it("accepts a Uint8Array view into a larger buffer", async () => {
    const input = await fx.png(20, 10);
    const big = new Uint8Array(input.length + 100);
    big.set(input, 50);
    const out = await sanitizeImage(big.subarray(50, 50 + input.length));
    await expectClean(out, "png", 20, 10);
  });

  it("re-encodes a JPEG and strips EXIF, GPS and XMP", async () => {
    const input = await fx.jpegWithMetadata(40, 20);
    const inMeta = await sharp(input).metadata();
    expect(inMeta.exif).toBeDefined();
    expect(inMeta.orientation).toBe(1);
    expect(inMeta.xmp).toBeDefined();
    const latin = input.toString("latin1");
    for (const m of fx.METADATA_MARKERS) expect(latin).toContain(m);

    const out = await sanitizeImage(input);
    await expectClean(out, "jpeg", 40, 20);
    const outLatin = Buffer.from(out.bytes).toString("latin1");
    for (const m of fx.METADATA_MARKERS) expect(outLatin).not.toContain(m);
    expect(outLatin).not.toContain("Exif\0\0");
    expect(outLatin).not.toContain("xmpmeta");
  });

  it("applies EXIF orientation to the pixels before dropping it", async () => {
    const input = await fx.jpegWithMetadata(40, 20, 6);
    expect((await sharp(input).metadata()).orientation).toBe(6);
    const out = await sanitizeImage(input);
    await expectClean(out, "jpeg", 20, 40);
  });

  it("re-encodes lossy and lossless WebP as WebP", async () => {
    const lossy = await sanitizeImage(await fx.webp(64, 48));
    await expectClean(lossy, "webp", 64, 48);
    const lossless = await sanitizeImage(await fx.webp(30, 20, true));
    await expectClean(lossless, "webp", 30, 20);
    expect(Buffer.from(lossless.bytes).includes("VP8L")).toBe(true);
  });

  it("re-encodes a static GIF as GIF", async () => {
    const out = await sanitizeImage(await fx.gif(32, 24));
    await expectClean(out, "gif", 32, 24);
    expect(out.frames).toBe(1);
  });

  it("keeps an animated GIF animated (frames, loop, delays)", async () => {
    const out = await sanitizeImage(await fx.animatedGif(32, 24, 3));
    await expectClean(out, "gif", 32, 24);
    expect(out.frames).toBe(3);
    const meta = await sharp(out.bytes, { animated: true }).metadata();
    expect(meta.pages).toBe(3);
    expect(meta.loop).toBe(0);
    expect(meta.delay).toEqual([100, 200, 300]);
  });

  it("keeps an animated WebP animated", async () => {
    const out = await sanitizeImage(await fx.animatedWebp(32, 24, 3));
    await expectClean(out, "webp", 32, 24);
    expect(out.frames).toBe(3);
  });

  it("decides by the bytes: a JPEG is served as image/jpeg whatever it was called", async () => {
    const out = await sanitizeImage(await fx.jpeg());
    expect(out.contentType).toBe("image/jpeg");
  });

  it("tolerates zero padding after the image end and drops it", async () => {
    const input = Buffer.concat([await fx.png(16, 16), Buffer.alloc(64)]);
    const out = await sanitizeImage(input);
    await expectClean(out, "png", 16, 16);
  });

  it("tolerates a JPEG followed by a complete secondary JPEG (MPF / Ultra HDR) and keeps only the primary", async () => {
    const input = Buffer.concat([await fx.jpeg(40, 30), await fx.jpeg(10, 10)]);
    const out = await sanitizeImage(input);
    await expectClean(out, "jpeg", 40, 30);
  });

  it.each([
    [
      "progressive JPEG",
      () => sharp(fx.noise(48 * 32 * 3), { raw: { width: 48, height: 32, channels: 3 } }).jpeg({ progressive: true }),
      "jpeg",
    ],
    [
      "CMYK JPEG",
      () =>
        sharp(fx.noise(48 * 32 * 3), { raw: { width: 48, height: 32, channels: 3 } })
          .toColourspace("cmyk")
          .jpeg(),
      "jpeg",
    ],
    ["greyscale JPEG", () => sharp(fx.noise(48 * 32), { raw: { width: 48, height: 32, channels: 1 } }).jpeg(), "jpeg"],
    [
      "16-bit PNG",
      () =>
        sharp(fx.noise(48 * 32 * 3), { raw: { width: 48, height: 32, channels: 3 } })
          .toColourspace("rgb16")
          .png(),
      "png",
    ],
    [
      "palette PNG",
      () => sharp(fx.noise(48 * 32 * 3), { raw: { width: 48, height: 32, channels: 3 } }).png({ palette: true }),
      "png",
    ],
    [
      "interlaced PNG with alpha",
      () => sharp(fx.noise(48 * 32 * 4), { raw: { width: 48, height: 32, channels: 4 } }).png({ progressive: true }),
      "png",
    ],
    [
      "PNG with an ICC profile",
      () =>
        sharp(fx.noise(48 * 32 * 3), { raw: { width: 48, height: 32, channels: 3 } })
          .withIccProfile("p3")
          .png(),
      "png",
    ],
    [
      "WebP with alpha",
      () => sharp(fx.noise(48 * 32 * 4), { raw: { width: 48, height: 32, channels: 4 } }).webp({ quality: 70 }),
      "webp",
    ],
  ] as const)("accepts a %s", async (_name, make, format) => {
    const out = await sanitizeImage(await make().toBuffer());
    await expectClean(out, format, 48, 32);
  });

  it("accepts a GIF87a", async () => {
    const g = Buffer.from(await fx.gif(16, 8));
    g.write("GIF87a", 0, "latin1");
    await expectClean(await sanitizeImage(g), "gif", 16, 8);
  });

  it("accepts an image at exactly the dimension limit", async () => {
    const input = await sharp({ create: { width: 4096, height: 1, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    const out = await sanitizeImage(input);
    await expectClean(out, "png", 4096, 1);
  });
});

describe("sanitizeImage: size and type", () => {
  it("rejects zero bytes", async () => {
    await rejects(new Uint8Array(0), "image_missing");
  });

  it("rejects more than maxBytes before parsing anything", async () => {
    const huge = Buffer.concat([await fx.png(), Buffer.alloc(IMAGE_LIMITS.maxBytes)]);
    const t = performance.now();
    const err = await rejects(huge, "image_too_large");
    expect(performance.now() - t).toBeLessThan(50);
    expect(err.message).toContain(String(IMAGE_LIMITS.maxBytes));
    // One byte over the limit, even with nothing but zeros.
    await rejects(new Uint8Array(IMAGE_LIMITS.maxBytes + 1), "image_too_large");
  });

  it("rejects SVG with script", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    await rejects(Buffer.from(svg), "image_type_unsupported");
    await rejects(Buffer.from(`\uFEFF<?xml version="1.0"?>\n${svg}`), "image_type_unsupported");
  });

  it("rejects HTML renamed .png, and plain text", async () => {
    await rejects(
      Buffer.from("<!DOCTYPE html><html><body><script>alert(1)</script></body></html>"),
      "image_type_unsupported",
    );
    await rejects(Buffer.from("just some text, not an image"), "image_type_unsupported");
    await rejects(Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n"), "image_type_unsupported");
  });

  it("rejects BMP, TIFF, AVIF/HEIF and ZIP", async () => {
    const bmpErr = await rejects(fx.bmp(), "image_type_unsupported");
    expect(bmpErr.message).toContain("BMP");
    const tiff = await sharp(await fx.png(8, 8))
      .tiff()
      .toBuffer();
    expect((await rejects(tiff, "image_type_unsupported")).message).toContain("TIFF");
    const avif = await sharp(await fx.png(8, 8))
      .avif()
      .toBuffer();
    expect((await rejects(avif, "image_type_unsupported")).message).toContain("HEIC/AVIF");
    await rejects(fx.zipArchive(), "image_type_unsupported");
  });

  it("rejects a mismatched format: PNG signature over JPEG data", async () => {
    const j = await fx.jpeg();
    await rejects(Buffer.concat([fx.PNG_SIGNATURE, j.subarray(2)]), "image_corrupt");
  });

  it("rejects a lone signature", async () => {
    await rejects(fx.PNG_SIGNATURE, "image_corrupt");
    await rejects(Buffer.from([0xff, 0xd8, 0xff]), "image_corrupt");
    await rejects(Buffer.from("GIF89a"), "image_corrupt");
    await rejects(Buffer.from("RIFF\x04\0\0\0WEBP", "latin1"), "image_corrupt");
  });
});

describe("sanitizeImage: truncated and corrupt", () => {
  it("rejects a PNG truncated mid-IDAT", async () => {
    const p = await fx.png(64, 48);
    const idat = fx.pngChunks(p).find((c) => c.type === "IDAT")!;
    const mid = p.indexOf(idat.bytes) + Math.floor(idat.bytes.length / 2);
    await rejects(p.subarray(0, mid), "image_corrupt");
  });

  it("rejects a PNG missing IEND", async () => {
    const p = await fx.png(64, 48);
    await rejects(p.subarray(0, p.length - 12), "image_corrupt");
  });

  it("rejects a PNG whose IDAT data is damaged but framed correctly (decoder failure)", async () => {
    const p = await fx.png(64, 48);
    const chunks = fx.pngChunks(p);
    const rebuilt = chunks.map((c) => {
      if (c.type !== "IDAT") return c.bytes;
      const data = Buffer.from(c.bytes.subarray(8, c.bytes.length - 4));
      for (let i = 2; i < data.length; i += 7) data[i]! ^= 0x5a;
      return fx.pngChunk("IDAT", data);
    });
    await rejects(Buffer.concat([fx.PNG_SIGNATURE, ...rebuilt]), "image_corrupt");
  });

  it("rejects a PNG with a bad IDAT CRC", async () => {
    const p = Buffer.from(await fx.png(64, 48));
    const idat = fx.pngChunks(p).find((c) => c.type === "IDAT")!;
    const crcAt = p.indexOf(idat.bytes) + idat.bytes.length - 1;
    p[crcAt]! ^= 0xff;
    await rejects(p, "image_corrupt");
  });

  it("rejects a truncated JPEG", async () => {
    const j = await fx.jpeg(64, 48);
    await rejects(j.subarray(0, Math.floor(j.length / 2)), "image_corrupt");
    await rejects(j.subarray(0, j.length - 2), "image_corrupt"); // no EOI
  });

  it("rejects a JPEG with damaged entropy-coded data", async () => {
    const j = Buffer.from(await fx.jpeg(64, 48));
    const start = fx.jpegScanStart(j);
    for (let i = start + 10; i < j.length - 10; i += 3) if (j[i] !== 0xff && j[i]! < 0xf0) j[i] = 0xfe ^ (i & 0x3f);
    await rejects(j, "image_corrupt");
  });

  it("rejects truncated GIF and WebP", async () => {
    const g = await fx.animatedGif();
    await rejects(g.subarray(0, g.length - 40), "image_corrupt");
    const w = await fx.webp();
    await rejects(w.subarray(0, w.length - 10), "image_corrupt");
  });
});

describe("sanitizeImage: decompression bombs", () => {
  it("rejects a tiny PNG declaring 50000x50000 from the header, fast, without allocating", async () => {
    const bomb = fx.pngDeclaring(50_000, 50_000);
    expect(bomb.length).toBeLessThan(200);
    const rss = process.memoryUsage().rss;
    const t = performance.now();
    const err = await rejects(bomb, "image_dimensions_exceeded");
    expect(performance.now() - t).toBeLessThan(100);
    // A decode would need 7.5 GB; nothing near even one full row set was allocated.
    expect(process.memoryUsage().rss - rss).toBeLessThan(32 * 1024 * 1024);
    expect(err.message).toContain("declares 50000x50000");
  });

  it("rejects a valid all-zero PNG of 8192x8192 (67 M pixels in a few KiB)", async () => {
    const bomb = fx.zeroPngBomb(8192);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const t = performance.now();
    const err = await rejects(bomb, "image_dimensions_exceeded");
    expect(performance.now() - t).toBeLessThan(100);
    expect(err.message).toContain("declares");
  });

  it("rejects any side over 4096 even when the pixel count is small", async () => {
    await rejects(fx.pngDeclaring(4097, 1), "image_dimensions_exceeded");
    await rejects(fx.pngDeclaring(1, 4097), "image_dimensions_exceeded");
  });

  it("rejects a GIF with a huge logical screen from the header", async () => {
    const g = Buffer.from(await fx.gif(8, 8));
    g.writeUInt16LE(65535, 6);
    g.writeUInt16LE(65535, 8);
    const t = performance.now();
    const err = await rejects(g, "image_dimensions_exceeded");
    expect(performance.now() - t).toBeLessThan(100);
    expect(err.message).toContain("declares 65535x65535");
  });

  it("rejects a GIF frame placed or sized beyond the limits", async () => {
    const g = Buffer.from(await fx.gif(8, 8));
    const d = fx.gifFirstImageDescriptor(g);
    const moved = Buffer.from(g);
    moved.writeUInt16LE(60000, d + 1); // left
    await rejects(moved, "image_dimensions_exceeded");
    const sized = Buffer.from(g);
    sized.writeUInt16LE(30000, d + 7); // frame height
    await rejects(sized, "image_dimensions_exceeded");
  });

  it("counts pixels over all frames of an animation", async () => {
    const g = Buffer.from(await fx.animatedGif(32, 24, 2, [100, 100]));
    g.writeUInt16LE(4096, 6);
    g.writeUInt16LE(4096, 8); // 2 frames x 4096 x 4096 > maxPixels, each side within limits
    const err = await rejects(g, "image_dimensions_exceeded");
    expect(err.message).toContain("2 frame(s)");
  });

  it("rejects more than maxFrames frames", async () => {
    const input = await fx.animatedGif(2, 2, IMAGE_LIMITS.maxFrames + 1, []);
    const err = await rejects(input, "image_dimensions_exceeded");
    expect(err.message).toContain("frames");
  });

  it("rejects a WebP whose VP8X canvas declares a huge size", async () => {
    const w = Buffer.from(await fx.animatedWebp(16, 16, 2));
    const vp8x = w.indexOf("VP8X");
    expect(vp8x).toBe(12);
    w.writeUIntLE(49_999, vp8x + 8 + 4, 3);
    w.writeUIntLE(49_999, vp8x + 8 + 7, 3);
    const err = await rejects(w, "image_dimensions_exceeded");
    expect(err.message).toContain("declares 50000x50000");
  });

  it("rejects a JPEG whose frame header declares 60000x60000", async () => {
    const j = Buffer.from(await fx.jpeg(16, 16));
    const sof = j.indexOf(Buffer.from([0xff, 0xc0]));
    j.writeUInt16BE(60000, sof + 5);
    j.writeUInt16BE(60000, sof + 7);
    await rejects(j, "image_dimensions_exceeded");
  });
});

describe("sanitizeImage: polyglots", () => {
  it("rejects a PNG with <script> appended after IEND", async () => {
    const p = Buffer.concat([await fx.png(), Buffer.from("<script>alert(document.cookie)</script>")]);
    const err = await rejects(p, "image_polyglot");
    expect(err.message).toMatch(/after the end of the image/);
  });

  it("rejects a PNG with a ZIP appended (PNG/ZIP polyglot)", async () => {
    await rejects(Buffer.concat([await fx.png(), fx.zipArchive()]), "image_polyglot");
  });

  it("rejects a PNG with a ZIP hidden in an ancillary chunk before IEND", async () => {
    const input = fx.pngInsertBeforeIend(await fx.png(), fx.pngChunk("zzZp", fx.zipArchive("a.txt", "hello")));
    const err = await rejects(input, "image_polyglot");
    expect(err.message).toContain("ZIP");
  });

  it("rejects a PNG tEXt chunk carrying <script>", async () => {
    const text = Buffer.from("Comment\0<script>alert(1)</script>", "latin1");
    const input = fx.pngInsertBeforeIend(await fx.png(), fx.pngChunk("tEXt", text));
    const err = await rejects(input, "image_polyglot");
    expect(err.message).toContain("markup or script");
  });

  it("rejects a PNG carrying PHP in an iTXt chunk", async () => {
    const text = Buffer.from("XML:com.adobe.xmp\0\0\0\0\0<?php echo 1; ?>", "latin1");
    await rejects(fx.pngInsertBeforeIend(await fx.png(), fx.pngChunk("iTXt", text)), "image_polyglot");
  });

  it("rejects a JPEG with a PHP payload in a COM segment, and with HTML after EOI", async () => {
    const j = await fx.jpeg();
    const withCom = Buffer.concat([j.subarray(0, 2), fx.jpegComment("<?php system($_GET['c']); ?>"), j.subarray(2)]);
    await rejects(withCom, "image_polyglot");
    await rejects(Buffer.concat([j, Buffer.from("<html><body>hi</body></html>")]), "image_polyglot");
  });

  it("rejects a GIF with a script comment, and with data after the trailer", async () => {
    const g = await fx.gif();
    const d = fx.gifFirstImageDescriptor(g);
    const withComment = Buffer.concat([g.subarray(0, d), fx.gifComment("<svg onload=alert(1)>"), g.subarray(d)]);
    await rejects(withComment, "image_polyglot");
    await rejects(Buffer.concat([g, Buffer.from("MZ\x90\0payload", "latin1")]), "image_polyglot");
  });

  it("rejects a WebP with data after the RIFF payload", async () => {
    await rejects(Buffer.concat([await fx.webp(), Buffer.from("//payload")]), "image_polyglot");
  });

  it("rejects a JPEG followed by something that only starts like a JPEG", async () => {
    const j = await fx.jpeg();
    await rejects(Buffer.concat([j, Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("junk")]), "image_corrupt");
  });

  it("keeps XMP-bearing images (XMP is not a polyglot) but strips the XMP", async () => {
    const out = await sanitizeImage(await fx.jpegWithMetadata());
    expect(Buffer.from(out.bytes).includes("xmpmeta")).toBe(false);
  });
});

describe("sanitizeImage: fuzz", () => {
  const isInvalidImage = (err: unknown) =>
    err instanceof InvalidImageError && Object.hasOwn(IMAGE_ERROR_CODES, err.code);

  it("random bytes are always refused with an InvalidImageError", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<number[]>(
          [],
          [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
          [0xff, 0xd8, 0xff],
          [...Buffer.from("GIF89a")],
        ),
        fc.uint8Array({ maxLength: 512 }),
        async (prefix, rest) => {
          const input = new Uint8Array([...prefix, ...rest]);
          await expect(sanitizeImage(input)).rejects.toSatisfy(isInvalidImage);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("mutated real images either sanitize or fail with an InvalidImageError", async () => {
    const seeds = [
      await fx.png(24, 16),
      await fx.jpeg(24, 16),
      await fx.webp(24, 16),
      await fx.animatedGif(12, 8, 2, [50, 50]),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: seeds.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        fc.option(fc.nat(), { nil: undefined }),
        async (which, flips, cut) => {
          const base = Buffer.from(seeds[which]!);
          for (const [at, v] of flips) base[at % base.length] = v;
          const input = cut === undefined ? base : base.subarray(0, cut % base.length);
          try {
            const out = await sanitizeImage(input);
            const meta = await sharp(out.bytes, { animated: true }).metadata();
            expect(meta.format).toBe(out.format);
          } catch (err) {
            expect(isInvalidImage(err), String(err)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("re-encoded size", () => {
  it("does not make a photo-like JPEG or lossy WebP saved at quality 85 larger (it was 1.6-1.9x at quality 90)", async () => {
    // A smooth gradient with fine detail, as a photo or a rendered logo has (noise alone does not
    // compress and random pixels are not what people upload).
    const width = 512;
    const height = 384;
    const raw = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 3;
        raw[i] = (x * 255) / width;
        raw[i + 1] = (y * 255) / height;
        raw[i + 2] = 128 + 60 * Math.sin(x / 7) * Math.cos(y / 11);
      }
    const image = () => sharp(raw, { raw: { width, height, channels: 3 } });
    for (const [format, input] of [
      ["jpeg", await image().jpeg({ quality: 85 }).toBuffer()],
      ["webp", await image().webp({ quality: 85 }).toBuffer()],
    ] as const) {
      const out = await sanitizeImage(input);
      expect({ format, ratio: out.bytes.length / input.length }).toEqual({ format, ratio: expect.any(Number) });
      expect(out.bytes.length, `${format}: ${out.bytes.length} bytes from ${input.length}`).toBeLessThanOrEqual(
        input.length,
      );
    }
  });
});
