/**
 * Launch contracts on a real anvil with the real Uniswap V3 bytecode: permanent lock, exact 70/30
 * fee split, first-buy slippage, hostile pre-created pools, both token orientations, minimum value.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BaseError,
  ContractFunctionRevertedError,
  erc20Abi,
  getAddress,
  parseEther,
  parseEventLogs,
  toFunctionSelector,
  zeroAddress,
  type Abi,
  type Account,
  type Address,
  type TransactionReceipt,
} from "viem";
import { feeLockerAbi } from "../../abis/FeeLocker.js";
import { launchTokenAbi, launchTokenBytecode } from "../../abis/LaunchToken.js";
import { launchFactoryAbi } from "../../abis/LaunchFactory.js";
import { nonfungiblePositionManagerAbi } from "../../abis/NonfungiblePositionManager.js";
import { uniswapV3FactoryAbi } from "../../abis/UniswapV3Factory.js";
import { uniswapV3PoolAbi } from "../../abis/UniswapV3Pool.js";
import { weth9Abi } from "../../abis/WETH9.js";
import { buyToken, launchToken, sellToken } from "../../devnet/actions.js";
import { collectFees } from "../../devnet/feeActions.js";
import type { AnvilInstance } from "../../devnet/anvil.js";
import { createDevnetClients, devAccount, type DevnetClients } from "../../devnet/clients.js";
import type { DeploymentManifest } from "../../devnet/manifest.js";
import { compileSolidity } from "../../scripts/compile.js";
import { startDeployedDevnet } from "../helpers/chainDevnet.js";
import { nameForOrientation as nameForOrientationOn, precreateHostilePool } from "../helpers/hostilePool.js";

const MAX_UINT128 = 2n ** 128n - 1n;
const DEAD: Address = "0x000000000000000000000000000000000000dEaD";

let anvil: AnvilInstance;
let manifest: DeploymentManifest;
let minimumWei: bigint;
/** A bystander: reads through its clients, and receives a transfer in the holder-log test. */
const reader = devAccount(9);

function clientsFor(account: Account): DevnetClients {
  return createDevnetClients(anvil.rpcUrl, manifest.chainId, account);
}

/** Runs `fn` and returns the decoded custom error (name + args) or revert reason it failed with. */
async function revertOf(
  fn: () => Promise<unknown>,
): Promise<{ errorName?: string; args?: readonly unknown[]; reason?: string }> {
  try {
    await fn();
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError) {
      return { errorName: reverted.data?.errorName, args: reverted.data?.args, reason: reverted.reason };
    }
    throw error;
  }
  throw new Error("expected a revert, but the call succeeded");
}

/** Finds a name for which `creator`'s next token sorts before (token0) or after (token1) WETH. */
async function nameForOrientation(
  creator: Address,
  base: string,
  tokenIsToken0: boolean,
): Promise<{ name: string; symbol: string; predicted: Address }> {
  return nameForOrientationOn(clientsFor(reader).publicClient, manifest, creator, base, tokenIsToken0);
}

async function erc20Balance(token: Address, owner: Address): Promise<bigint> {
  const { publicClient } = clientsFor(reader);
  return publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
}

async function position(id: bigint) {
  const { publicClient } = clientsFor(reader);
  const p = await publicClient.readContract({
    address: manifest.contracts.nonfungiblePositionManager,
    abi: nonfungiblePositionManagerAbi,
    functionName: "positions",
    args: [id],
  });
  return { token0: p[2], token1: p[3], fee: p[4], tickLower: p[5], tickUpper: p[6], liquidity: p[7] };
}

async function slot0(pool: Address) {
  const { publicClient } = clientsFor(reader);
  const s = await publicClient.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: "slot0" });
  return { sqrtPriceX96: s[0], tick: s[1] };
}

async function startSqrtPrice(tokenIsToken0: boolean): Promise<bigint> {
  const { publicClient } = clientsFor(reader);
  return publicClient.readContract({
    address: manifest.contracts.launchFactory,
    abi: launchFactoryAbi,
    functionName: "startSqrtPriceX96",
    args: [tokenIsToken0],
  });
}

/** WETH (wei) that went into each position in a receipt, keyed by position id. */
function wethIntoPositions(receipt: TransactionReceipt, tokenIsToken0: boolean): Map<bigint, bigint> {
  const logs = parseEventLogs({
    abi: nonfungiblePositionManagerAbi,
    eventName: "IncreaseLiquidity",
    logs: receipt.logs,
  });
  return new Map(logs.map((l) => [l.args.tokenId, tokenIsToken0 ? l.args.amount1 : l.args.amount0]));
}

/** WETH transfers from the launch factory to anything but the pool in a receipt (refunds to the creator). */
function wethFromFactory(receipt: TransactionReceipt, pool: Address): { to: Address; value: bigint }[] {
  return parseEventLogs({ abi: weth9Abi, eventName: "Transfer", logs: receipt.logs })
    .filter(
      (l) =>
        getAddress(l.address) === manifest.contracts.weth &&
        getAddress(l.args.src) === manifest.contracts.launchFactory,
    )
    .filter((l) => getAddress(l.args.dst) !== pool)
    .map((l) => ({ to: getAddress(l.args.dst), value: l.args.wad }));
}

beforeAll(async () => {
  // The run's saved deployed devnet (test/helpers/chainDevnet.ts): its protocol fee recipient is
  // the deployer (dev account 0), which sends nothing in this file.
  ({ anvil, manifest } = await startDeployedDevnet());
  minimumWei = BigInt(manifest.launchFactory.minimumPoolLiquidityWei);
});

afterAll(async () => {
  await anvil?.stop();
});

describe("FeeLocker", () => {
  it("has no function that can move, approve or unwind a position NFT", async () => {
    const functions = feeLockerAbi
      .filter((item) => item.type === "function")
      .map((item) => item.name)
      .sort();
    expect(functions).toEqual([
      "CREATOR_SHARE_BPS",
      "collectFees",
      "collectFeesMany",
      "onERC721Received",
      "positionCreator",
      "positionManager",
      "positionToken",
      "protocolFeeRecipient",
    ]);
    expect(
      functions.filter((f) =>
        /transfer|approv|withdraw|burn|decrease|release|rescue|sweep|execute|call|owner/i.test(f),
      ),
    ).toEqual([]);

    // The deployed bytecode contains none of the position manager's selectors that move or unwind an NFT.
    const { publicClient } = clientsFor(reader);
    const code = (await publicClient.getCode({ address: manifest.contracts.feeLocker })) ?? "0x";
    expect(code.length).toBeGreaterThan(1000);
    const dangerous = nonfungiblePositionManagerAbi
      .filter((item) => item.type === "function")
      .filter((item) =>
        [
          "transferFrom",
          "safeTransferFrom",
          "approve",
          "setApprovalForAll",
          "decreaseLiquidity",
          "burn",
          "permit",
        ].includes(item.name),
      )
      .map((item) => toFunctionSelector(item));
    expect(dangerous).toHaveLength(8);
    for (const selector of dangerous) expect(code.includes(`63${selector.slice(2)}`)).toBe(false);
    // Control: the selector of collect (which it does call) is found with the same search.
    const collect = nonfungiblePositionManagerAbi.find((item) => item.type === "function" && item.name === "collect")!;
    expect(code.includes(`63${toFunctionSelector(collect).slice(2)}`)).toBe(true);
  });

  it("accepts NFTs only from the position manager and rejects unknown positions", async () => {
    const stranger = devAccount(7);
    const { publicClient } = clientsFor(stranger);
    const locker = { account: stranger, address: manifest.contracts.feeLocker, abi: feeLockerAbi } as const;
    expect(
      await revertOf(() =>
        publicClient.simulateContract({
          ...locker,
          functionName: "onERC721Received",
          args: [stranger.address, stranger.address, 1n, "0x"],
        }),
      ),
    ).toMatchObject({ errorName: "NotPositionManager", args: [stranger.address] });
    expect(
      await revertOf(() => publicClient.simulateContract({ ...locker, functionName: "collectFees", args: [999_999n] })),
    ).toMatchObject({
      errorName: "UnknownPosition",
      args: [999_999n],
    });
  });

  it("splits fees 70/30 exactly to the wei for both tokens and keeps the NFTs locked", async () => {
    const creator = devAccount(1);
    const trader = clientsFor(devAccount(2));
    const collector = clientsFor(devAccount(3));
    const c = clientsFor(creator);
    const { event } = await launchToken(c.walletClient, c.publicClient, manifest, {
      name: "Split",
      symbol: "SPL",
      firstBuyWei: parseEther("0.3"),
    });
    // Trade both ways so both positions earn fees in both tokens.
    for (const amountWei of [parseEther("0.4"), parseEther("0.25")]) {
      await buyToken(trader.walletClient, trader.publicClient, manifest, event.token, amountWei);
      const held = await erc20Balance(event.token, devAccount(2).address);
      await sellToken(trader.walletClient, trader.publicClient, manifest, event.token, held / 2n);
    }

    const npm = manifest.contracts.nonfungiblePositionManager;
    const owed = new Map<bigint, readonly [bigint, bigint]>();
    for (const id of event.positionIds) {
      // What the locker could collect right now (eth_call from the locker's address).
      const { result } = await c.publicClient.simulateContract({
        account: manifest.contracts.feeLocker,
        address: npm,
        abi: nonfungiblePositionManagerAbi,
        functionName: "collect",
        args: [
          { tokenId: id, recipient: manifest.contracts.feeLocker, amount0Max: MAX_UINT128, amount1Max: MAX_UINT128 },
        ],
      });
      expect(result[0]).toBeGreaterThan(0n);
      expect(result[1]).toBeGreaterThan(0n);
      owed.set(id, result);
    }

    const tokens = [event.token, manifest.contracts.weth] as const;
    const balances = async (who: Address) => Promise.all(tokens.map((t) => erc20Balance(t, who)));
    const creatorBefore = await balances(creator.address);
    const protocolBefore = await balances(manifest.protocolFeeRecipient);
    const { events } = await collectFees(collector.walletClient, collector.publicClient, manifest, event.positionIds);
    const creatorAfter = await balances(creator.address);
    const protocolAfter = await balances(manifest.protocolFeeRecipient);

    expect(events).toHaveLength(2);
    const sums = { creatorToken: 0n, creatorWeth: 0n, protocolToken: 0n, protocolWeth: 0n };
    const tokenIsToken0 = BigInt(event.token) < BigInt(manifest.contracts.weth);
    for (const e of events) {
      expect(e.creator).toBe(creator.address);
      expect(e.token).toBe(event.token);
      expect([e.amount0, e.amount1]).toEqual(owed.get(e.positionId));
      expect(e.creatorAmount0).toBe((e.amount0 * 7000n) / 10000n);
      expect(e.creatorAmount1).toBe((e.amount1 * 7000n) / 10000n);
      expect(e.creatorAmount0 + e.protocolAmount0).toBe(e.amount0);
      expect(e.creatorAmount1 + e.protocolAmount1).toBe(e.amount1);
      sums.creatorToken += tokenIsToken0 ? e.creatorAmount0 : e.creatorAmount1;
      sums.creatorWeth += tokenIsToken0 ? e.creatorAmount1 : e.creatorAmount0;
      sums.protocolToken += tokenIsToken0 ? e.protocolAmount0 : e.protocolAmount1;
      sums.protocolWeth += tokenIsToken0 ? e.protocolAmount1 : e.protocolAmount0;
    }
    // Balance deltas match the event amounts to the wei (WETH is paid as WETH).
    expect(creatorAfter[0]! - creatorBefore[0]!).toBe(sums.creatorToken);
    expect(creatorAfter[1]! - creatorBefore[1]!).toBe(sums.creatorWeth);
    expect(protocolAfter[0]! - protocolBefore[0]!).toBe(sums.protocolToken);
    expect(protocolAfter[1]! - protocolBefore[1]!).toBe(sums.protocolWeth);
    expect(sums.creatorWeth).toBeGreaterThan(0n);
    expect(sums.protocolToken).toBeGreaterThan(0n);
    // Nothing stays in the locker.
    expect(await erc20Balance(event.token, manifest.contracts.feeLocker)).toBe(0n);
    expect(await erc20Balance(manifest.contracts.weth, manifest.contracts.feeLocker)).toBe(0n);

    // A second collection finds nothing; the NFTs stay with the locker with their liquidity.
    const again = await collectFees(collector.walletClient, collector.publicClient, manifest, [event.positionIds[0]!]);
    expect([again.events[0]!.amount0, again.events[0]!.amount1]).toEqual([0n, 0n]);
    for (const id of event.positionIds) {
      const owner = await c.publicClient.readContract({
        address: npm,
        abi: nonfungiblePositionManagerAbi,
        functionName: "ownerOf",
        args: [id],
      });
      expect(owner).toBe(manifest.contracts.feeLocker);
      expect((await position(id)).liquidity).toBeGreaterThan(0n);
    }
  });
});

describe("LaunchFactory", () => {
  it("exposes the configured parameters", async () => {
    const { publicClient } = clientsFor(reader);
    const read = <
      F extends "POOL_FEE" | "TICK_SPACING" | "startTick" | "minimumPoolLiquidityWei" | "feeLocker" | "weth",
    >(
      functionName: F,
    ) => publicClient.readContract({ address: manifest.contracts.launchFactory, abi: launchFactoryAbi, functionName });
    expect(await read("POOL_FEE")).toBe(10000);
    expect(await read("TICK_SPACING")).toBe(200);
    expect(await read("startTick")).toBe(-196000);
    expect(await read("minimumPoolLiquidityWei")).toBe(parseEther("0.001"));
    expect(await read("feeLocker")).toBe(manifest.contracts.feeLocker);
    expect(await read("weth")).toBe(manifest.contracts.weth);
  });

  it("reverts with InsufficientLiquidityValue below the minimum, and on empty name/symbol", async () => {
    const creator = devAccount(1);
    const { walletClient, publicClient } = clientsFor(creator);
    const simulate = (name: string, symbol: string, value: bigint) => () =>
      publicClient.simulateContract({
        account: walletClient.account,
        address: manifest.contracts.launchFactory,
        abi: launchFactoryAbi,
        functionName: "launch",
        args: [name, symbol, 0n],
        value,
      });
    expect(await revertOf(simulate("Low", "LOW", minimumWei - 1n))).toMatchObject({
      errorName: "InsufficientLiquidityValue",
      args: [minimumWei - 1n, minimumWei],
    });
    expect(await revertOf(simulate("Low", "LOW", 0n))).toMatchObject({
      errorName: "InsufficientLiquidityValue",
      args: [0n, minimumWei],
    });
    expect(await revertOf(simulate("", "LOW", minimumWei))).toMatchObject({ errorName: "EmptyName" });
    expect(await revertOf(simulate("Low", "", minimumWei))).toMatchObject({ errorName: "EmptySymbol" });
  });

  for (const tokenIsToken0 of [true, false]) {
    it(`launches with the token as ${tokenIsToken0 ? "token0" : "token1"}: start price, positions, lock, minimum ETH`, async () => {
      const creator = devAccount(1);
      const { walletClient, publicClient } = clientsFor(creator);
      const { name, symbol, predicted } = await nameForOrientation(creator.address, "Orient", tokenIsToken0);
      const { receipt, event } = await launchToken(walletClient, publicClient, manifest, { name, symbol });

      expect(event.token).toBe(predicted);
      expect(receipt.gasUsed).toBeLessThan(7_000_000n);
      expect(event.creator).toBe(creator.address);
      expect(event.name).toBe(name);
      expect(event.totalSupply).toBe(10n ** 27n);
      expect(event.liquidityWei).toBe(minimumWei);
      expect([event.firstBuyWei, event.firstBuyTokensOut]).toEqual([0n, 0n]);
      const pool = await publicClient.readContract({
        address: manifest.contracts.uniswapV3Factory,
        abi: uniswapV3FactoryAbi,
        functionName: "getPool",
        args: [event.token, manifest.contracts.weth, 10000],
      });
      expect(event.pool).toBe(pool);

      // Start price: token0 sits one below startTick's price, token1 exactly at -startTick.
      const s = await slot0(event.pool);
      expect(s.sqrtPriceX96).toBe(await startSqrtPrice(tokenIsToken0));
      expect(s.tick).toBe(tokenIsToken0 ? -196001 : 196000);
      const priceWethPerToken = tokenIsToken0
        ? (Number(s.sqrtPriceX96) / 2 ** 96) ** 2
        : 1 / (Number(s.sqrtPriceX96) / 2 ** 96) ** 2;
      expect(priceWethPerToken).toBeGreaterThan(3.0e-9);
      expect(priceWethPerToken).toBeLessThan(3.1e-9);

      // Two positions, both owned by the locker, recorded with creator and token.
      expect(event.positionIds).toHaveLength(2);
      const [fullId, singleId] = event.positionIds as [bigint, bigint];
      for (const id of event.positionIds) {
        const owner = await publicClient.readContract({
          address: manifest.contracts.nonfungiblePositionManager,
          abi: nonfungiblePositionManagerAbi,
          functionName: "ownerOf",
          args: [id],
        });
        expect(owner).toBe(manifest.contracts.feeLocker);
        const read = (functionName: "positionCreator" | "positionToken") =>
          publicClient.readContract({
            address: manifest.contracts.feeLocker,
            abi: feeLockerAbi,
            functionName,
            args: [id],
          });
        expect(await read("positionCreator")).toBe(creator.address);
        expect(await read("positionToken")).toBe(event.token);
      }
      const locked = parseEventLogs({ abi: feeLockerAbi, eventName: "PositionLocked", logs: receipt.logs });
      expect(locked.map((l) => l.args)).toEqual(
        event.positionIds.map((positionId) => ({
          positionId,
          creator: creator.address,
          token: event.token,
          lockedBy: manifest.contracts.launchFactory,
        })),
      );

      const full = await position(fullId);
      expect([full.tickLower, full.tickUpper, full.fee]).toEqual([-887200, 887200, 10000]);
      const single = await position(singleId);
      expect([single.tickLower, single.tickUpper]).toEqual(tokenIsToken0 ? [-196000, 887200] : [-887200, 196000]);
      expect(single.liquidity).toBeGreaterThan(0n);

      // The full-range position holds the minimum ETH; the token-only one holds no WETH; rounding
      // dust (at most a few wei) is refunded to the creator as WETH.
      const wethIn = wethIntoPositions(receipt, tokenIsToken0);
      const refunds = wethFromFactory(receipt, event.pool);
      const refunded = refunds.reduce((sum, r) => sum + r.value, 0n);
      expect(refunds.every((r) => r.to === creator.address)).toBe(true);
      expect(wethIn.get(singleId)).toBe(0n);
      expect((wethIn.get(fullId) ?? 0n) + refunded).toBe(minimumWei);
      expect(refunded).toBeLessThanOrEqual(2n);
      expect(await erc20Balance(manifest.contracts.weth, event.pool)).toBe(wethIn.get(fullId));

      // All tokens are in the pool except rounding dust sent to the dead address.
      const inPool = await erc20Balance(event.token, event.pool);
      const dust = await erc20Balance(event.token, DEAD);
      expect(inPool + dust).toBe(10n ** 27n);
      expect(dust).toBeLessThan(10n ** 6n); // rounding of the token-only position: ~1.6e-14 tokens measured
      expect(await erc20Balance(event.token, manifest.contracts.launchFactory)).toBe(0n);

      // The WETH is live: a sale right after launch (tokens bought by a trader) gets WETH back.
      const trader = clientsFor(devAccount(2));
      await buyToken(trader.walletClient, trader.publicClient, manifest, event.token, parseEther("0.0001"));
      const bought = await erc20Balance(event.token, devAccount(2).address);
      const wethBefore = await erc20Balance(manifest.contracts.weth, devAccount(2).address);
      await sellToken(trader.walletClient, trader.publicClient, manifest, event.token, bought);
      expect(await erc20Balance(manifest.contracts.weth, devAccount(2).address)).toBeGreaterThan(wethBefore);
    });
  }

  it("first buy respects amountOutMinimum: one above the quote reverts, the exact quote succeeds", async () => {
    const creator = devAccount(4);
    const { walletClient, publicClient } = clientsFor(creator);
    const firstBuyWei = parseEther("0.2");
    const params = { name: "Quoted", symbol: "QUO" } as const;
    const { result } = await publicClient.simulateContract({
      account: creator,
      address: manifest.contracts.launchFactory,
      abi: launchFactoryAbi,
      functionName: "launch",
      args: [params.name, params.symbol, 0n],
      value: minimumWei + firstBuyWei,
    });
    const quote = result[3];
    expect(quote).toBeGreaterThan(0n);

    const tooHigh = await revertOf(() =>
      launchToken(walletClient, publicClient, manifest, {
        ...params,
        firstBuyWei,
        firstBuyAmountOutMinimum: quote + 1n,
      }),
    );
    expect(tooHigh.reason).toBe("Too little received");

    const { event } = await launchToken(walletClient, publicClient, manifest, {
      ...params,
      firstBuyWei,
      firstBuyAmountOutMinimum: quote,
    });
    expect(event.token).toBe(result[0]);
    expect(event.firstBuyWei).toBe(firstBuyWei);
    expect(event.firstBuyTokensOut).toBe(quote);
    expect(await erc20Balance(event.token, creator.address)).toBe(quote);
  });

  describe("pre-created hostile pool", () => {
    type Case = {
      label: string;
      tokenIsToken0: boolean;
      hostileTick: number | null;
      wethRange: [number, number] | null;
    };
    const cases: Case[] = [
      {
        label: "token0, initialised far too expensive, attacker WETH liquidity",
        tokenIsToken0: true,
        hostileTick: 50000,
        wethRange: [-100000, 0],
      },
      {
        label: "token1, initialised far too expensive, attacker WETH liquidity",
        tokenIsToken0: false,
        hostileTick: -50000,
        wethRange: [0, 100000],
      },
      {
        label: "token0, initialised far too cheap, no liquidity",
        tokenIsToken0: true,
        hostileTick: -400000,
        wethRange: null,
      },
      { label: "token1, created but not initialised", tokenIsToken0: false, hostileTick: null, wethRange: null },
    ];
    for (const c of cases) {
      it(`does not block the launch (${c.label})`, async () => {
        const creator = devAccount(5);
        const attacker = devAccount(6);
        const a = clientsFor(attacker);
        const { name, symbol, predicted } = await nameForOrientation(
          creator.address,
          `Hostile ${c.label.length}${c.hostileTick}`,
          c.tokenIsToken0,
        );
        const weth = manifest.contracts.weth;

        const { pool } = await precreateHostilePool(a, manifest, predicted, c);
        if (c.hostileTick !== null) expect((await slot0(pool)).tick).toBeCloseTo(c.hostileTick, -1);
        if (c.wethRange) expect(await erc20Balance(weth, pool)).toBeGreaterThan(parseEther("0.99"));

        const { walletClient, publicClient } = clientsFor(creator);
        const firstBuyWei = parseEther("0.05");
        const { receipt, event } = await launchToken(walletClient, publicClient, manifest, {
          name,
          symbol,
          firstBuyWei,
        });
        expect(event.token).toBe(predicted);
        expect(event.pool).toBe(pool);
        expect(event.firstBuyTokensOut).toBeGreaterThan(0n);
        expect(await erc20Balance(event.token, creator.address)).toBe(event.firstBuyTokensOut);

        // Swaps in the launch: at most one price-moving swap by the factory (ending exactly at the
        // start price), then the first buy through the router.
        const target = await startSqrtPrice(c.tokenIsToken0);
        const swaps = parseEventLogs({ abi: uniswapV3PoolAbi, eventName: "Swap", logs: receipt.logs }).filter(
          (l) => getAddress(l.address) === pool,
        );
        const moves = swaps.filter((l) => getAddress(l.args.sender) === manifest.contracts.launchFactory);
        const buys = swaps.filter((l) => getAddress(l.args.sender) === manifest.contracts.swapRouter);
        expect(buys).toHaveLength(1);
        expect(moves).toHaveLength(c.hostileTick === null ? 0 : 1);
        if (moves[0]) {
          expect(moves[0].args.sqrtPriceX96).toBe(target);
          expect(moves[0].logIndex).toBeLessThan(buys[0]!.logIndex);
        }

        // Attacker's WETH received by the price move goes to the creator (with the rounding dust).
        const refunded = wethFromFactory(receipt, event.pool).reduce((sum, r) => sum + r.value, 0n);
        const wethIn = wethIntoPositions(receipt, c.tokenIsToken0);
        const [fullId] = event.positionIds as [bigint, bigint];
        expect(wethIn.get(fullId)).toBeGreaterThanOrEqual(minimumWei - 2n);
        expect(wethIn.get(fullId)).toBeLessThanOrEqual(minimumWei);
        if (moves[0]) {
          const wethReceived = -(c.tokenIsToken0 ? moves[0].args.amount1 : moves[0].args.amount0);
          expect(refunded).toBe(wethReceived + minimumWei - wethIn.get(fullId)!);
          if (c.wethRange) expect(wethReceived).toBeGreaterThan(parseEther("0.5"));
        }
        for (const id of event.positionIds) {
          const owner = await publicClient.readContract({
            address: manifest.contracts.nonfungiblePositionManager,
            abi: nonfungiblePositionManagerAbi,
            functionName: "ownerOf",
            args: [id],
          });
          expect(owner).toBe(manifest.contracts.feeLocker);
        }
      });
    }
  });
});

describe("LaunchToken", () => {
  /** A plain OpenZeppelin ERC-20 with the same supply: the gas baseline of a transfer. */
  const BASELINE_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
contract BaselineToken is ERC20 {
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {
        _mint(msg.sender, 1_000_000_000 * 10 ** 18);
    }
}
`;

  /** HolderBalances logs of one token in a receipt. */
  const holderLogs = (receipt: TransactionReceipt, token: Address) =>
    parseEventLogs({ abi: launchTokenAbi, eventName: "HolderBalances", logs: receipt.logs }).filter(
      (l) => getAddress(l.address) === token,
    );

  it("emits HolderBalances with both post-change balances after every Transfer, from the mint on", async () => {
    const creator = devAccount(4);
    const alice = devAccount(5);
    const c = clientsFor(creator);
    const { receipt, event } = await launchToken(c.walletClient, c.publicClient, manifest, {
      name: "Holders",
      symbol: "HLD",
      firstBuyWei: parseEther("0.01"),
    });
    // Each Transfer of the launch is followed by its HolderBalances, with the balances after it
    // (replayed from the Transfers: the mint first, from the zero address).
    const transfers = parseEventLogs({ abi: launchTokenAbi, eventName: "Transfer", logs: receipt.logs }).filter(
      (l) => getAddress(l.address) === event.token,
    );
    const holders = holderLogs(receipt, event.token);
    expect(transfers.length).toBeGreaterThanOrEqual(3);
    expect(holders).toHaveLength(transfers.length);
    expect(transfers[0]!.args.from).toBe(zeroAddress);
    const replay = new Map<Address, bigint>();
    for (const [i, t] of transfers.entries()) {
      const h = holders[i]!;
      expect(h.logIndex).toBe(t.logIndex + 1);
      expect([h.args.from, h.args.to]).toEqual([t.args.from, t.args.to]);
      if (t.args.from !== zeroAddress) replay.set(t.args.from, (replay.get(t.args.from) ?? 0n) - t.args.value);
      replay.set(t.args.to, (replay.get(t.args.to) ?? 0n) + t.args.value);
      expect(h.args.fromBalanceWei).toBe(t.args.from === zeroAddress ? 0n : replay.get(t.args.from));
      expect(h.args.toBalanceWei).toBe(replay.get(t.args.to));
    }
    for (const [holder, balance] of replay) expect(await erc20Balance(event.token, holder)).toBe(balance);

    // A transfer, a transfer to self, a zero-value transfer and a transferFrom.
    const token = { address: event.token, abi: launchTokenAbi, account: creator } as const;
    const send = async (hash: Promise<`0x${string}`>) => c.publicClient.waitForTransactionReceipt({ hash: await hash });
    const held = await erc20Balance(event.token, creator.address);
    const cases = [
      { args: [alice.address, held / 3n] as const, from: creator.address, to: alice.address },
      { args: [creator.address, 5n] as const, from: creator.address, to: creator.address },
      { args: [alice.address, 0n] as const, from: creator.address, to: alice.address },
    ];
    for (const k of cases) {
      const r = await send(c.walletClient.writeContract({ ...token, functionName: "transfer", args: k.args }));
      const [h] = holderLogs(r, event.token);
      expect(h?.args).toEqual({
        from: k.from,
        to: k.to,
        fromBalanceWei: await erc20Balance(event.token, k.from),
        toBalanceWei: await erc20Balance(event.token, k.to),
      });
    }
    await send(c.walletClient.writeContract({ ...token, functionName: "approve", args: [alice.address, 7n] }));
    const a = clientsFor(alice);
    const r = await send(
      a.walletClient.writeContract({
        ...token,
        account: alice,
        functionName: "transferFrom",
        args: [creator.address, reader.address, 7n],
      }),
    );
    expect(holderLogs(r, event.token).map((l) => l.args)).toEqual([
      {
        from: creator.address,
        to: reader.address,
        fromBalanceWei: await erc20Balance(event.token, creator.address),
        toBalanceWei: 7n,
      },
    ]);
  });

  it("costs a bounded amount of extra gas per transfer over a plain OpenZeppelin ERC-20", async () => {
    const owner = devAccount(6);
    const c = clientsFor(owner);
    const { BaselineToken } = compileSolidity({ "contracts/BaselineToken.sol": BASELINE_SOURCE });
    const deploy = async (abi: Abi, bytecode: `0x${string}`) => {
      const hash = await c.walletClient.deployContract({ abi, bytecode, args: ["Gas", "GAS"], account: owner });
      return (await c.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    };
    const tokens = {
      baseline: await deploy(BaselineToken!.abi as Abi, BaselineToken!.bytecode),
      launch: await deploy(launchTokenAbi, launchTokenBytecode),
    };
    // The same sequence on both: to a new holder, to an existing holder, a full balance out.
    const gasOf = async (address: Address) => {
      const fresh = [
        "0x00000000000000000000000000000000000ab0a1",
        "0x00000000000000000000000000000000000ab0a2",
      ] as const;
      const used: bigint[] = [];
      for (const [to, amount] of [
        [fresh[0]!, 1000n],
        [fresh[0]!, 500n],
        [fresh[1]!, 1n],
      ] as const) {
        const hash = await c.walletClient.writeContract({
          address,
          abi: launchTokenAbi,
          functionName: "transfer",
          args: [to, amount],
          account: owner,
        });
        used.push((await c.publicClient.waitForTransactionReceipt({ hash })).gasUsed);
      }
      return used;
    };
    const baseline = await gasOf(tokens.baseline);
    const launch = await gasOf(tokens.launch);
    const extra = launch.map((g, i) => g - baseline[i]!);
    // docs/operations.md "Scale" quotes this figure: a LOG3 with 64 data bytes (2,012 gas) plus
    // two warm balance reads and the encoding.
    for (const e of extra) {
      expect(e, `extra gas ${extra.join(", ")}`).toBeGreaterThan(2_012n);
      expect(e, `extra gas ${extra.join(", ")}`).toBeLessThan(2_700n);
    }
    expect(new Set(extra).size, `extra gas ${extra.join(", ")}; baseline ${baseline.join(", ")}`).toBe(1);
  });
});
