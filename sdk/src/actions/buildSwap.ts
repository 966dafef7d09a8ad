/** `buildSwap`: an unsigned buy or sell through the service's SwapRouter. */
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "../internal/http.js";
import type { Answer } from "../internal/types.js";

export type BuildSwapParameters = {
  /** The trading wallet, the API key's wallet (default: the client's wallet account). */
  wallet?: string;
  /** The launched token. */
  token: string;
  side: "buy" | "sell";
  /** Wei of ETH for a buy, token base units (18 decimals) for a sell. */
  amountInWei: bigint;
  /** Slippage tolerance, 0..5000 basis points (default 100 = 1 %). */
  slippageBps?: number;
  signal?: AbortSignal;
};

/** `transaction` (and `approval` for a sell short of allowance), the quote and its minimum out. */
export type BuildSwapReturnType = Answer<"postApiV1EvmchainSwapsBuild">;

/**
 * Builds a swap (`POST /api/v1/evmchain/swaps/build`, scope `evmchain:launch:build`; docs/trade.md).
 * The wallet sends `approval` first when it is not null, then `transaction`, unchanged.
 * @throws LaunchApiError `token_not_found`, `amount_out_of_range`, `wallet_mismatch`,
 *   `insufficient_balance`, `no_liquidity`, `swap_simulation_failed`; RateLimitedError
 * @example
 * const built = await buildSwap(client, { token, side: "buy", amountInWei: parseEther("0.05") });
 * await walletClient.sendTransaction({ to: built.transaction.to, data: built.transaction.data, value: BigInt(built.transaction.value), chain: null });
 */
export async function buildSwap(client: LaunchClientBase, params: BuildSwapParameters): Promise<BuildSwapReturnType> {
  const wallet = params.wallet ?? client.walletClient?.account?.address;
  if (!wallet) throw new TypeError("buildSwap needs `wallet` or a client walletClient with an account");
  const { data } = await send(
    () =>
      client.api.POST("/api/v1/evmchain/swaps/build", {
        body: {
          wallet,
          token: params.token,
          side: params.side,
          amount_in_wei: params.amountInWei.toString(),
          slippage_bps: params.slippageBps,
        },
        signal: params.signal,
      }),
    { retry: client.retry, signal: params.signal },
  );
  return data as BuildSwapReturnType;
}
