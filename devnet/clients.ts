/**
 * viem clients and dev accounts for a devnet (anvil's default mnemonic).
 */
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Account,
  type Chain,
  type HDAccount,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";

/** anvil's well-known development mnemonic (test funds only). */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

/** Number of funded accounts anvil creates by default. */
export const DEV_ACCOUNT_COUNT = 10;

const accountCache = new Map<number, HDAccount>();

/**
 * The dev account at an index of anvil's default mnemonic (funded with 10,000 ETH on a fresh anvil).
 * @param index Account index, 0..9.
 * @returns A local (client-side signing) viem account.
 * @throws {RangeError} When the index is outside 0..9.
 */
export function devAccount(index: number): HDAccount {
  if (!Number.isInteger(index) || index < 0 || index >= DEV_ACCOUNT_COUNT) {
    throw new RangeError(`dev account index must be 0..${DEV_ACCOUNT_COUNT - 1}, got ${index}`);
  }
  let account = accountCache.get(index);
  if (!account) {
    account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
    accountCache.set(index, account);
  }
  return account;
}

/**
 * A viem chain object for a devnet reachable at `rpcUrl`.
 * @param chainId The chain id (4663 for the devnet).
 * @param rpcUrl The node's HTTP URL.
 * @returns The chain definition.
 */
export function devnetChain(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: `devnet-${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/** A public client and a wallet client bound to one account. */
export type DevnetClients = {
  publicClient: PublicClient<Transport, Chain>;
  walletClient: WalletClient<Transport, Chain, Account>;
};

/**
 * Creates a public client and a wallet client for a devnet, polling every 100 ms.
 * @param rpcUrl The node's HTTP URL.
 * @param chainId The chain id.
 * @param account The signing account (e.g. `devAccount(1)`).
 * @returns Both clients.
 */
export function createDevnetClients(rpcUrl: string, chainId: number, account: Account): DevnetClients {
  const chain = devnetChain(chainId, rpcUrl);
  const transport = http(rpcUrl);
  return {
    publicClient: createPublicClient({ chain, transport, pollingInterval: 100 }),
    walletClient: createWalletClient({ chain, transport, account, pollingInterval: 100 }),
  };
}
