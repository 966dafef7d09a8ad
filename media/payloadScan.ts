/**
 * The signature scan of step 4 of `sanitizeImage` (and of its output): markup or script anywhere in
 * the bytes, or a ZIP archive appended at the end (ZIP: PKWARE APPNOTE 4.3.16), make a polyglot.
 */
import { indexOf, latin1 } from "./bytes";
import { InvalidImageError } from "./imageRules";
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
export function scanForPayload(b: Uint8Array, where: "input" | "output"): void {
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
