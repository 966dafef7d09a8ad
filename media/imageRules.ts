/**
 * What an upload may be: the accepted formats, the limits, the closed set of refusal codes and
 * {@link checkDimensions}, shared by the container walk (`containers.ts`) and the decode
 * (`image.ts`).
 */
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

/** Refuses declared or decoded sizes that are empty or over {@link IMAGE_LIMITS}. */
export function checkDimensions(width: number, height: number, frames: number, verb: string): void {
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
