/**
 * Smart-wallet signatures (EIP-1271) are accepted wherever the service checks a personal_sign
 * (Sign-In with Ethereum and API-key challenges, launch intents): a real ERC-1271 contract wallet on anvil, whose owner
 * signs, must verify; a signature by anyone else must not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  concat,
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  getContractAddress,
  http,
  keccak256,
  serializeErc6492Signature,
  toHex,
  type Address,
  type PublicClient,
} from "viem";
import { ownerWalletAbi, ownerWalletBytecode } from "../../abis/OwnerWallet";
import { creatorSigned } from "../../launches/signature";
import { signInMessage, signInSignatureValid } from "../../http/session/signInFlow";
import { startAnvil, type AnvilInstance } from "../../devnet/anvil";
import { devAccount } from "../../devnet/clients";

let anvil: AnvilInstance;
let client: PublicClient;
let smartWallet: Address;

beforeAll(async () => {
  anvil = await startAnvil();
  client = createPublicClient({ transport: http(anvil.rpcUrl) });
  const deployer = createWalletClient({ account: devAccount(0), transport: http(anvil.rpcUrl) });
  const hash = await deployer.deployContract({
    chain: null,
    abi: ownerWalletAbi,
    bytecode: ownerWalletBytecode,
    args: [devAccount(5).address],
  });
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
    expect(await creatorSigned(client, smartWallet, `${message}!`, await devAccount(5).signMessage({ message }))).toBe(
      false,
    );
  });

  it("still accepts plain EOA signatures and refuses the wrong EOA", async () => {
    const signature = await devAccount(7).signMessage({ message });
    expect(await creatorSigned(client, devAccount(7).address, message, signature)).toBe(true);
    expect(await creatorSigned(client, devAccount(8).address, message, signature)).toBe(false);
  });
});

describe("Sign-In with Ethereum (EIP-4361) signature check", () => {
  const party = { publicBaseUrl: "https://launch.example", chainId: 4663 };
  const issuedAtMs = Date.UTC(2026, 0, 1);
  const expiresAtMs = issuedAtMs + 300_000;
  const nonce = "a1b2c3d4e5f6a7b8c9d0";
  const deps = () => ({ publicClient: client, party });
  const messageFor = (wallet: Address, p = party) =>
    signInMessage({ party: p, wallet, nonce, purpose: "sign_in", issuedAtMs, expiresAtMs });

  it("accepts an EOA and an ERC-1271 wallet's owner before expiry", async () => {
    const eoa = devAccount(7);
    const eoaMessage = messageFor(eoa.address);
    expect(eoaMessage).toMatch(/^launch\.example wants you to sign in with your Ethereum account:\n0x/);
    expect(eoaMessage).toContain(
      "URI: https://launch.example\nVersion: 1\nChain ID: 4663\nNonce: a1b2c3d4e5f6a7b8c9d0",
    );
    const at = issuedAtMs + 1_000;
    expect(
      await signInSignatureValid(
        deps(),
        { message: eoaMessage, nonce, wallet: eoa.address, signature: await eoa.signMessage({ message: eoaMessage }) },
        at,
      ),
    ).toBe(true);
    const walletMessage = messageFor(smartWallet);
    const signature = await devAccount(5).signMessage({ message: walletMessage });
    expect(
      await signInSignatureValid(deps(), { message: walletMessage, nonce, wallet: smartWallet, signature }, at),
    ).toBe(true);
  });

  it("refuses another signer, an expired message, another nonce, another chain and another domain", async () => {
    const eoa = devAccount(7);
    const message = messageFor(eoa.address);
    const signature = await eoa.signMessage({ message });
    const at = issuedAtMs + 1_000;
    const check = (
      over: Partial<{ message: string; nonce: string; wallet: Address; signature: `0x${string}` }>,
      when = at,
      p = party,
    ) =>
      signInSignatureValid(
        { publicClient: client, party: p },
        { message, nonce, wallet: eoa.address, signature, ...over },
        when,
      );
    expect(await check({ signature: await devAccount(8).signMessage({ message }) })).toBe(false);
    expect(await check({ wallet: devAccount(8).address })).toBe(false);
    expect(await check({}, expiresAtMs + 1)).toBe(false);
    expect(await check({ nonce: "ffffffffffffffffffff" })).toBe(false);
    expect(await check({}, at, { ...party, chainId: 1 })).toBe(false);
    expect(await check({}, at, { ...party, publicBaseUrl: "https://evil.example" })).toBe(false);
    // The smart wallet refuses a signature of someone who is not its owner.
    const walletMessage = messageFor(smartWallet);
    expect(
      await signInSignatureValid(
        deps(),
        {
          message: walletMessage,
          nonce,
          wallet: smartWallet,
          signature: await devAccount(6).signMessage({ message: walletMessage }),
        },
        at,
      ),
    ).toBe(false);
  });
});

/**
 * ERC-6492: a smart wallet that is not deployed yet signs with a wrapped signature naming the
 * factory call that would deploy it; viem's check simulates that deployment. The factory here is
 * the deterministic CREATE2 deployer anvil ships (calldata: salt ++ init code).
 */
describe("Sign-In with a counterfactual smart wallet (ERC-6492) and a changed URI", () => {
  const CREATE2_DEPLOYER = "0x4e59b44847b379578588920cA78FbF26c0B4956C" as const;
  const party = { publicBaseUrl: "https://launch.example", chainId: 4663 };
  const issuedAtMs = Date.UTC(2026, 0, 1);
  const nonce = "b1b2c3d4e5f6a7b8c9d0";
  const at = issuedAtMs + 1_000;
  const messageFor = (wallet: Address) =>
    signInMessage({ party, wallet, nonce, purpose: "sign_in", issuedAtMs, expiresAtMs: issuedAtMs + 300_000 });

  it("accepts the owner's ERC-6492 signature for an undeployed wallet, and refuses another signer's", async () => {
    expect(await client.getCode({ address: CREATE2_DEPLOYER })).toMatch(/^0x[0-9a-f]{2,}/);
    const salt = keccak256(toHex("counterfactual sign-in"));
    const initCode = encodeDeployData({
      abi: ownerWalletAbi,
      bytecode: ownerWalletBytecode,
      args: [devAccount(5).address],
    });
    const wallet = getContractAddress({ opcode: "CREATE2", from: CREATE2_DEPLOYER, salt, bytecode: initCode });
    expect(await client.getCode({ address: wallet })).toBeUndefined();
    const message = messageFor(wallet);
    const wrap = async (signer: number) =>
      serializeErc6492Signature({
        address: CREATE2_DEPLOYER,
        data: concat([salt, initCode]),
        signature: await devAccount(signer).signMessage({ message }),
      });
    const check = async (signature: `0x${string}`) =>
      signInSignatureValid({ publicClient: client, party }, { message, nonce, wallet, signature }, at);
    expect(await check(await wrap(5))).toBe(true);
    expect(await check(await wrap(6))).toBe(false);
    // Verifying simulated the deployment only: the wallet is still not deployed.
    expect(await client.getCode({ address: wallet })).toBeUndefined();
  });

  it("refuses a message that differs only in its URI, correctly signed", async () => {
    const eoa = devAccount(7);
    const message = messageFor(eoa.address);
    const sign = (m: string) => eoa.signMessage({ message: m });
    const check = async (m: string) =>
      signInSignatureValid(
        { publicClient: client, party },
        { message: m, nonce, wallet: eoa.address, signature: await sign(m) },
        at,
      );
    expect(await check(message)).toBe(true);
    for (const uri of [
      "https://evil.example",
      "http://launch.example",
      "https://launch.example:8443",
      "https://launch.example.evil.example",
    ]) {
      const changed = message.replace("URI: https://launch.example\n", `URI: ${uri}\n`);
      expect(changed).not.toBe(message);
      expect(await check(changed), uri).toBe(false);
    }
  });
});
