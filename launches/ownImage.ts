/**
 * The `image_url` rule of a launch request (docs/trust.md "Bounds"): only an image this service
 * issued (`POST /api/v1/evmchain/media/upload`) and still holds.
 */
import type { Store } from "../store/index";
import { mediaExists } from "../store/media";
import { mediaIdFromUrl, type IntentRequest } from "./intentRequest";
import { InvalidImageUrlError } from "./errors";

/**
 * Checks an `image_url`: it must be an image this service issued and still holds (absent: passes).
 * @param publicBaseUrl - the service's base URL (the origin issued media URLs carry)
 * @throws InvalidImageUrlError
 */
export async function assertOwnImage(
  store: Store,
  request: Pick<IntentRequest, "image_url">,
  publicBaseUrl: string,
): Promise<void> {
  if (request.image_url === undefined) return;
  const id = mediaIdFromUrl(request.image_url, publicBaseUrl);
  if (!id || !(await mediaExists(store, id))) {
    throw new InvalidImageUrlError("image_url: must be an image_url returned by POST /api/v1/evmchain/media/upload");
  }
}
