/**
 * The launch builder and receipt verifier against real contracts on anvil: a wallet sends the
 * built transaction unchanged, the verifier accepts it; every forged case is rejected with its
 * code. (The HTTP surfaces that call these arrive with the launch-write-path issue.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  keccak256,
  numberToHex,
  parseEther,
  toHex,
  type Hash,
  type PublicClient,
} from "viem";
import { launchFactoryAbi } from "../../abis/LaunchFactory";
import { deploymentSchema, type Deployment } from "../../config/deployment";
import { launchToken } from "../../devnet/actions";
import type { AnvilInstance } from "../../devnet/anvil";
import { startDeployedDevnet } from "../helpers/chainDevnet";
import { devAccount } from "../../devnet/clients";
import { deployLookAlikeFactory } from "../../devnet/deploy";
import { buildLaunchTransaction, type BuiltLaunch } from "../../chain/build";
import { verifyLaunch } from "../../chain/verify";

let anvil: AnvilInstance;
let client: PublicClient;
let deployment: Deployment;

const wallet = (index: number) => createWalletClient({ account: devAccount(index), transport: http(anvil.rpcUrl) });

/** Sends the built transaction exactly as returned, as a wallet's eth_sendTransaction would. */
async function sendAsWallet(index: number, built: BuiltLaunch): Promise<Hash> {
  const tx = built.transaction;
  expect(tx.from).toBe(devAccount(index).address);
  const hash = await wallet(index).sendTransaction({
    chain: null,
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
    gas: BigInt(tx.gas),
  });
  await client.waitForTransactionReceipt({ hash });
  return hash;
}

beforeAll(async () => {
  const devnet = await startDeployedDevnet();
  anvil = devnet.anvil;
  client = createPublicClient({ transport: http(anvil.rpcUrl) });
  deployment = deploymentSchema.parse(devnet.manifest);
});

afterAll(async () => {
  await anvil?.stop();
});

describe("buildLaunchTransaction", () => {
  it("builds the exact transaction and policy; the wallet's launch verifies", async () => {
    const creator = devAccount(1).address;
    const firstBuyWei = parseEther("0.25");
    const built = await buildLaunchTransaction(client, deployment, {
      creator,
      name: "Built",
      symbol: "BLT",
      firstBuyWei,
    });
    const minimum = BigInt(deployment.launchFactory.minimumPoolLiquidityWei);
    expect(built.transaction.chainId).toBe("0x1237");
    expect(built.transaction.to).toBe(deployment.contracts.launchFactory);
    expect(built.transaction.value).toBe(numberToHex(minimum + firstBuyWei));
    expect(built.transaction.value).toMatch(/^0x[1-9a-f][0-9a-f]*$/);
    expect(built.policy).toEqual({
      minimum_pool_liquidity_wei: minimum,
      first_buy_amount_wei: firstBuyWei,
      total_transaction_value_wei: minimum + firstBuyWei,
    });
    expect(built.firstBuyAmountOutMinimum).toBe((built.firstBuyExpectedTokensOut * 9_700n) / 10_000n);
    expect(built.predictedTokenAddress).toBe(
      await client.readContract({
        address: deployment.contracts.launchFactory,
        abi: launchFactoryAbi,
        functionName: "predictTokenAddress",
        args: [creator, "Built", "BLT"],
      }),
    );

    const txHash = await sendAsWallet(1, built);
    const result = await verifyLaunch(client, deployment, {
      txHash,
      creator,
      name: "Built",
      symbol: "BLT",
      firstBuyWei,
      firstBuyAmountOutMinimum: built.firstBuyAmountOutMinimum,
    });
    expect(result.status).toBe("verified");
    if (result.status !== "verified") return;
    expect(result.launch.token).toBe(built.predictedTokenAddress);
    expect(result.launch.pool).toBe(built.predictedPoolAddress);
    // Nothing else happened between build and send, so the simulation was exact.
    expect(result.launch.firstBuyTokensOut).toBe(built.firstBuyExpectedTokensOut);
    // Verification is repeatable and returns the same result.
    expect(
      await verifyLaunch(client, deployment, { txHash, creator, name: "Built", symbol: "BLT", firstBuyWei }),
    ).toEqual(result);
  });

  it("builds a launch without a first buy for a wallet with no ETH", async () => {
    const creator = getAddress("0x00000000000000000000000000000000000c0ffe");
    const built = await buildLaunchTransaction(client, deployment, {
      creator,
      name: "Broke",
      symbol: "BRK",
      firstBuyWei: 0n,
    });
    expect(built.firstBuyExpectedTokensOut).toBe(0n);
    expect(built.firstBuyAmountOutMinimum).toBe(0n);
    expect(BigInt(built.transaction.value)).toBe(BigInt(deployment.launchFactory.minimumPoolLiquidityWei));
  });

  it("reports a launch that would revert as launch_simulation_failed", async () => {
    await expect(
      buildLaunchTransaction(client, deployment, {
        creator: devAccount(1).address,
        name: "",
        symbol: "X",
        firstBuyWei: 0n,
      }),
    ).rejects.toMatchObject({ name: "LaunchBuildError", code: "launch_simulation_failed" });
  });
});

describe("verifyLaunch rejects forgeries", () => {
  it("reports an unknown hash as pending, not failed", async () => {
    const result = await verifyLaunch(client, deployment, {
      txHash: keccak256(toHex("never sent")),
      creator: devAccount(1).address,
      name: "X",
      symbol: "X",
      firstBuyWei: 0n,
    });
    expect(result).toMatchObject({ status: "pending", code: "receipt_pending" });
  });

  it("rejects a look-alike factory that emits the same event", async () => {
    const lookAlike = await deployLookAlikeFactory(wallet(0), client, deployment);
    const fake = await launchToken(
      wallet(1),
      client,
      { ...deployment, contracts: { ...deployment.contracts, launchFactory: lookAlike } },
      {
        name: "Fake",
        symbol: "FAKE",
      },
    );
    const result = await verifyLaunch(client, deployment, {
      txHash: fake.hash,
      creator: devAccount(1).address,
      name: "Fake",
      symbol: "FAKE",
      firstBuyWei: 0n,
    });
    expect(result).toMatchObject({ status: "failed", code: "factory_not_accepted" });
  });

  it("rejects a real launch by another creator, and another launch's transaction", async () => {
    const other = await launchToken(wallet(2), client, deployment, { name: "Other", symbol: "OTH" });
    expect(
      await verifyLaunch(client, deployment, {
        txHash: other.hash,
        creator: devAccount(1).address,
        name: "Other",
        symbol: "OTH",
        firstBuyWei: 0n,
      }),
    ).toMatchObject({ status: "failed", code: "creator_mismatch" });
    expect(
      await verifyLaunch(client, deployment, {
        txHash: other.hash,
        creator: devAccount(2).address,
        name: "Mine",
        symbol: "MINE",
        firstBuyWei: 0n,
      }),
    ).toMatchObject({ status: "failed", code: "metadata_mismatch" });
  });

  it("rejects a receipt without the requested first buy", async () => {
    const noBuy = await launchToken(wallet(3), client, deployment, { name: "NoBuy", symbol: "NB" });
    expect(
      await verifyLaunch(client, deployment, {
        txHash: noBuy.hash,
        creator: devAccount(3).address,
        name: "NoBuy",
        symbol: "NB",
        firstBuyWei: parseEther("0.1"),
      }),
    ).toMatchObject({ status: "failed", code: "value_mismatch" });
  });

  it("rejects a launch that reverted on chain", async () => {
    const creator = devAccount(4).address;
    const firstBuyWei = parseEther("1");
    const built = await buildLaunchTransaction(client, deployment, {
      creator,
      name: "Slipped",
      symbol: "SLP",
      firstBuyWei,
      slippageBps: 0,
    });
    // One wei less of first buy than built: with zero slippage the swap delivers less than the
    // encoded minimum and the router reverts; the explicit gas limit gets it mined anyway.
    const hash = await wallet(4).sendTransaction({
      chain: null,
      to: built.transaction.to,
      data: built.transaction.data,
      value: BigInt(built.transaction.value) - 1n,
      gas: BigInt(built.transaction.gas),
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("reverted");
    expect(
      await verifyLaunch(client, deployment, { txHash: hash, creator, name: "Slipped", symbol: "SLP", firstBuyWei }),
    ).toMatchObject({ status: "failed", code: "transaction_reverted" });
  });
});
