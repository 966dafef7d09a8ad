/**
 * @evmchain/launch-sdk: a typed client of the evmchain launch service (sdk/README.md). The paths,
 * bodies and answers are generated from the service's OpenAPI 3.1 document (`src/generated/`,
 * `npm run sdk:generate`); the catalogue's `error` identifiers are the {@link ErrorCode} union.
 * Each action is a function taking the client first (`getToken(client, …)`) and a method of the
 * client (`client.getToken(…)`).
 */
export type { components, operations, paths } from "./generated/schema.js";
export { ERROR_STATUS, type ErrorCode } from "./generated/errorCodes.js";
export { createLaunchClient, type LaunchClient, type LaunchClientConfig } from "./client.js";
export type { LaunchClientBase } from "./clientBase.js";
export {
  LaunchApiError,
  LaunchSdkError,
  LaunchStateError,
  LaunchTimeoutError,
  RateLimitedError,
  WebhookVerificationError,
} from "./errors.js";
export type { RetryPolicy } from "./internal/http.js";
export type { StreamFrame, WatchOptions } from "./internal/sse.js";
export * from "./actions/buildClaim.js";
export * from "./actions/buildSwap.js";
export * from "./actions/getCandles.js";
export * from "./actions/getCreatorRewards.js";
export * from "./actions/getHolders.js";
export * from "./actions/getLaunch.js";
export * from "./actions/getToken.js";
export * from "./actions/getTrades.js";
export * from "./actions/launchToken.js";
export * from "./actions/search.js";
export * from "./actions/getTopTokens.js";
export * from "./actions/uploadImage.js";
export * from "./actions/verifyWebhook.js";
export * from "./actions/watchEvents.js";
export * from "./actions/watchTrades.js";
