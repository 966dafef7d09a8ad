/**
 * Operations: Prometheus metrics, request logs and shutdown (docs/operations.md).
 *
 * Hooks for the launch write path (call once per decided request, `"ok"` or the error code):
 * {@link recordLaunchBuild}, {@link recordLaunchVerification}, {@link recordLaunchConfirmation}.
 */
export {
  metrics,
  serviceRegistry,
  recordLaunchBuild,
  recordLaunchVerification,
  recordLaunchConfirmation,
  recordRateLimitRejection,
  recordUploadRejection,
  type Surface,
} from "./registry";
export {
  observeRequests,
  drainRequests,
  requestsInFlight,
  type RequestLogEntry,
  type RequestLogger,
} from "./http";
export { instrumentedHttp } from "./rpc";
export { registerServiceGauges, type GaugeSources } from "./gauges";
export {
  FRESHNESS_HEADER,
  headAgeSec,
  observeIndexedHead,
  observeStreamEmit,
  rowVisibleObserver,
} from "./freshness";
