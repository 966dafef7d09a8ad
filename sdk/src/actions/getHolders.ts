/** `getHolders`: one page of a token's holders, largest first. */
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "../internal/http.js";
import type { Answer } from "../internal/types.js";

export type GetHoldersParameters = {
  /** The token's address. */
  address: string;
  /** Holders per page, 1..200 (default 50). */
  limit?: number;
  /** A previous page's `next_cursor`. */
  cursor?: string;
  signal?: AbortSignal;
};

/** `{holders, holder_count, next_cursor}`: balances in token base units, `share_bps` of the supply. */
export type GetHoldersReturnType = Answer<"getApiV1EvmchainTokensByAddressHolders">;

/**
 * Reads a page of holders (`GET /api/v1/evmchain/tokens/{address}/holders`; docs/public.md "Holders").
 * @throws LaunchApiError `token_not_found`, `invalid_cursor`; RateLimitedError
 * @example
 * const { holders } = await getHolders(client, { address, limit: 10 });
 */
export async function getHolders(
  client: LaunchClientBase,
  params: GetHoldersParameters,
): Promise<GetHoldersReturnType> {
  const { data } = await send(
    () =>
      client.api.GET("/api/v1/evmchain/tokens/{address}/holders", {
        params: { path: { address: params.address }, query: { limit: params.limit, cursor: params.cursor } },
        signal: params.signal,
      }),
    { retry: client.retry, signal: params.signal },
  );
  return data as GetHoldersReturnType;
}
