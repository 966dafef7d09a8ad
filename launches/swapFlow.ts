/**
 * The swap build shared by the session surface (`POST /api/evm/evmchain/build-swap`) and the
 * key-authenticated surface (`POST /api/v1/evmchain/swaps/build`); docs/trade.md. Both parse the
 * same body, check the token against the index (only tokens launched by an accepted factory of
 * this deployment trade here), run the one builder (`chain/swap.ts`) and answer the same body;
 * they differ only in how the wallet was proven (Sign-In with Ethereum session, or API key).
 * Nothing is stored: a build is a quote plus calldata, and building again is always safe.
 */
import { eq } from "ponder";
import { formatEther, type Address, type PublicClient } from "viem";
import { z } from "zod";
import * as schema from "../ponder.schema";
import type { Deployment } from "../config/deployment";
import { lower } from "../src/domain/hex";
import { SwapBuildError } from "../chain/errors";
import {
  buildSwapTransaction,
  DEFAULT_SWAP_SLIPPAGE_BPS,
  MAX_BUY_WEI,
  MAX_SWAP_SLIPPAGE_BPS,
  type BuiltSwap,
} from "../chain/swap";
import type { MarketDb } from "../market/db";
import { addressWire, okBody, uintString } from "../src/domain/wire";
import { transactionWire } from "./wire";
import { addressParam } from "../src/domain/wire";
import {
  AmountOutOfRangeError,
  ChainUnavailableError,
  InsufficientBalanceError,
  InvalidLaunchRequestError,
  NoLiquidityError,
  SwapSimulationFailedError,
  SwapTokenNotFoundError,
} from "./errors";

/**
 * Body of a swap build (both surfaces): `wallet` (the proven wallet: it signs, pays and receives),
 * `token` (a launched token), `side` (`buy` pays ETH, `sell` pays the token), `amount_in_wei`
 * (decimal string: wei of ETH for a buy, token base units for a sell, launch tokens having 18
 * decimals), optional `slippage_bps` (integer 0..5000, default 100 = 1 %). Unknown fields -> 400;
 * `to`, `data`, `router`, `pool` and the like -> 400 `forbidden_field` (the app's body parser).
 */
export const swapBuildSchema = z.strictObject({
  wallet: addressParam,
  token: addressParam,
  side: z.enum(["buy", "sell"], { message: 'must be "buy" or "sell"' }),
  amount_in_wei: z
    .string({ message: "must be a decimal string" })
    .regex(/^[0-9]{1,78}$/, "must be a decimal string of wei (no sign, point or exponent)"),
  slippage_bps: z
    .number({ message: "must be an integer" })
    .int("must be an integer")
    .min(0, "must be at least 0 (0 %)")
    .max(MAX_SWAP_SLIPPAGE_BPS, `must be at most ${MAX_SWAP_SLIPPAGE_BPS} (${MAX_SWAP_SLIPPAGE_BPS / 100} %)`)
    .default(DEFAULT_SWAP_SLIPPAGE_BPS),
});

/** The session surface's body: the swap fields plus `csrf_token`. */
export const sessionSwapBuildSchema = swapBuildSchema.extend({ csrf_token: z.string() });

/** A parsed swap body. */
export type SwapBuildBody = z.infer<typeof swapBuildSchema>;

/** The build's answer (OpenAPI; every amount a decimal string). */
export const swapBuildWire = okBody({
  side: z.enum(["buy", "sell"]),
  wallet: addressWire,
  token: addressWire,
  transaction: transactionWire,
  approval: transactionWire
    .nullable()
    .meta({ description: "ERC-20 approve(router, amount_in_wei) to send and mine before `transaction`; null if none" }),
  token_in: addressWire,
  token_out: addressWire,
  pool_fee: z.number().int().meta({ description: "Uniswap V3 fee tier, hundredths of a basis point (10000 = 1 %)" }),
  amount_in_wei: uintString,
  expected_amount_out_wei: uintString,
  minimum_amount_out_wei: uintString,
  slippage_bps: z.number().int(),
  deadline_sec: z.number().int(),
  allowance_wei: uintString.nullable(),
  gas_limit: uintString,
  gas_estimated: z.boolean(),
  quoted_at_block: z.number().int(),
});

/** Catalogue errors of the swap build on both surfaces. */
export const SWAP_BUILD_ERRORS = [
  "invalid_request",
  "invalid_address",
  "forbidden_field",
  "wallet_mismatch",
  "token_not_found",
  "amount_out_of_range",
  "insufficient_balance",
  "no_liquidity",
  "swap_simulation_failed",
  "rate_limited",
  "chain_unavailable",
] as const;

/** What a swap build needs. */
export type SwapFlowDeps = { db: MarketDb; publicClient: PublicClient; deployment: Deployment };

/**
 * The launched token at `address` that trades against this deployment's WETH, or null.
 * @returns `{address, symbol, weth, totalSupply}` (one primary-key lookup in the index)
 */
async function tradableToken(db: MarketDb, deployment: Deployment, address: Address) {
  const rows = await db
    .select({
      address: schema.token.address,
      symbol: schema.token.symbol,
      weth: schema.token.weth,
      totalSupply: schema.token.totalSupply,
    })
    .from(schema.token)
    .where(eq(schema.token.address, lower(address)))
    .limit(1);
  const row = rows[0];
  if (!row || row.weth.toLowerCase() !== deployment.contracts.weth.toLowerCase()) return null;
  return row;
}

/** Whole tokens / ETH without trailing zeros: `formatEther` (both have 18 decimals). */
const units = (wei: bigint) => formatEther(wei);

/**
 * Builds the swap for a proven `wallet` (the caller checked the body's wallet against the session
 * or the API key).
 * @returns the 200 body (see {@link swapBuildWire})
 * @throws SwapTokenNotFoundError, AmountOutOfRangeError, InsufficientBalanceError, NoLiquidityError,
 *   SwapSimulationFailedError, ChainUnavailableError (launches/errors.ts)
 */
export async function buildSwap(deps: SwapFlowDeps, body: SwapBuildBody): Promise<Record<string, unknown>> {
  const token = await tradableToken(deps.db, deps.deployment, body.token);
  if (!token) {
    throw new SwapTokenNotFoundError(`token: ${body.token} is not a token launched through this service`);
  }
  const amountInWei = BigInt(body.amount_in_wei);
  const symbol = token.symbol;
  if (amountInWei === 0n) throw new AmountOutOfRangeError("amount_in_wei: the amount must be more than 0");
  if (body.side === "buy" && amountInWei > MAX_BUY_WEI)
    throw new AmountOutOfRangeError(`amount_in_wei: a buy can pay at most ${units(MAX_BUY_WEI)} ETH`);
  // Every launch token has the same fixed supply (LaunchToken.TOTAL_SUPPLY, 10^9 tokens).
  if (body.side === "sell" && amountInWei > 10n ** 27n)
    throw new AmountOutOfRangeError(`amount_in_wei: a sell can pay at most the supply of 1000000000 ${symbol}`);
  let built: BuiltSwap;
  try {
    built = await buildSwapTransaction(deps.publicClient, deps.deployment, {
      wallet: body.wallet,
      token: body.token,
      side: body.side,
      amountInWei,
      slippageBps: body.slippage_bps,
    });
  } catch (err) {
    throw swapError(err, body.side === "buy" ? "ETH" : symbol);
  }
  return {
    side: built.side,
    wallet: body.wallet,
    token: body.token,
    transaction: built.transaction,
    approval: built.approval,
    token_in: built.tokenIn,
    token_out: built.tokenOut,
    pool_fee: built.poolFee,
    amount_in_wei: built.amountInWei.toString(),
    expected_amount_out_wei: built.expectedAmountOutWei.toString(),
    minimum_amount_out_wei: built.minimumAmountOutWei.toString(),
    slippage_bps: built.slippageBps,
    deadline_sec: Number(built.deadlineSec),
    allowance_wei: built.allowanceWei === null ? null : built.allowanceWei.toString(),
    gas_limit: built.gasLimit.toString(),
    gas_estimated: built.gasEstimated,
    quoted_at_block: Number(built.quotedAtBlock),
  };
}

/** Maps a builder failure to a use-case error, in words (amounts in ETH / whole tokens, never wei). */
function swapError(err: unknown, paid: string): Error {
  if (err instanceof SwapBuildError) {
    switch (err.code) {
      case "insufficient_balance":
        return new InsufficientBalanceError(`your wallet holds less ${paid} than this amount`);
      case "no_liquidity":
        return new NoLiquidityError(
          "the pool gives nothing for this amount (no liquidity at this price, or the amount is too small)",
        );
      case "swap_simulation_failed":
        return new SwapSimulationFailedError(`the swap would fail: ${err.shortMessage}`);
      default:
        return new ChainUnavailableError("the chain could not be reached; try again");
    }
  }
  if (err instanceof RangeError) return new InvalidLaunchRequestError(err.message);
  return err as Error;
}
