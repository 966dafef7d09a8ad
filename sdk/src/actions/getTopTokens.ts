/** `getTopTokens` and `getTrending`: the rankings of the launched tokens by their activity windows. */
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "../internal/http.js";
import type { Answer } from "../internal/types.js";

export type GetTopTokensParameters = {
  /** The activity window ranked: the last 5 minutes, 1 hour, 6 hours or 24 hours. */
  window: "m5" | "h1" | "h6" | "h24";
  /** `volume` (wei, highest first), `trades` (most first), `gainers` / `losers` (price change in bps). */
  sort: "volume" | "trades" | "gainers" | "losers";
  /** Tokens, 1..100 (default 20). */
  limit?: number;
  signal?: AbortSignal;
};

/** `{window, sort, tokens}`: token records of the tokens traded in the window, in list order. */
export type GetTopTokensReturnType = Answer<"getApiPublicTokensTop">;

/**
 * Reads a top list (`GET /api/public/tokens/top`; docs/public.md "Top lists"; public surface, no key
 * needed). Only tokens traded in the window are listed; each record's `windows[window]` holds the
 * figure it is ranked by.
 * @throws LaunchApiError `invalid_request`; RateLimitedError
 * @example
 * const { tokens } = await getTopTokens(client, { window: "h1", sort: "gainers", limit: 10 });
 */
export async function getTopTokens(
  client: LaunchClientBase,
  params: GetTopTokensParameters,
): Promise<GetTopTokensReturnType> {
  const { data } = await send(
    () =>
      client.api.GET("/api/public/tokens/top", {
        params: { query: { window: params.window, sort: params.sort, limit: params.limit } },
        signal: params.signal,
      }),
    { retry: client.retry, signal: params.signal },
  );
  return data as GetTopTokensReturnType;
}

export type GetTrendingParameters = {
  /** Tokens, 1..100 (default 20). */
  limit?: number;
  signal?: AbortSignal;
};

/** `{tokens}`: token records with `trending_score` (wei per hour, decimal string), highest first. */
export type GetTrendingReturnType = Answer<"getApiPublicTokensTrending">;

/**
 * Reads the trending list (`GET /api/public/tokens/trending`; docs/public.md "Trending": the four
 * activity windows' activity per hour, summed). Only tokens traded in the last 24 h are listed.
 * @throws LaunchApiError `invalid_request`; RateLimitedError
 * @example
 * const { tokens } = await getTrending(client, { limit: 10 });
 */
export async function getTrending(
  client: LaunchClientBase,
  params: GetTrendingParameters = {},
): Promise<GetTrendingReturnType> {
  const { data } = await send(
    () =>
      client.api.GET("/api/public/tokens/trending", {
        params: { query: { limit: params.limit } },
        signal: params.signal,
      }),
    { retry: client.retry, signal: params.signal },
  );
  return data as GetTrendingReturnType;
}
