/** `getCandles`: a token's OHLCV candles. */
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "../internal/http.js";
import type { Answer, Query } from "../internal/types.js";

type CandleQuery = Query<"getApiV1EvmchainTokensByAddressCandles">;

/**
 * A candle width the service serves (from the document: `1s`, `15s`, `1m`, `5m`, `15m`, `1h`,
 * `4h`, `1d`, and TradingView's names). `1s` and `15s` (second bars) reach back 24 h before the
 * indexed head only: an older window throws `out_of_retention`, a straddling one is clamped (the
 * answer's `from_sec`).
 */
export type Resolution = CandleQuery["resolution"];

export type GetCandlesParameters = {
  /** The token's address. */
  address: string;
  /** Bucket width. */
  resolution: Resolution;
  /** First bucket, unix seconds (inclusive). */
  fromSec?: number;
  /** Last bucket, unix seconds (inclusive). */
  toSec?: number;
  /** `usd`: OHLCV in USD instead of wei per whole token. */
  currency?: CandleQuery["currency"];
  signal?: AbortSignal;
};

/** `{token, resolution, from_sec, to_sec, candles}`, oldest first (the JSON format, not UDF). */
export type GetCandlesReturnType = Extract<Answer<"getApiV1EvmchainTokensByAddressCandles">, { candles: unknown }>;

/**
 * Reads OHLCV candles (`GET /api/v1/evmchain/tokens/{address}/candles`; docs/public.md "Candles").
 * @throws LaunchApiError `invalid_resolution`, `invalid_range`, `out_of_retention` (1s/15s older
 *   than 24 h), `token_not_found`; RateLimitedError
 * @example
 * const { candles } = await getCandles(client, { address, resolution: "1h" });
 * console.log(candles.at(-1)?.close_wei);
 */
export async function getCandles(
  client: LaunchClientBase,
  params: GetCandlesParameters,
): Promise<GetCandlesReturnType> {
  const query: CandleQuery = {
    resolution: params.resolution,
    from: params.fromSec,
    to: params.toSec,
    currency: params.currency,
  };
  const { data } = await send(
    () =>
      client.api.GET("/api/v1/evmchain/tokens/{address}/candles", {
        params: { path: { address: params.address }, query },
        signal: params.signal,
      }),
    { retry: client.retry, signal: params.signal },
  );
  return data as GetCandlesReturnType;
}
