/** `getTrades`: a token's trades, newest first, as an async iterator over the cursor pages. */
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "../internal/http.js";
import type { Answer } from "../internal/types.js";

export type GetTradesParameters = {
  /** The token's address. */
  address: string;
  /** Trades per page, 1..200 (default 50). */
  limit?: number;
  /** Start after this cursor (a page's `next_cursor`); default: the newest trade. */
  cursor?: string;
  /** Keep only trades with a block time before this unix second. */
  beforeTimestampSec?: number;
  /** Stop after this many pages (default: until the last page). */
  maxPages?: number;
  signal?: AbortSignal;
};

/** One page: `{trades, next_cursor}` (`next_cursor` null on the last page). */
export type TradesPage = Answer<"getApiV1EvmchainTokensByAddressTrades">;

/**
 * Iterates a token's trades page by page (`GET /api/v1/evmchain/tokens/{address}/trades`), following
 * `next_cursor` until it is null (docs/public.md "Cursors": stable under new trades).
 * @throws LaunchApiError `token_not_found`, `invalid_cursor`; RateLimitedError
 * @example
 * for await (const page of getTrades(client, { address, limit: 100 })) {
 *   for (const trade of page.trades) console.log(trade.side, trade.eth_amount_wei);
 * }
 */
export async function* getTrades(client: LaunchClientBase, params: GetTradesParameters): AsyncGenerator<TradesPage> {
  let cursor = params.cursor;
  for (let page = 0; page < (params.maxPages ?? Number.POSITIVE_INFINITY); page++) {
    const { data } = await send(
      () =>
        client.api.GET("/api/v1/evmchain/tokens/{address}/trades", {
          params: {
            path: { address: params.address },
            query: { limit: params.limit, cursor, before_timestamp: params.beforeTimestampSec },
          },
          signal: params.signal,
        }),
      { retry: client.retry, signal: params.signal },
    );
    const body = data as TradesPage;
    yield body;
    if (!body.next_cursor) return;
    cursor = body.next_cursor;
  }
}
