/** `uploadImage`: stores a token image on the service. */
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "../internal/http.js";
import type { Answer } from "../internal/types.js";

export type UploadImageParameters = {
  /** PNG, JPEG, WebP or GIF, at most 2 MiB and 4,096 px per side. */
  image: Blob;
  /** The file name sent in the form (default `image`). */
  fileName?: string;
  signal?: AbortSignal;
};

/** `{image_url, content_type, width, height, byte_length}`: `image_url` goes into the launch's metadata. */
export type UploadImageReturnType = Answer<"postApiV1EvmchainMediaUpload", 201>;

/**
 * Uploads an image (`POST /api/v1/evmchain/media/upload`, multipart field `image`; docs/trust.md "Uploads").
 * @throws LaunchApiError `image_type_unsupported`, `image_too_large`, `image_corrupt`, `image_dimensions_exceeded`, `body_too_large`; RateLimitedError
 * @example
 * const { image_url } = await uploadImage(client, { image: new Blob([png], { type: "image/png" }) });
 */
export async function uploadImage(
  client: LaunchClientBase,
  params: UploadImageParameters,
): Promise<UploadImageReturnType> {
  const { data } = await send(
    () =>
      client.api.POST("/api/v1/evmchain/media/upload", {
        body: { image: "" },
        bodySerializer: () => {
          const form = new FormData();
          form.append("image", params.image, params.fileName ?? "image");
          return form;
        },
        signal: params.signal,
      }),
    { retry: client.retry, signal: params.signal },
  );
  return data as UploadImageReturnType;
}
