/**
 * Smart-wallet signatures (EIP-1271) are accepted wherever the service checks a personal_sign
 * (API-key challenges, launch intents): a real ERC-1271 contract wallet on anvil, whose owner
 * signs, must verify; a signature by anyone else must not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, createWalletClient, http, type Address, type PublicClient } from "viem";
import { ownerWalletAbi, ownerWalletBytecode } from "../abis/OwnerWallet";
import { creatorSigned } from "../api/launch/flow";
import { startAnvil, type AnvilInstance } from "../devnet/anvil";
import { devAccount } from "../devnet/clients";

let anvil: AnvilInstance;
let client: PublicClient;
let smartWallet: Address;

beforeAll(async () => {
  anvil = await startAnvil();
  client = createPublicClient({ transport: http(anvil.rpcUrl) });
  const deployer = createWalletClient({ account: devAccount(0), transport: http(anvil.rpcUrl) });
  const hash = await deployer.deployContract({ chain: null, abi: ownerWalletAbi, bytecode: ownerWalletBytecode, args: [devAccount(5).address] });
  smartWallet = (await client.waitForTransactionReceipt({ hash })).contractAddress!;
});

afterAll(async () => {
  await anvil?.stop();
});

describe("creatorSigned (the intent signature check)", () => {
  const message = "launch.test wants you to sign in with your Ethereum account:\nintent lnch_test";

  it("accepts the owner's signature for an ERC-1271 contract wallet", async () => {
    const signature = await devAccount(5).signMessage({ message });
    expect(await creatorSigned(client, smartWallet, message, signature)).toBe(true);
  });

  it("refuses a signature by another account for that wallet, and a tampered message", async () => {
    expect(await creatorSigned(client, smartWallet, message, await devAccount(6).signMessage({ message }))).toBe(false);
    expect(await creatorSigned(client, smartWallet, `${message}!`, await devAccount(5).signMessage({ message }))).toBe(false);
  });

  it("still accepts plain EOA signatures and refuses the wrong EOA", async () => {
    const signature = await devAccount(7).signMessage({ message });
    expect(await creatorSigned(client, devAccount(7).address, message, signature)).toBe(true);
    expect(await creatorSigned(client, devAccount(8).address, message, signature)).toBe(false);
  });
});
