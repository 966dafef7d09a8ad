/** `buildClaim`: the unsigned transaction(s) that collect a creator's launch fees. */
import type { WalletClient } from "viem";
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "../internal/http.js";
import { followCookie, sessionHeaders, signInSession } from "../internal/session.js";
import type { Answer } from "../internal/types.js";

export type BuildClaimParameters = {
  /** The creator's wallet (default: the client's); it signs the session in (one personal_sign). */
  walletClient?: WalletClient;
  signal?: AbortSignal;
};

/** `{transaction, transactions, position_ids, as_of_block}`: `collectFeesMany` call(s) to send unchanged. */
export type BuildClaimReturnType = Answer<"postApiEvmEvmchainBuildCreatorRewardsClaim">;

/**
 * Builds the creator rewards claim (`POST /api/evm/evmchain/build-creator-rewards-claim`,
 * session surface: the wallet signs in with EIP-4361 first; docs/public.md "Creator rewards").
 * @throws LaunchApiError `nothing_to_claim` (409), `wallet_mismatch` (403); RateLimitedError
 * @example
 * const { transactions } = await buildClaim(client, { walletClient });
 * for (const tx of transactions) await walletClient.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value), chain: null });
 */
export async function buildClaim(
  client: LaunchClientBase,
  params: BuildClaimParameters = {},
): Promise<BuildClaimReturnType> {
  const walletClient = params.walletClient ?? client.walletClient;
  if (!walletClient?.account) throw new TypeError("buildClaim needs a walletClient with an account");
  const wallet = walletClient.account.address;
  const session = await signInSession(client, walletClient, params.signal);
  const { data, response } = await send(
    () =>
      client.api.POST("/api/evm/evmchain/build-creator-rewards-claim", {
        body: { wallet, csrf_token: session.csrfToken },
        headers: sessionHeaders(client, session),
        signal: params.signal,
      }),
    { retry: client.retry, signal: params.signal },
  );
  followCookie(session, response);
  return data as BuildClaimReturnType;
}
