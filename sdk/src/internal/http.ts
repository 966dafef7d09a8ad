/**
 * One request with the client's retry rule: an answer of 429 or 5xx (and a network failure) is
 * retried after its `Retry-After` seconds (else a doubling back-off from 0.5 s), up to
 * `maxAttempts`; every other failure is thrown at once as a {@link LaunchApiError}. Only calls that
 * are safe to repeat go through the retry (reads, and writes the service makes idempotent: an intent
 * with its `Idempotency-Key`, a repeated build or confirm).
 */
import { LaunchApiError, RateLimitedError } from "../errors.js";

/** How often and how long a request is retried. */
export type RetryPolicy = {
  /** Attempts in all, the first included (default 4). */
  maxAttempts: number;
  /** Longest wait between two attempts, seconds (default 30): a longer `Retry-After` is thrown instead. */
  maxDelaySec: number;
};

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, maxDelaySec: 30 };

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** `Retry-After` as seconds (delta-seconds or an HTTP date), or undefined when absent. */
export function retryAfterSec(headers: Headers): number | undefined {
  const raw = headers.get("retry-after");
  if (raw === null) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}

/** The typed error of a failed answer. */
export function errorOf(response: Response, body: unknown): LaunchApiError {
  const record =
    body && typeof body === "object"
      ? (body as Record<string, unknown>)
      : { error: "internal_error", message: String(body ?? response.statusText) };
  const requestId = response.headers.get("x-request-id") ?? undefined;
  if (response.status === 429)
    return new RateLimitedError(429, record, retryAfterSec(response.headers) ?? 1, requestId);
  return new LaunchApiError(response.status, record, requestId);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `run` (one openapi-fetch call) until it answers 2xx, retrying as the module says.
 * @returns the parsed 2xx body and the response
 * @throws LaunchApiError / RateLimitedError for a failure not retried (or the last one)
 */
export async function send<T>(
  run: () => Promise<Answer<T>>,
  options: { retry?: RetryPolicy | false; signal?: AbortSignal } = {},
): Promise<{ data: T; response: Response }> {
  const policy = options.retry === false ? { maxAttempts: 1, maxDelaySec: 0 } : (options.retry ?? DEFAULT_RETRY);
  for (let attempt = 1; ; attempt++) {
    let failure: LaunchApiError | Error;
    let waitSec: number | undefined;
    try {
      const { data, error, response } = await run();
      if (response.ok) return { data: data as T, response };
      failure = errorOf(response, error);
      const retriable = response.status === 429 || response.status >= 500;
      if (!retriable) throw failure;
      waitSec = retryAfterSec(response.headers);
    } catch (err) {
      if (err instanceof LaunchApiError && !(err.status === 429 || err.status >= 500)) throw err;
      if (options.signal?.aborted) throw err;
      failure = err as Error;
    }
    const delaySec = waitSec ?? 0.5 * 2 ** (attempt - 1);
    if (attempt >= policy.maxAttempts || delaySec > policy.maxDelaySec) throw failure;
    await sleep(delaySec * 1000, options.signal);
  }
}
