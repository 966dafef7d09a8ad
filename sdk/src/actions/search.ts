/** `search`: tokens by address prefix, symbol, name or slug. */
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "../internal/http.js";
import type { Answer } from "../internal/types.js";

export type SearchParameters = {
  /** What to look for: an address prefix (`0x…`), a symbol, a name or a slug. */
  query: string;
  /** Results, 1..50 (default 10). */
  limit?: number;
  signal?: AbortSignal;
};

/** Ranked matches (`GET /api/public/search`; docs/public.md "Search"). */
export type SearchReturnType = Answer<"getApiPublicSearch">;

/**
 * Searches the launched tokens (public surface, no key needed).
 * @throws LaunchApiError `invalid_request`; RateLimitedError
 * @example
 * const { results } = await search(client, { query: "MINE" });
 */
export async function search(client: LaunchClientBase, params: SearchParameters): Promise<SearchReturnType> {
  const { data } = await send(
    () =>
      client.api.GET("/api/public/search", {
        params: { query: { q: params.query, limit: params.limit } },
        signal: params.signal,
      }),
    { retry: client.retry, signal: params.signal },
  );
  return data as SearchReturnType;
}
