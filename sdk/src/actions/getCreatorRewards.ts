/** `getCreatorRewards`: a creator's claimed and uncollected launch fees. */
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "../internal/http.js";
import type { Answer } from "../internal/types.js";

export type GetCreatorRewardsParameters = {
  /** The creator's wallet (default: the client's wallet account). */
  wallet?: string;
  signal?: AbortSignal;
};

/** Per token and in total, claimed and uncollected fees (wei) at `as_of_block`. */
export type GetCreatorRewardsReturnType = Answer<"getApiEvmEvmchainCreatorRewards">;

/**
 * Reads creator rewards (`GET /api/evm/evmchain/creator-rewards`; docs/public.md "Creator rewards").
 * @throws LaunchApiError `invalid_address`; RateLimitedError
 * @example
 * const { totals } = await getCreatorRewards(client, { wallet: "0xf39F…2266" });
 */
export async function getCreatorRewards(
  client: LaunchClientBase,
  params: GetCreatorRewardsParameters = {},
): Promise<GetCreatorRewardsReturnType> {
  const wallet = params.wallet ?? client.walletClient?.account?.address;
  if (!wallet) throw new TypeError("getCreatorRewards needs `wallet` or a client walletClient with an account");
  const { data } = await send(
    () => client.api.GET("/api/evm/evmchain/creator-rewards", { params: { query: { wallet } }, signal: params.signal }),
    { retry: client.retry, signal: params.signal },
  );
  return data as GetCreatorRewardsReturnType;
}
