/**
 * `launchToken`: the whole v1 launch (docs/launch.md): upload (optional) → intent (with a generated
 * `Idempotency-Key`) → the creator's personal_sign of `intent.message` → build → switch chain →
 * send the unsigned transaction unchanged → confirm (polls the 202 answers, honouring
 * `Retry-After`). Resumable after a crash from the `launchId` alone: the service's state says which
 * step comes next, and a built launch whose transaction was already sent is found on chain rather
 * than sent twice.
 */
import type { Address, Hash, WalletClient } from "viem";
import type { LaunchClientBase } from "../clientBase.js";
import { LaunchStateError, LaunchTimeoutError } from "../errors.js";
import type { components } from "../generated/schema.js";
import { serviceChain } from "../internal/chain.js";
import { findLaunchTx } from "../internal/findLaunchTx.js";
import { retryAfterSec, send, sleep } from "../internal/http.js";
import type { Answer } from "../internal/types.js";
import { getLaunch } from "./getLaunch.js";
import { uploadImage } from "./uploadImage.js";

/** The token's descriptive metadata (shown on its page and in every token record). */
export type LaunchMetadata = {
  description?: string;
  /** An image already uploaded (`uploadImage`) or an https URL; `image` uploads one instead. */
  imageUrl?: string;
  websiteUrl?: string;
  twitterUrl?: string;
  telegramUrl?: string;
};

/** A step reached, reported to `onStep` (persist `launchId` / `txHash` to resume after a crash). */
export type LaunchStep =
  | { step: "uploaded"; imageUrl: string }
  | { step: "intent"; launchId: string; idempotencyKey: string }
  | { step: "built"; launchId: string; transaction: components["schemas"]["Transaction"] }
  | { step: "sent"; launchId: string; txHash: Hash }
  | { step: "pending"; launchId: string; txHash: Hash; retryAfterSec: number }
  | { step: "confirmed"; launchId: string; txHash: Hash; tokenAddress: Address };

export type LaunchTokenParameters = {
  /** The creator's wallet (default: the client's): signs the intent and sends the transaction. */
  walletClient?: WalletClient;
  name: string;
  symbol: string;
  /** ETH the creator buys in the launch transaction, wei (default 0). */
  firstBuyWei?: bigint;
  /** Slippage of the first buy, basis points. */
  slippageBps?: number;
  metadata?: LaunchMetadata;
  /** An image to upload first (PNG/JPEG/WebP/GIF, 2 MiB). */
  image?: Blob;
  /** Resume a launch begun earlier: its id (and the transaction hash, when known). */
  resume?: { launchId: string; txHash?: Hash };
  /** Called at each step reached; a throw stops the launch there (it can be resumed). */
  onStep?: (step: LaunchStep) => void | Promise<void>;
  /** How long confirmation (and a pending send found on resume) may take, ms (default 120,000). */
  confirmTimeoutMs?: number;
  signal?: AbortSignal;
};

/** The confirmed launch. */
export type LaunchTokenReturnType = {
  launchId: string;
  tokenAddress: Address;
  txHash: Hash;
  /** The token's page on the service. */
  tokenUrl: string;
  /** The block that mined the launch (its events-feed ids start at `blockNumber × 10^6`). */
  blockNumber: number;
};

type Confirmed = Answer<"postApiV1EvmchainLaunchesConfirm">;

/**
 * Launches a token (API key with the launch scopes; the key's wallet is the creator).
 * @throws LaunchApiError (e.g. `launch_simulation_failed`, `quota_exceeded`, a receipt check's
 *   code at confirm), RateLimitedError past the retries, LaunchStateError (expired, or an intent
 *   never built on resume), LaunchTimeoutError (confirmation took longer than `confirmTimeoutMs`)
 * @example
 * const { tokenAddress, tokenUrl } = await launchToken(client, {
 *   walletClient, name: "My Coin", symbol: "MINE", firstBuyWei: parseEther("0.01"),
 *   metadata: { description: "Mine." },
 * });
 * // after a crash: await launchToken(client, { walletClient, name: "My Coin", symbol: "MINE", resume: { launchId } });
 */
export async function launchToken(
  client: LaunchClientBase,
  params: LaunchTokenParameters,
): Promise<LaunchTokenReturnType> {
  const walletClient = params.walletClient ?? client.walletClient;
  const account = walletClient?.account;
  if (!walletClient || !account) throw new TypeError("launchToken needs a walletClient with an account");
  const { signal } = params;
  const deadlineMs = Date.now() + (params.confirmTimeoutMs ?? 120_000);
  const step = async (s: LaunchStep) => params.onStep?.(s);
  const { chain, publicClient } = await serviceChain({ ...client, walletClient }, signal);

  /** Sends the built transaction unchanged, on the service's chain. */
  const sendBuilt = async (launchId: string, tx: components["schemas"]["Transaction"]): Promise<Hash> => {
    if (account.type !== "local" && (await walletClient.getChainId()) !== chain.id)
      await walletClient.switchChain({ id: chain.id });
    const txHash = await walletClient.sendTransaction({
      account,
      chain,
      to: tx.to as Address,
      data: tx.data as Hash,
      value: BigInt(tx.value),
      gas: tx.gas ? BigInt(tx.gas) : undefined,
    });
    await step({ step: "sent", launchId, txHash });
    return txHash;
  };

  let launchId: string;
  let txHash: Hash;
  if (params.resume) {
    launchId = params.resume.launchId;
    const status = await getLaunch(client, { launchId, signal });
    if (status.state === "confirmed" && status.token_address && status.tx_hash)
      return {
        launchId,
        tokenAddress: status.token_address as Address,
        txHash: status.tx_hash as Hash,
        tokenUrl: status.token_url ?? "",
        blockNumber: status.block_number ?? 0,
      };
    if (status.state === "expired" || status.state === "intent_created")
      throw new LaunchStateError(
        status.state === "expired"
          ? "the launch intent expired before it was built: start a new launch"
          : "the launch was never built: start a new launch (an unbuilt intent expires by itself)",
        status.state,
        launchId,
      );
    const known = params.resume.txHash ?? (status.tx_hash as Hash | null) ?? undefined;
    if (known) txHash = known;
    else {
      if (!status.transaction || !status.predicted_token_address)
        throw new LaunchStateError("the built launch has no transaction to resume from", status.state, launchId);
      const found = await findLaunchTx(publicClient, {
        predictedTokenAddress: status.predicted_token_address as Address,
        creator: status.creator as Address,
        builtAtSec: status.built_at_sec ?? 0,
        deadlineMs,
        signal,
      });
      txHash = found ?? (await sendBuilt(launchId, status.transaction));
    }
  } else {
    let imageUrl = params.metadata?.imageUrl;
    if (params.image) {
      imageUrl = (await uploadImage(client, { image: params.image, signal })).image_url;
      await step({ step: "uploaded", imageUrl });
    }
    // One key for every retry of this intent: a retried request answers the same intent.
    const idempotencyKey = crypto.randomUUID();
    const intent = await send(
      () =>
        client.api.POST("/api/v1/evmchain/launches/intent", {
          params: { header: { "Idempotency-Key": idempotencyKey } },
          body: {
            creator: account.address,
            name: params.name,
            symbol: params.symbol,
            first_buy_wei: params.firstBuyWei?.toString(),
            slippage_bps: params.slippageBps,
            description: params.metadata?.description,
            image_url: imageUrl,
            website_url: params.metadata?.websiteUrl,
            twitter_url: params.metadata?.twitterUrl,
            telegram_url: params.metadata?.telegramUrl,
          },
          signal,
        }),
      { retry: client.retry, signal },
    );
    launchId = intent.data.launch_id;
    await step({ step: "intent", launchId, idempotencyKey });
    const intentSignature = await walletClient.signMessage({ account, message: intent.data.intent.message });
    const built = await send(
      () =>
        client.api.POST("/api/v1/evmchain/launches/build", {
          body: { launch_id: launchId, intent_signature: intentSignature },
          signal,
        }),
      { retry: client.retry, signal },
    );
    await step({ step: "built", launchId, transaction: built.data.transaction });
    txHash = await sendBuilt(launchId, built.data.transaction);
  }

  const confirmed = await confirm(client, launchId, txHash, deadlineMs, step, signal);
  const tokenAddress = confirmed.token_address as Address;
  await step({ step: "confirmed", launchId, txHash, tokenAddress });
  return { launchId, tokenAddress, txHash, tokenUrl: confirmed.token_url, blockNumber: confirmed.block_number };
}

/** Confirms until the service answers 200 (verified, persisted), waiting out each 202's `Retry-After`. */
async function confirm(
  client: LaunchClientBase,
  launchId: string,
  txHash: Hash,
  deadlineMs: number,
  step: (s: LaunchStep) => Promise<void>,
  signal?: AbortSignal,
): Promise<Confirmed> {
  for (;;) {
    const { data, response } = await send(
      () =>
        client.api.POST("/api/v1/evmchain/launches/confirm", {
          body: { launch_id: launchId, tx_hash: txHash },
          signal,
        }),
      { retry: client.retry, signal },
    );
    if (response.status === 200) return data as Confirmed;
    const pending = data as Answer<"postApiV1EvmchainLaunchesConfirm", 202>;
    const waitSec = retryAfterSec(response.headers) ?? pending.retry_after_sec ?? 1;
    await step({ step: "pending", launchId, txHash, retryAfterSec: waitSec });
    if (Date.now() + waitSec * 1000 > deadlineMs)
      throw new LaunchTimeoutError(`launch ${launchId} (${txHash}) is not confirmed yet: resume it later`);
    await sleep(waitSec * 1000, signal);
  }
}
