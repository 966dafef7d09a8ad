/** `getToken`: one launched token's record. */
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "../internal/http.js";
import type { Answer } from "../internal/types.js";

export type GetTokenParameters = {
  /** The token's address (checksummed or not). */
  address: string;
  signal?: AbortSignal;
};

/** The token record (`token` of `GET /api/v1/evmchain/tokens/{address}`): prices in wei per whole token, `*_usd` strings or null, `top_holders`. */
export type GetTokenReturnType = Answer<"getApiV1EvmchainTokensByAddress">["token"];

/**
 * Reads one token of this service (API key, scope `evmchain:read`; docs/api.md "Market data").
 * @throws LaunchApiError `token_not_found` (404), `invalid_address` (400); RateLimitedError
 * @example
 * const token = await getToken(client, { address: "0x04c1…201D" });
 * console.log(token.symbol, token.price_wei, token.market_cap_usd);
 */
export async function getToken(client: LaunchClientBase, params: GetTokenParameters): Promise<GetTokenReturnType> {
  const { data } = await send(
    () =>
      client.api.GET("/api/v1/evmchain/tokens/{address}", {
        params: { path: { address: params.address } },
        signal: params.signal,
      }),
    { retry: client.retry, signal: params.signal },
  );
  return (data as Answer<"getApiV1EvmchainTokensByAddress">).token;
}
