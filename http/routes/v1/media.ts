/**
 * The logo upload of the key-authenticated surface, `POST /api/v1/evmchain/media/upload`: the bytes
 * are checked and re-encoded (media/image.ts) in a bounded decode queue, then stored in the
 * offchain store and served from `/media/{id}.{ext}` (http/routes/media.ts). Mounted behind the v1
 * auth, per-key rate limit and scope table (`./surface.ts`).
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import type { Store } from "../../../store/index";
import { insertMedia, mediaBytesStoredSince } from "../../../store/media";
import { ApiError } from "../../errors";
import { sendOk } from "../../json";
import { DecodeOverloadedError, type DecodeQueue } from "../../../media/decodeQueue";
import { IMAGE_LIMITS, InvalidImageError, sanitizeImage } from "../../../media/image";
import { recordUploadRejection } from "../../../ops/metrics/registry";
import { currentKey, type TrustEnv } from "../../middleware/context";
import type { Limits } from "../../../config/limits";
import { documented } from "../../openapi/describe";
import { okBody } from "../../../src/domain/wire";
import { describedInput } from "../../validation";
import { jsonBodyOf } from "../../middleware/jsonBody";

/** What the upload route needs. */
export type V1MediaDeps = {
  publicBaseUrl: string;
  getStore: () => Promise<Store>;
  /** Bounds concurrent image decodes (`decodeQueue()`; built once by `createApp`). */
  imageQueue: DecodeQueue;
  /** Clock, unix milliseconds (`createdAtMs` of the stored image). */
  nowMs: () => number;
  /** The limits (`mediaBytesPerWalletPerDay`). */
  limits: Pick<Limits, "mediaBytesPerWalletPerDay">;
};

const DAY_MS = 86_400_000;

/** Media URL of a stored image: `{base}/media/{id}.{ext}`. */
export function mediaUrl(publicBaseUrl: string, id: string, extension: string): string {
  return `${publicBaseUrl}/media/${id}.${extension}`;
}

/** Builds the upload route (mount at `/api/v1/evmchain`). */
export function v1MediaRoutes(deps: V1MediaDeps) {
  return (
    new Hono<TrustEnv>()
      /**
       * POST /api/v1/evmchain/media/upload — multipart/form-data with field `image` (PNG, JPEG,
       * WebP or GIF; limits in media/image.ts: 2 MiB, 4096 px per side, 16,777,216 pixels,
       * 256 frames). The bytes are checked and re-encoded (metadata stripped) and stored in the
       * offchain store. 201 `{ok, image_url, content_type, width, height, byte_length}`; 400 with
       * the image error identifier (`image_missing`, `image_too_large`, `image_type_unsupported`,
       * `image_corrupt`, `image_dimensions_exceeded`, `image_polyglot`), nothing stored. Decodes run
       * in a bounded queue (one per core, two waiting per slot, 10 s wait): overload is 503
       * `image_processing_busy` with `Retry-After`, nothing stored.
       */
      .post(
        "/media/upload",
        documented({
          tag: "v1",
          status: 201,
          summary: "Upload a logo (multipart field `image`): checked, re-encoded, hosted",
          ok: okBody({
            image_url: z.string(),
            content_type: z.string(),
            width: z.number().int(),
            height: z.number().int(),
            byte_length: z.number().int(),
          }),
          errors: [
            "image_missing",
            "image_too_large",
            "image_type_unsupported",
            "image_corrupt",
            "image_dimensions_exceeded",
            "image_polyglot",
            "image_processing_busy",
            "media_quota_exceeded",
          ],
        }),
        describedInput(
          "form",
          z.object({
            image: z.file().meta({ description: "PNG, JPEG, WebP or GIF; at most 2 MiB, 4,096 px per side" }),
          }),
        ),
        bodyLimit({
          maxSize: IMAGE_LIMITS.maxBytes + 64 * 1024,
          onError: () => {
            throw new ApiError("image_too_large", `the upload is larger than ${IMAGE_LIMITS.maxBytes} bytes`);
          },
        }),
        async (c) => {
          const type = (c.req.header("Content-Type") ?? "").toLowerCase();
          if (!type.startsWith("multipart/form-data")) {
            // Any other body is held to the body parser's rules first (size, depth, JSON shape).
            await jsonBodyOf(c);
            throw new ApiError("image_missing", "send multipart/form-data with the file in field `image`");
          }
          let form: Record<string, unknown>;
          try {
            form = await c.req.parseBody();
          } catch {
            throw new ApiError("image_missing", "the multipart body could not be read");
          }
          const file = form.image;
          if (!(file instanceof File)) throw new ApiError("image_missing", "no file in field `image`");
          let image;
          try {
            // The decode waits for a slot of the bounded queue (media/decodeQueue.ts).
            image = await sanitizeImage(new Uint8Array(await file.arrayBuffer()), { schedule: deps.imageQueue.run });
          } catch (err) {
            if (err instanceof InvalidImageError) throw new ApiError(err.code, err.message);
            if (err instanceof DecodeOverloadedError) {
              // Overload is the server's state, never the client's fault: 503 + Retry-After.
              recordUploadRejection("image_processing_busy");
              c.header("Retry-After", String(err.retryAfterSec));
              throw new ApiError("image_processing_busy", `${err.message}; retry after ${err.retryAfterSec} s`);
            }
            throw err;
          }
          const id = image.sha256.slice(0, 32);
          const extension = image.format === "jpeg" ? "jpg" : image.format;
          const store = await deps.getStore();
          // The wallet's daily storage bound, over all its keys (docs/trust.md "Media upload").
          // Checked before the insert: concurrent uploads may pass it together by at most the
          // decode queue's width of images.
          const key = currentKey(c);
          const storedBytes = await mediaBytesStoredSince(store, key.wallet, deps.nowMs() - DAY_MS);
          const quota = deps.limits.mediaBytesPerWalletPerDay;
          if (storedBytes + image.bytes.byteLength > quota) {
            c.header("Retry-After", String(3_600));
            throw new ApiError(
              "media_quota_exceeded",
              `this wallet's keys stored ${storedBytes} of ${quota} bytes of images in the last 24 hours`,
            );
          }
          await insertMedia(store, {
            id,
            contentType: image.contentType,
            extension,
            bytes: image.bytes,
            byteLength: image.bytes.byteLength,
            width: image.width,
            height: image.height,
            apiKeyId: key.id,
            createdAtMs: deps.nowMs(),
          });
          return sendOk(
            c,
            {
              image_url: mediaUrl(deps.publicBaseUrl, id, extension),
              content_type: image.contentType,
              width: image.width,
              height: image.height,
              byte_length: image.bytes.byteLength,
            },
            201,
          );
        },
      )
  );
}
