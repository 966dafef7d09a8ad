/**
 * Builds the unsigned buy or sell of a launched token that the trader's wallet signs and sends
 * (docs/trade.md). As with the launch builder (`chain/build.ts`), nothing the client sends
 * chooses an address or calldata: `to` is the deployment's Uniswap V3 SwapRouter, the pool is the
 * token's TOKEN/WETH pool of the launch fee tier (1 %, `deployment.launchFactory.poolFee`), the
 * calldata is encoded here and the recipient is the wallet the caller proved.
 *
 * - buy: `SwapRouter.multicall([exactInputSingle(WETH -> token, recipient = wallet), refundETH()])`
 *   with `value = amountIn`; the router wraps the ETH, and `refundETH` returns any ETH a partial
 *   fill left in the router (none is expected: the launch positions cover the whole tick range).
 * - sell: `SwapRouter.multicall([exactInputSingle(token -> WETH, recipient = router),
 *   unwrapWETH9(minimumOut, wallet)])`: the wallet receives native ETH. The router pulls the
 *   tokens with `transferFrom`, so an ERC-20 `approve(router, amountIn)` is built too when the
 *   wallet's allowance is short (exactly the amount, never an unlimited approval).
 *
 * The amount out is quoted with QuoterV2 `quoteExactInputSingle` (an `eth_call`) at the same block
 * as every other read; `minimumOut = quote * (10,000 - slippageBps) / 10,000` is encoded into the
 * call, so the swap reverts rather than deliver less.
 */
import {
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  erc20Abi,
  ExecutionRevertedError,
  numberToHex,
  type Address,
  type PublicClient,
} from "viem";
import { quoterV2Abi } from "../abis/QuoterV2";
import { swapRouterAbi } from "../abis/SwapRouter";
import type { Deployment } from "../config/deployment";
import type { UnsignedTransaction } from "./build";
import { gasLimitWithMargin } from "../src/domain/launchBounds";
import { SwapBuildError } from "./errors";

/** Default slippage tolerance of a swap: 1 % (100 basis points). */
export const DEFAULT_SWAP_SLIPPAGE_BPS = 100;
/** Largest slippage tolerance accepted: 50 % (5,000 basis points), as for launches. */
export const MAX_SWAP_SLIPPAGE_BPS = 5000;
/** The swap's deadline: this many seconds after the timestamp of the block it was quoted at. */
export const DEFAULT_SWAP_DEADLINE_SEC = 600;
/** Largest buy accepted: 1,000 ETH (wei). */
export const MAX_BUY_WEI = 1000n * 10n ** 18n;
/**
 * Gas limit of a sell built before its approval is mined: the swap cannot be simulated while the
 * router may not move the tokens, so it carries this bound instead of an estimate (a sell takes
 * ~150,000 gas; unused gas is not charged). Building again after the approval gives an estimate.
 */
export const UNESTIMATED_SELL_GAS = 400_000n;

/** Which way the swap goes: `buy` pays ETH for the token, `sell` pays the token for ETH. */
export type SwapSide = "buy" | "sell";

/** What the trader asked for. */
export type SwapRequest = {
  /** The wallet that signs, pays and receives (proven by the caller: session or API key). */
  wallet: Address;
  /** A token launched by an accepted factory (the caller checked it against the index). */
  token: Address;
  side: SwapSide;
  /** What the wallet pays: ETH in wei (buy) or token base units (sell; launch tokens have 18 decimals). */
  amountInWei: bigint;
  /** Slippage tolerance in basis points, 0..{@link MAX_SWAP_SLIPPAGE_BPS} (default {@link DEFAULT_SWAP_SLIPPAGE_BPS}). */
  slippageBps?: number;
  /** Seconds from the quote's block to the swap's deadline (default {@link DEFAULT_SWAP_DEADLINE_SEC}). */
  deadlineSec?: number;
};

/** A built swap: the transactions and the quote they encode. */
export type BuiltSwap = {
  /** The swap, to the SwapRouter. */
  transaction: UnsignedTransaction;
  /** `approve(router, amountIn)` on the token, to send (and mine) first; null when not needed (every buy). */
  approval: UnsignedTransaction | null;
  side: SwapSide;
  tokenIn: Address;
  tokenOut: Address;
  /** Uniswap V3 fee tier of the pool, hundredths of a basis point (10,000 = 1 %). */
  poolFee: number;
  amountInWei: bigint;
  /** QuoterV2's amount out (token base units for a buy, wei for a sell). */
  expectedAmountOutWei: bigint;
  /** `expected * (10,000 - slippageBps) / 10,000`, encoded into the call. */
  minimumAmountOutWei: bigint;
  slippageBps: number;
  /** Pool price after the quoted swap (Q64.96). */
  sqrtPriceX96After: bigint;
  /** Unix seconds after which the router refuses the swap. */
  deadlineSec: bigint;
  /** The wallet's token allowance for the router (sell); null for a buy. */
  allowanceWei: bigint | null;
  gasLimit: bigint;
  /** False when the swap's gas is {@link UNESTIMATED_SELL_GAS} (approval not mined yet). */
  gasEstimated: boolean;
  /** Block every read ran against. */
  quotedAtBlock: bigint;
};

/**
 * Builds the swap for `request` against the deployment's SwapRouter and QuoterV2.
 *
 * Reads (one block for all): the latest block, the wallet's balance of what it pays (ETH or
 * token), the token allowance (sell), the quote, and the gas estimate of the exact call.
 * @param client - viem public client on the deployment's chain
 * @param deployment - addresses (`contracts.swapRouter`, `contracts.quoterV2`, `contracts.weth`) and pool fee
 * @param request - wallet, token, side, amount in, slippage
 * @returns the unsigned transaction(s) and the quote
 * @throws RangeError for an amount <= 0 or a slippage outside 0..5000 (the routes validate first)
 * @throws SwapBuildError `insufficient_balance` (the wallet holds less than it would pay),
 *   `no_liquidity` (the quote reverts or is 0), `swap_simulation_failed` (the exact call would
 *   revert), `rpc_unavailable`
 * @example
 * const built = await buildSwapTransaction(client, deployment, { wallet, token, side: "buy", amountInWei: 10n ** 16n })
 * built.transaction.to // deployment.contracts.swapRouter
 * built.minimumAmountOutWei // 99% of built.expectedAmountOutWei
 */
export async function buildSwapTransaction(
  client: PublicClient,
  deployment: Deployment,
  request: SwapRequest,
): Promise<BuiltSwap> {
  const slippageBps = request.slippageBps ?? DEFAULT_SWAP_SLIPPAGE_BPS;
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > MAX_SWAP_SLIPPAGE_BPS) {
    throw new RangeError(`slippageBps must be an integer in 0..${MAX_SWAP_SLIPPAGE_BPS}`);
  }
  if (request.amountInWei <= 0n) throw new RangeError("amountInWei must be positive");
  const { wallet, token, side, amountInWei } = request;
  const router = deployment.contracts.swapRouter;
  const weth = deployment.contracts.weth;
  const fee = deployment.launchFactory.poolFee;
  const [tokenIn, tokenOut] = side === "buy" ? [weth, token] : [token, weth];

  try {
    // One block for every read: balance, allowance, quote and estimate agree, and the deadline
    // counts from this block's timestamp (chain time, not the service's clock).
    const block = await client.getBlock({ blockTag: "latest" });
    const blockNumber = block.number;
    const [balance, allowance, quote] = await Promise.all([
      side === "buy"
        ? client.getBalance({ address: wallet, blockNumber })
        : client.readContract({
            address: token,
            abi: erc20Abi,
            functionName: "balanceOf",
            args: [wallet],
            blockNumber,
          }),
      side === "sell"
        ? client.readContract({
            address: token,
            abi: erc20Abi,
            functionName: "allowance",
            args: [wallet, router],
            blockNumber,
          })
        : Promise.resolve(null),
      client
        .simulateContract({
          address: deployment.contracts.quoterV2,
          abi: quoterV2Abi,
          functionName: "quoteExactInputSingle",
          args: [{ tokenIn, tokenOut, amountIn: amountInWei, fee, sqrtPriceLimitX96: 0n }],
          blockNumber,
        })
        .then(({ result }) => ({ amountOut: result[0], sqrtPriceX96After: result[1] }))
        .catch((err: unknown) => {
          if (!reverted(err)) throw err;
          throw new SwapBuildError("no_liquidity", `the pool gives no quote for this amount: ${shortReason(err)}`, {
            cause: err,
          });
        }),
    ]);
    if (balance < amountInWei) {
      throw new SwapBuildError(
        "insufficient_balance",
        side === "buy"
          ? `the wallet holds ${balance} wei, less than the ${amountInWei} wei it would pay`
          : `the wallet holds ${balance} token base units, less than the ${amountInWei} it would sell`,
      );
    }
    if (quote.amountOut === 0n) {
      throw new SwapBuildError("no_liquidity", "the pool returns nothing for this amount (no liquidity, or too small)");
    }
    const minimumOut = (quote.amountOut * BigInt(10_000 - slippageBps)) / 10_000n;
    const deadlineSec = block.timestamp + BigInt(request.deadlineSec ?? DEFAULT_SWAP_DEADLINE_SEC);
    const swap = encodeFunctionData({
      abi: swapRouterAbi,
      functionName: "exactInputSingle",
      args: [
        {
          tokenIn,
          tokenOut,
          fee,
          // A sell pays the router, which unwraps the WETH to the wallet in the same call.
          recipient: side === "buy" ? wallet : router,
          deadline: deadlineSec,
          amountIn: amountInWei,
          amountOutMinimum: minimumOut,
          sqrtPriceLimitX96: 0n,
        },
      ],
    });
    const second =
      side === "buy"
        ? encodeFunctionData({ abi: swapRouterAbi, functionName: "refundETH" })
        : encodeFunctionData({ abi: swapRouterAbi, functionName: "unwrapWETH9", args: [minimumOut, wallet] });
    const data = encodeFunctionData({ abi: swapRouterAbi, functionName: "multicall", args: [[swap, second]] });
    const value = side === "buy" ? amountInWei : 0n;

    const needsApproval = allowance !== null && allowance < amountInWei;
    let approval: UnsignedTransaction | null = null;
    let gasLimit: bigint;
    if (needsApproval) {
      const approveData = encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [router, amountInWei] });
      const approveGas = await client.estimateGas({ account: wallet, to: token, data: approveData, blockNumber });
      approval = transaction(deployment, wallet, token, 0n, approveData, gasLimitWithMargin(approveGas));
      gasLimit = UNESTIMATED_SELL_GAS;
    } else {
      const estimated = await client
        .estimateGas({ account: wallet, to: router, data, value, blockNumber })
        .catch((err: unknown) => {
          if (!reverted(err)) throw err;
          throw new SwapBuildError("swap_simulation_failed", `the swap would revert: ${shortReason(err)}`, {
            cause: err,
          });
        });
      gasLimit = gasLimitWithMargin(estimated);
    }

    return {
      transaction: transaction(deployment, wallet, router, value, data, gasLimit),
      approval,
      side,
      tokenIn,
      tokenOut,
      poolFee: fee,
      amountInWei,
      expectedAmountOutWei: quote.amountOut,
      minimumAmountOutWei: minimumOut,
      slippageBps,
      sqrtPriceX96After: quote.sqrtPriceX96After,
      deadlineSec,
      allowanceWei: allowance,
      gasLimit,
      gasEstimated: !needsApproval,
      quotedAtBlock: blockNumber,
    };
  } catch (err) {
    if (err instanceof SwapBuildError || err instanceof RangeError) throw err;
    throw new SwapBuildError("rpc_unavailable", `the chain RPC failed: ${shortReason(err)}`, { cause: err });
  }
}

function transaction(
  deployment: Deployment,
  from: Address,
  to: Address,
  value: bigint,
  data: `0x${string}`,
  gas: bigint,
): UnsignedTransaction {
  return { chainId: numberToHex(deployment.chainId), from, to, value: numberToHex(value), data, gas: numberToHex(gas) };
}

/** Whether a viem error is the call reverting (as opposed to the RPC failing). */
function reverted(err: unknown): boolean {
  return (
    err instanceof BaseError &&
    Boolean(err.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ExecutionRevertedError))
  );
}

function shortReason(err: unknown): string {
  const e = err as { shortMessage?: string; message?: string };
  return e?.shortMessage ?? e?.message ?? String(err);
}
