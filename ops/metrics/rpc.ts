/**
 * RPC metrics for the API's viem client: a transport wrapper counting every JSON-RPC request the
 * API makes (health, signature checks, launch build/verify, creator rewards, the lag gauge), its
 * duration and its failures.
 *
 * It wraps the transport's `request` (after viem's own retries), so one logical call is one count
 * whatever the retries; failures are classified by the viem error that reached the caller.
 */
import { http, type HttpTransportConfig, type Transport } from "viem";
import { metrics } from "./registry";

/** Failure kind (label `kind` of `launchpad_rpc_errors_total`). */
export type RpcErrorKind = "http" | "timeout" | "rpc" | "other";

/**
 * Classifies a viem request error.
 * @returns `http` (no answer / HTTP error status), `timeout`, `rpc` (a JSON-RPC error object,
 *   e.g. a revert), else `other`
 * @example rpcErrorKind(new TimeoutError({ body: {}, url: "…" })) // "timeout"
 */
function rpcErrorKind(err: unknown): RpcErrorKind {
  const name = (err as { name?: string })?.name;
  if (name === "HttpRequestError") return "http";
  if (name === "TimeoutError") return "timeout";
  if (typeof (err as { code?: unknown })?.code === "number") return "rpc";
  return "other";
}

/**
 * Wraps any viem transport so its requests are counted in `launchpad_rpc_requests_total`,
 * `launchpad_rpc_errors_total{kind}` and `launchpad_rpc_request_duration_seconds`.
 * @param transport - e.g. `http(url)`
 * @returns a transport with the same behaviour
 * @example createPublicClient({ transport: instrumentTransport(http(rpcUrl)) })
 */
function instrumentTransport<T extends Transport>(transport: T): T {
  const wrapped: Transport = (args) => {
    const inner = transport(args);
    const request = (async (req: { method: string; params?: unknown }, options?: unknown) => {
      const method = /^[a-zA-Z0-9_]{1,64}$/.test(req.method) ? req.method : "other";
      const started = performance.now();
      metrics.rpcRequests.inc({ method });
      try {
        return await (inner.request as (r: unknown, o?: unknown) => Promise<unknown>)(req, options);
      } catch (err) {
        metrics.rpcErrors.inc({ method, kind: rpcErrorKind(err) });
        throw err;
      } finally {
        metrics.rpcDuration.observe({ method }, (performance.now() - started) / 1000);
      }
    }) as typeof inner.request;
    return { ...inner, request };
  };
  return wrapped as T;
}

/**
 * viem's `http` transport with RPC metrics.
 * @param url - JSON-RPC endpoint
 * @param config - viem `http` options
 */
export function instrumentedHttp(url: string, config?: HttpTransportConfig): Transport {
  return instrumentTransport(http(url, config));
}
