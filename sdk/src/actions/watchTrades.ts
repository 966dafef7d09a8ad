/** `watchTrades`: live trades over Server-Sent Events, resumed from `Last-Event-ID` after any disconnect. */
import type { LaunchClientBase } from "../clientBase.js";
import type { components } from "../generated/schema.js";
import { type StreamFrame, subscribe, type WatchOptions } from "../internal/sse.js";

/** A trade frame's data: the trade record, its events-feed id once confirmed, and whether it is. */
export type StreamTrade = components["schemas"]["Trade"] & { event_id?: number; confirmed: boolean };

/** `reorg` frame data: previews this connection showed that a reorg removed. */
export type StreamReorg = { dropped: Array<{ event_id?: number; id: string; tx_hash: string; block_number: number }> };

/** One frame of the trades stream. */
export type TradeFrame =
  | (StreamFrame<StreamTrade> & { event: "message" | "pending" })
  | (StreamFrame<StreamReorg> & { event: "reorg" });

export type WatchTradesParameters = WatchOptions & {
  /** Only this token's trades (default: every launched token). */
  token?: string;
};

/**
 * Subscribes to trades (`GET /api/public/stream/trades`; docs/public.md "Streams"): `pending`
 * previews at the indexed head (unless `includePending: false`), then each trade once confirmed
 * (`event: "message"`, `id` = its events-feed id). Break out of the loop or abort `signal` to stop.
 * @throws LaunchApiError `invalid_address`, `token_not_found`, `invalid_cursor`
 * @example
 * for await (const frame of watchTrades(client, { token, includePending: false, signal })) {
 *   console.log(frame.id, frame.data.side, frame.data.eth_amount_wei);
 * }
 */
export function watchTrades(client: LaunchClientBase, params: WatchTradesParameters = {}): AsyncGenerator<TradeFrame> {
  return subscribe<StreamTrade | StreamReorg>(
    client,
    "/api/public/stream/trades",
    { token: params.token, include_pending: params.includePending === false ? "0" : "1" },
    params,
  ) as AsyncGenerator<TradeFrame>;
}
