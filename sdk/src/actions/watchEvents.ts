/** `watchEvents`: the events feed (launches, trades, big buys, graduations, fee claims) over Server-Sent Events. */
import type { LaunchClientBase } from "../clientBase.js";
import type { components } from "../generated/schema.js";
import { type StreamFrame, subscribe, type WatchOptions } from "../internal/sse.js";

/** An events-feed record as the stream sends it. */
export type StreamEvent = components["schemas"]["Event"] & { confirmed?: boolean };

/** One frame of the events stream (`reorg` only with `includePending`). */
export type EventFrame =
  | (StreamFrame<StreamEvent> & { event: "message" | "pending" })
  | (StreamFrame<{ dropped: Array<{ id: number; kind: string; tx_hash: string; block_number: number }> }> & {
      event: "reorg";
    });

export type WatchEventsParameters = WatchOptions & {
  /** Only this token's events. */
  token?: string;
};

/**
 * Subscribes to the events feed (`GET /api/public/stream/events`; docs/public.md "Streams"),
 * confirmed events only unless `includePending: true`; resumes from the last id after any disconnect.
 * @throws LaunchApiError `invalid_address`, `token_not_found`, `invalid_cursor`
 * @example
 * for await (const { id, data } of watchEvents(client, { signal })) console.log(id, data.kind);
 */
export function watchEvents(client: LaunchClientBase, params: WatchEventsParameters = {}): AsyncGenerator<EventFrame> {
  return subscribe<StreamEvent>(
    client,
    "/api/public/stream/events",
    { token: params.token, include_pending: params.includePending ? "1" : undefined },
    params,
  ) as AsyncGenerator<EventFrame>;
}
