/**
 * A Server-Sent Events subscription (WHATWG HTML "Server-sent events") as an async iterator that
 * never loses its place: every confirmed frame's id is remembered and, whenever the response ends
 * (the service closed it, restarted, or the network dropped), the stream is requested again with
 * `Last-Event-ID: <last id>` after the server's `retry:` delay, so it continues with no gap and no
 * duplicate (docs/public.md "Streams"). A 429 (`too_many_streams`) waits its `Retry-After`; any
 * other refusal is thrown. Frames are parsed by `eventsource-parser`.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { LaunchClientBase } from "../clientBase.js";
import { errorOf, retryAfterSec, sleep } from "./http.js";

/** Options every watcher takes. */
export type WatchOptions = {
  /** Resume after this id (a frame's `eventId`, or the events feed's `next_since_id`). */
  sinceId?: string | number;
  /** Also yield `pending` previews and `reorg` frames (default true on trades, false on events). */
  includePending?: boolean;
  /** Ends the iteration (the iterator returns). */
  signal?: AbortSignal;
  /** Reconnections in a row without a frame before giving up (default 20). */
  maxReconnects?: number;
};

/** One frame: its SSE event name (`message`, `pending`, `reorg`), id (confirmed frames only) and JSON data. */
export type StreamFrame<T> = { event: string; id: string | undefined; data: T };

/**
 * Iterates an SSE path of the service, reconnecting with `Last-Event-ID` until `signal` aborts.
 * @throws LaunchApiError for a refusal other than 429/5xx; the last error after `maxReconnects`
 */
export async function* subscribe<T>(
  client: LaunchClientBase,
  path: string,
  query: Record<string, string | undefined>,
  options: WatchOptions,
): AsyncGenerator<StreamFrame<T>> {
  let lastEventId = options.sinceId === undefined ? undefined : String(options.sinceId);
  let retryMs = 1_000;
  let failures = 0;
  const { signal } = options;
  while (!signal?.aborted) {
    const url = new URL(`${client.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    const headers: Record<string, string> = { Accept: "text/event-stream" };
    if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
    let waitMs = retryMs;
    try {
      const response = await client.fetch(url, { headers, signal });
      if (!response.ok || !response.body) {
        const body = await response.json().catch(() => undefined);
        const error = errorOf(response, body);
        if (response.status !== 429 && response.status < 500) throw error;
        waitMs = (retryAfterSec(response.headers) ?? retryMs / 1000) * 1000;
        if (++failures > (options.maxReconnects ?? 20)) throw error;
      } else {
        const queue: EventSourceMessage[] = [];
        const parser = createParser({
          onEvent: (message) => queue.push(message),
          onRetry: (ms) => {
            retryMs = ms;
          },
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            parser.feed(value);
            while (queue.length > 0) {
              const message = queue.shift()!;
              if (message.id) lastEventId = message.id;
              failures = 0;
              yield { event: message.event ?? "message", id: message.id, data: JSON.parse(message.data) as T };
            }
          }
        } finally {
          await reader.cancel().catch(() => undefined);
        }
      }
    } catch (err) {
      if (signal?.aborted) return;
      if ((err as { status?: number }).status !== undefined && !isRetriable(err)) throw err;
      if (++failures > (options.maxReconnects ?? 20)) throw err;
      waitMs = Math.min(retryMs * 2 ** Math.min(failures - 1, 4), 30_000);
    }
    try {
      await sleep(waitMs, signal);
    } catch {
      return;
    }
  }
}

function isRetriable(err: unknown): boolean {
  const status = (err as { status?: number }).status ?? 0;
  return status === 429 || status >= 500;
}
