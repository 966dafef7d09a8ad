/**
 * The network a wallet needs to add and switch to before sending a built launch transaction
 * (EIP-3085 `wallet_addEthereumChain`, EIP-3326 `wallet_switchEthereumChain`), served by the
 * session surface's `GET /api/evm/evmchain/status` (docs/launch.md "Session surface").
 *
 * Environment (all optional):
 * - `CHAIN_NAME` (default `evmchain`): `chainName`.
 * - `PUBLIC_RPC_URL` (comma-separated http(s) URLs; default: **none**): `rpcUrls` — the URLs
 *   *browsers* use. There is deliberately no fallback to the service's own `RPC_URL` (or the
 *   manifest's URL): that URL may carry a provider secret (`?apikey=…`, `/v3/<key>`) and must never
 *   be published. Without `PUBLIC_RPC_URL` the list is empty and the status endpoint serves no
 *   `wallet_add_ethereum_chain` (EIP-3085 needs at least one URL). The devnet start sets it to
 *   anvil's local URL explicitly.
 * - `BLOCK_EXPLORER_URL` (comma-separated https URLs; default none — the devnet has no explorer,
 *   and EIP-3085 makes `blockExplorerUrls` optional).
 */
import { numberToHex } from "viem";
import type { NetworkSettings } from "../config/public";

/** The `wallet_addEthereumChain` parameter object (EIP-3085). */
export type AddEthereumChainParameter = {
  chainId: `0x${string}`;
  chainName: string;
  nativeCurrency: { name: string; symbol: string; decimals: 18 };
  rpcUrls: string[];
  blockExplorerUrls?: string[];
};

/** Native currency of the chain (spec: production profile, native asset ETH). */
export const NATIVE_CURRENCY = { name: "Ether", symbol: "ETH", decimals: 18 } as const;

function urlList(name: string, raw: string | undefined, protocols: string[]): string[] | undefined {
  if (!raw) return undefined;
  const urls = raw
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean);
  for (const u of urls) {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      throw new Error(`${name} must be a comma-separated list of URLs, got "${u}"`);
    }
    if (!protocols.includes(parsed.protocol)) throw new Error(`${name}: "${u}" must use ${protocols.join(" or ")}`);
  }
  return urls.length > 0 ? urls : undefined;
}

/**
 * The chain's `wallet_addEthereumChain` parameters. `rpcUrls` come from `PUBLIC_RPC_URL` only
 * (never from the service's private RPC URL); without it the list is empty — check
 * {@link hasPublicRpc} before handing the object to a wallet.
 * @param chainId - the deployment's chain id (4663 -> `"0x1237"`)
 * @param env - `CHAIN_NAME`, `PUBLIC_RPC_URL`, `BLOCK_EXPLORER_URL` (the app passes `PublicConfig.network`)
 * @throws Error naming a malformed variable
 * @example addEthereumChainParameter(4663, { PUBLIC_RPC_URL: "http://127.0.0.1:8545" })
 * // { chainId: "0x1237", chainName: "evmchain", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: ["http://127.0.0.1:8545"] }
 * @example addEthereumChainParameter(4663, {}).rpcUrls // []
 */
export function addEthereumChainParameter(chainId: number, env: NetworkSettings): AddEthereumChainParameter {
  const rpcUrls = urlList("PUBLIC_RPC_URL", env.PUBLIC_RPC_URL, ["http:", "https:"]) ?? [];
  const explorers = urlList("BLOCK_EXPLORER_URL", env.BLOCK_EXPLORER_URL, ["https:", "http:"]);
  return {
    chainId: numberToHex(chainId),
    chainName: env.CHAIN_NAME || "evmchain",
    nativeCurrency: { ...NATIVE_CURRENCY },
    rpcUrls,
    ...(explorers ? { blockExplorerUrls: explorers } : {}),
  };
}

/**
 * Whether the parameters name at least one public RPC URL (EIP-3085 requires one for
 * `wallet_addEthereumChain`).
 * @example hasPublicRpc(addEthereumChainParameter(4663, {})) // false
 */
export function hasPublicRpc(parameter: AddEthereumChainParameter): boolean {
  return parameter.rpcUrls.length > 0;
}
