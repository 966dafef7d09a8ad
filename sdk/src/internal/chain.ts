/**
 * The chain as the service publishes it for wallets (`GET /api/evm/evmchain/status`: chain id, RPC
 * URLs), as a viem chain and a public client when the caller gave none.
 */
import { createPublicClient, defineChain, http, type Chain, type PublicClient } from "viem";
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "./http.js";

/** The service's chain and a public client on it (the caller's, else one on its first RPC URL). */
export async function serviceChain(
  client: LaunchClientBase,
  signal?: AbortSignal,
): Promise<{ chain: Chain; publicClient: PublicClient }> {
  const { data } = await send(() => client.api.GET("/api/evm/evmchain/status", { signal }), {
    retry: client.retry,
    signal,
  });
  const rpcUrl = data.rpc_urls[0];
  const chain =
    client.walletClient?.chain?.id === data.chain_id_decimal
      ? client.walletClient.chain
      : defineChain({
          id: data.chain_id_decimal,
          name: data.chain_name,
          nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
          rpcUrls: { default: { http: rpcUrl ? [rpcUrl] : [] } },
        });
  if (client.publicClient) return { chain, publicClient: client.publicClient };
  if (!rpcUrl) throw new TypeError("the service publishes no RPC URL: pass a publicClient");
  return { chain, publicClient: createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient };
}
