/**
 * Verifies a broadcast launch transaction before anything is persisted (spec: "What the service
 * does" 2 and the safety rule "Persistence happens only after receipt verification against an
 * accepted factory"). Pure over a viem public client: it reads the chain and decides; callers
 * persist only a `verified` result.
 */
import {
  decodeEventLog,
  getAddress,
  isAddressEqual,
  TransactionReceiptNotFoundError,
  type Address,
  type Hash,
  type PublicClient,
} from "viem";
import { launchFactoryAbi } from "../abis/LaunchFactory";
import { nonfungiblePositionManagerAbi } from "../abis/NonfungiblePositionManager";
import { uniswapV3PoolAbi } from "../abis/UniswapV3Pool";
import { isAcceptedFactory, type Deployment } from "../config/deployment";
import type { LaunchVerifyErrorCode } from "./errors";

/** What the service built and therefore expects to find. */
export type LaunchExpectation = {
  txHash: Hash;
  creator: Address;
  name: string;
  symbol: string;
  /** First buy the creator asked for, wei (0 = none). */
  firstBuyWei: bigint;
  /** Minimum tokens the first buy had to deliver, when the service built it. */
  firstBuyAmountOutMinimum?: bigint;
};

/** A launch that passed every check. Amounts in base units. */
export type VerifiedLaunch = {
  txHash: Hash;
  blockNumber: bigint;
  blockHash: Hash;
  factory: Address;
  token: Address;
  pool: Address;
  creator: Address;
  name: string;
  symbol: string;
  positionIds: bigint[];
  liquidityWei: bigint;
  firstBuyWei: bigint;
  firstBuyTokensOut: bigint;
};

/** Outcome of {@link verifyLaunch}. */
export type LaunchVerification =
  | { status: "verified"; launch: VerifiedLaunch }
  | { status: "pending"; code: "receipt_pending"; message: string }
  | { status: "failed"; code: Exclude<LaunchVerifyErrorCode, "receipt_pending">; message: string };

/**
 * Checks, in order: the receipt exists (else `pending`); status success; the transaction's `to` is
 * an accepted factory; exactly one `TokenLaunched` from that factory; its creator equals the
 * expected creator and the transaction's sender (`receipt.from`); name and symbol equal what was
 * built; the event's first buy equals the built one (the factory splits `msg.value` into the
 * minimum liquidity and the first buy, so this fixes the value); every position NFT is owned by the
 * fee locker at that block; and, when a first buy was requested, the pool's `Swap` in the same
 * receipt pays the creator at least the minimum.
 *
 * RPC requests (docs/launch.md "RPC budget"): `eth_getTransactionReceipt`, then one `eth_call`
 * (the position owners, viem's deployless multicall); a pending or failing receipt stops after the
 * first.
 * @param client - viem public client on the deployment's chain
 * @param deployment - accepted factories and the fee locker / position manager addresses
 * @param expected - what was built
 * @returns `verified` with the launch facts, `pending`, or `failed` with a code and message
 */
export async function verifyLaunch(
  client: PublicClient,
  deployment: Deployment,
  expected: LaunchExpectation,
): Promise<LaunchVerification> {
  const fail = (code: Exclude<LaunchVerifyErrorCode, "receipt_pending">, message: string) =>
    ({ status: "failed", code, message }) as const;

  let receipt;
  try {
    receipt = await client.getTransactionReceipt({ hash: expected.txHash });
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) {
      return { status: "pending", code: "receipt_pending", message: `transaction ${expected.txHash} is not mined yet` };
    }
    return fail("rpc_unavailable", `the chain RPC failed: ${(err as Error).message.split("\n")[0]}`);
  }

  if (receipt.status !== "success") return fail("transaction_reverted", `transaction ${expected.txHash} reverted`);
  const factory = receipt.to;
  if (!factory || !isAcceptedFactory(deployment, factory)) {
    return fail("factory_not_accepted", `transaction ${expected.txHash} did not call an accepted launch factory`);
  }

  const launches = receipt.logs.flatMap((log) => {
    if (!isAddressEqual(log.address, factory)) return [];
    try {
      const decoded = decodeEventLog({ abi: launchFactoryAbi, data: log.data, topics: log.topics });
      return decoded.eventName === "TokenLaunched" ? [decoded.args] : [];
    } catch {
      return [];
    }
  });
  if (launches.length === 0) return fail("launch_event_missing", "the receipt has no launch event from the factory");
  if (launches.length > 1) return fail("launch_event_ambiguous", "the receipt has more than one launch event");
  const event = launches[0]!;

  // The receipt carries the sender (`from`): no separate transaction lookup.
  if (!isAddressEqual(event.creator, expected.creator) || !isAddressEqual(receipt.from, expected.creator)) {
    return fail("creator_mismatch", "the launch was not made by the expected creator");
  }
  if (event.name !== expected.name || event.symbol !== expected.symbol) {
    return fail("metadata_mismatch", "the launched name or symbol differs from what was built");
  }
  // The transaction called the accepted factory directly (`receipt.to`), whose event splits exactly
  // its `msg.value`: liquidityWei = the minimum, firstBuyWei = msg.value - liquidityWei
  // (contracts/LaunchFactory.sol). So the event's first buy equal to the built one means the value
  // is minimum + first buy, without reading the transaction.
  if (event.firstBuyWei !== expected.firstBuyWei) {
    return fail("value_mismatch", "the transaction value or first buy differs from what was built");
  }

  if (event.positionIds.length === 0) return fail("lp_not_locked", "the launch locked no position");
  let owners: readonly Address[];
  try {
    // Every position's owner at the launch's block in one `eth_call`: viem's deployless multicall
    // (Multicall3's bytecode runs inside the call; nothing needs to be deployed on the chain).
    owners = await client.multicall({
      contracts: event.positionIds.map((positionId) => ({
        address: deployment.contracts.nonfungiblePositionManager,
        abi: nonfungiblePositionManagerAbi,
        functionName: "ownerOf" as const,
        args: [positionId] as const,
      })),
      allowFailure: false,
      deployless: true,
      blockNumber: receipt.blockNumber,
    });
  } catch (err) {
    return fail("rpc_unavailable", `reading position owners failed: ${(err as Error).message.split("\n")[0]}`);
  }
  const unlocked = event.positionIds.findIndex((_, i) => !isAddressEqual(owners[i]!, deployment.contracts.feeLocker));
  if (unlocked !== -1)
    return fail("lp_not_locked", `position ${event.positionIds[unlocked]} is not held by the fee locker`);

  if (expected.firstBuyWei > 0n) {
    const tokenIsToken0 = event.token.toLowerCase() < deployment.contracts.weth.toLowerCase();
    const swapsToCreator = receipt.logs.flatMap((log) => {
      if (!isAddressEqual(log.address, event.pool)) return [];
      try {
        const decoded = decodeEventLog({ abi: uniswapV3PoolAbi, data: log.data, topics: log.topics });
        if (decoded.eventName !== "Swap" || !isAddressEqual(decoded.args.recipient, expected.creator)) return [];
        const tokenDelta = tokenIsToken0 ? decoded.args.amount0 : decoded.args.amount1;
        return tokenDelta < 0n ? [-tokenDelta] : [];
      } catch {
        return [];
      }
    });
    const tokensOut = swapsToCreator.at(-1);
    if (tokensOut === undefined)
      return fail("first_buy_missing", "the receipt has no first-buy swap paying the creator");
    if (tokensOut !== event.firstBuyTokensOut) {
      return fail("first_buy_missing", "the first-buy swap does not match the launch event");
    }
    if (expected.firstBuyAmountOutMinimum !== undefined && tokensOut < expected.firstBuyAmountOutMinimum) {
      return fail("first_buy_below_minimum", "the first buy delivered fewer tokens than the built minimum");
    }
  }

  return {
    status: "verified",
    launch: {
      txHash: expected.txHash,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      factory: getAddress(factory),
      token: getAddress(event.token),
      pool: getAddress(event.pool),
      creator: getAddress(event.creator),
      name: event.name,
      symbol: event.symbol,
      positionIds: [...event.positionIds],
      liquidityWei: event.liquidityWei,
      firstBuyWei: event.firstBuyWei,
      firstBuyTokensOut: event.firstBuyTokensOut,
    },
  };
}
