/**
 * What a wallet does on the launch stack: launch, buy, sell, transfer tokens (fee collection:
 * devnet/feeActions.ts). Used by the demo seed
 * and by end-to-end tests. Every call is simulated first (so reverts surface with their decoded
 * reason), sent with an explicit gas limit, and awaited; a reverted receipt throws.
 */
import {
  erc20Abi,
  getAddress,
  parseEventLogs,
  type Account,
  type Address,
  type Chain,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { launchFactoryAbi } from "../abis/LaunchFactory.js";
import { swapRouterAbi } from "../abis/SwapRouter.js";
import type { DeploymentManifest } from "./manifest.js";
import { abortable, sendContractCall, type SendOptions, type SentTransaction } from "./tx.js";

/** A wallet client with an account (the sender). */
export type SenderClient = WalletClient<Transport, Chain | undefined, Account>;

/** Decoded `TokenLaunched` event arguments. */
export type TokenLaunchedArgs = {
  token: Address;
  creator: Address;
  pool: Address;
  positionIds: readonly bigint[];
  name: string;
  symbol: string;
  totalSupply: bigint;
  liquidityWei: bigint;
  firstBuyWei: bigint;
  firstBuyTokensOut: bigint;
};

/** Thrown when a transaction succeeded but lacks the event it must emit. */
export class MissingEventError extends Error {
  override name = "MissingEventError" as const;
  constructor(readonly shortMessage: string) {
    super(shortMessage);
  }
}

/** Parameters of `launchToken`. */
export type LaunchTokenParams = {
  name: string;
  symbol: string;
  /** ETH (wei) for the creator's first buy, on top of the minimum liquidity; default 0. */
  firstBuyWei?: bigint;
  /** Minimum tokens (base units) the first buy must deliver; default 0. */
  firstBuyAmountOutMinimum?: bigint;
};

async function deadline(publicClient: PublicClient): Promise<bigint> {
  const block = await publicClient.getBlock({ blockTag: "latest" });
  return block.timestamp + 600n;
}

/**
 * Launches a token through the LaunchFactory, sending `minimumPoolLiquidityWei + firstBuyWei`.
 * @param walletClient The creator's wallet.
 * @param publicClient Reads and waits.
 * @param manifest The deployment.
 * @param params Name, symbol, optional first buy (wei) and its minimum output (token base units).
 * @param opts Abort signal and receipt timeout ({@link SendOptions}).
 * @returns Hash, receipt and the decoded `TokenLaunched` event.
 * @throws viem's ContractFunctionExecutionError when the launch would revert (e.g. `InsufficientLiquidityValue`, "Too little received").
 * @throws {TransactionRevertedError} When the mined transaction reverted.
 * @throws {MissingEventError} When the receipt has no `TokenLaunched` log from the factory.
 */
export async function launchToken(
  walletClient: SenderClient,
  publicClient: PublicClient,
  manifest: DeploymentManifest,
  params: LaunchTokenParams,
  opts: SendOptions = {},
): Promise<SentTransaction & { event: TokenLaunchedArgs }> {
  const factory = manifest.contracts.launchFactory;
  const value = BigInt(manifest.launchFactory.minimumPoolLiquidityWei) + (params.firstBuyWei ?? 0n);
  const { request } = await abortable(
    publicClient.simulateContract({
      account: walletClient.account,
      address: factory,
      abi: launchFactoryAbi,
      functionName: "launch",
      args: [params.name, params.symbol, params.firstBuyAmountOutMinimum ?? 0n],
      value,
    }),
    opts.signal,
  );
  const sent = await sendContractCall(walletClient, publicClient, request, opts);
  const [log] = parseEventLogs({ abi: launchFactoryAbi, eventName: "TokenLaunched", logs: sent.receipt.logs }).filter(
    (l) => getAddress(l.address) === getAddress(factory),
  );
  if (!log) throw new MissingEventError(`launch tx ${sent.hash} has no TokenLaunched event`);
  return { ...sent, event: log.args };
}

/**
 * Buys a launched token with ETH through SwapRouter.exactInputSingle (WETH -> token, 1% pool).
 * @param walletClient The buyer (receives the tokens).
 * @param publicClient Reads and waits.
 * @param manifest The deployment.
 * @param token The launched token.
 * @param amountInWei ETH (wei) to spend; the router wraps it.
 * @param amountOutMinimum Minimum tokens (base units) to receive; default 0.
 * @param opts Abort signal and receipt timeout ({@link SendOptions}).
 * @returns Hash and receipt.
 * @throws viem's ContractFunctionExecutionError when the swap would revert.
 * @throws {TransactionRevertedError} When the mined transaction reverted.
 */
export async function buyToken(
  walletClient: SenderClient,
  publicClient: PublicClient,
  manifest: DeploymentManifest,
  token: Address,
  amountInWei: bigint,
  amountOutMinimum = 0n,
  opts: SendOptions = {},
): Promise<SentTransaction> {
  const deadlineSec = await abortable(deadline(publicClient), opts.signal);
  const { request } = await abortable(
    publicClient.simulateContract({
      account: walletClient.account,
      address: manifest.contracts.swapRouter,
      abi: swapRouterAbi,
      functionName: "exactInputSingle",
      args: [buyParams(manifest, token, walletClient.account.address, amountInWei, deadlineSec, amountOutMinimum)],
      value: amountInWei,
    }),
    opts.signal,
  );
  return sendContractCall(walletClient, publicClient, request, opts);
}

/**
 * The SwapRouter `exactInputSingle` parameters of a buy: WETH (wrapped from the sent ETH) -> token
 * through the launch's 1% pool, no price limit.
 * @param deadlineSec - unix seconds after which the router refuses the swap
 */
export function buyParams(
  manifest: DeploymentManifest,
  token: Address,
  recipient: Address,
  amountInWei: bigint,
  deadlineSec: bigint,
  amountOutMinimum = 0n,
) {
  return {
    tokenIn: manifest.contracts.weth,
    tokenOut: token,
    fee: manifest.launchFactory.poolFee,
    recipient,
    deadline: deadlineSec,
    amountIn: amountInWei,
    amountOutMinimum,
    sqrtPriceLimitX96: 0n,
  };
}

/**
 * Sells a launched token for WETH: approves the router for exactly `tokenAmount`, then swaps
 * through SwapRouter.exactInputSingle (token -> WETH, 1% pool). The seller receives WETH.
 * @param walletClient The seller.
 * @param publicClient Reads and waits.
 * @param manifest The deployment.
 * @param token The launched token.
 * @param tokenAmount Tokens (base units) to sell.
 * @param amountOutMinimumWei Minimum WETH (wei) to receive; default 0.
 * @param opts Abort signal and receipt timeout ({@link SendOptions}).
 * @returns Hash and receipt of the swap.
 * @throws viem's ContractFunctionExecutionError when the approval or swap would revert.
 * @throws {TransactionRevertedError} When a mined transaction reverted.
 */
export async function sellToken(
  walletClient: SenderClient,
  publicClient: PublicClient,
  manifest: DeploymentManifest,
  token: Address,
  tokenAmount: bigint,
  amountOutMinimumWei = 0n,
  opts: SendOptions = {},
): Promise<SentTransaction> {
  const approval = await abortable(
    publicClient.simulateContract({
      account: walletClient.account,
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [manifest.contracts.swapRouter, tokenAmount],
    }),
    opts.signal,
  );
  await sendContractCall(walletClient, publicClient, approval.request, opts);
  const deadlineSec = await abortable(deadline(publicClient), opts.signal);
  const { request } = await abortable(
    publicClient.simulateContract({
      account: walletClient.account,
      address: manifest.contracts.swapRouter,
      abi: swapRouterAbi,
      functionName: "exactInputSingle",
      args: [
        {
          tokenIn: token,
          tokenOut: manifest.contracts.weth,
          fee: manifest.launchFactory.poolFee,
          recipient: walletClient.account.address,
          deadline: deadlineSec,
          amountIn: tokenAmount,
          amountOutMinimum: amountOutMinimumWei,
          sqrtPriceLimitX96: 0n,
        },
      ],
    }),
    opts.signal,
  );
  return sendContractCall(walletClient, publicClient, request, opts);
}

/**
 * Sends launched tokens from one wallet to another with the ERC-20 `transfer` (a wallet-to-wallet
 * transfer: no pool involved). A zero amount or the sender itself as recipient are allowed, as in ERC-20.
 * @param walletClient The sender.
 * @param publicClient Reads and waits.
 * @param token The token.
 * @param to The recipient.
 * @param tokenAmount Tokens (base units).
 * @param opts Abort signal and receipt timeout ({@link SendOptions}).
 * @returns Hash and receipt.
 * @throws viem's ContractFunctionExecutionError when the transfer would revert (e.g. balance too low).
 * @throws {TransactionRevertedError} When the mined transaction reverted.
 */
export async function transferToken(
  walletClient: SenderClient,
  publicClient: PublicClient,
  token: Address,
  to: Address,
  tokenAmount: bigint,
  opts: SendOptions = {},
): Promise<SentTransaction> {
  const { request } = await abortable(
    publicClient.simulateContract({
      account: walletClient.account,
      address: token,
      abi: erc20Abi,
      functionName: "transfer",
      args: [to, tokenAmount],
    }),
    opts.signal,
  );
  return sendContractCall(walletClient, publicClient, request, opts);
}
