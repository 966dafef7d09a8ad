/**
 * Demo activity for a fresh devnet: a few launches, random trades, a fee collection, and an
 * optional background loop of random trades so the chain keeps moving.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { erc20Abi, parseEther, type Address } from "viem";
import { launchFactoryAbi } from "../abis/LaunchFactory.js";
import { buyToken, launchToken, sellToken, transferToken } from "./actions.js";
import { collectFees } from "./feeActions.js";
import { createDevnetClients, devAccount } from "./clients.js";
import { tradeEthUsd } from "./ethUsd.js";
import type { DeploymentManifest } from "./manifest.js";
import { createRandom, type Random } from "./random.js";
import { abortable, type SendOptions } from "./tx.js";

/** Dev account indexes that launch tokens in the demo. */
const CREATOR_INDEXES = [1, 2, 3] as const;
/** Dev account indexes that trade in the demo (and in the background loop). */
const TRADER_INDEXES = [4, 5, 6, 7, 8] as const;

const DEMO_LAUNCHES = [
  { name: "Demo Alpha", symbol: "ALPHA", firstBuyWei: parseEther("0.05") },
  { name: "Demo Beta", symbol: "BETA", firstBuyWei: 0n },
  { name: "Demo Gamma", symbol: "GAMMA", firstBuyWei: parseEther("0.2") },
] as const;

/** Options for `seedDemo`. */
export type SeedDemoOptions = {
  /** Seed of the pseudo-random trades; default 4663. */
  seed?: number;
  /** Number of random trades after the launches; default 12. */
  trades?: number;
  /** Stops seeding at once when aborted (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
};

/** A token launched by the seed. */
export type SeededToken = {
  token: Address;
  pool: Address;
  creator: Address;
  name: string;
  symbol: string;
  positionIds: bigint[];
};

/** What `seedDemo` did. */
export type SeedDemoResult = {
  tokens: SeededToken[];
  buys: number;
  sells: number;
  feeCollections: number;
  /** Trades on the ETH/USD reference pool (0 without one). */
  ethUsdTrades: number;
  /** Wallet-to-wallet token transfers (no pool involved). */
  transfers: number;
};

/** Dev account that receives the demo's wallet-to-wallet transfers (never trades). */
const TRANSFER_RECIPIENT_INDEX = 9;

/** Every how many demo trades one ETH/USD reference trade is made (so the USD price moves). */
const ETH_USD_TRADE_EVERY = 3;

/**
 * One random trade on the ETH/USD reference pool (a dev trader sells or buys 0.5–3 ETH), moving
 * ETH/USD by roughly ±1–6 % (the devnet pool holds 100 WETH); nothing without a reference pool.
 * @returns whether a trade was made
 */
async function randomEthUsdTrade(
  manifest: DeploymentManifest,
  random: Random,
  opts: SendOptions = {},
): Promise<boolean> {
  if (!manifest.ethUsdPool || !manifest.contracts.stablecoin) return false;
  const { walletClient, publicClient } = clientsFor(manifest, random.pick(TRADER_INDEXES));
  const amountWei = parseEther("0.5") * BigInt(random.int(1, 6));
  await tradeEthUsd(walletClient, publicClient, manifest, { sellEth: random.next() < 0.5, amountWei }, opts);
  return true;
}

function clientsFor(manifest: DeploymentManifest, index: number) {
  return createDevnetClients(manifest.rpcUrl, manifest.chainId, devAccount(index));
}

/**
 * Makes one random trade: a buy of 0.005–0.1 ETH, or (if the trader holds the token, half the
 * time) a sale of 10–60% of the holding.
 * @param manifest The deployment.
 * @param random The random source.
 * @param tokens Tokens to trade (non-empty).
 * @param opts Abort signal and receipt timeout, passed to every wait.
 * @returns Which kind of trade was made.
 * @throws Whatever `buyToken`/`sellToken` throw; the signal's reason when aborted.
 */
async function randomTrade(
  manifest: DeploymentManifest,
  random: Random,
  tokens: readonly Address[],
  opts: SendOptions = {},
): Promise<"buy" | "sell"> {
  const traderIndex = random.pick(TRADER_INDEXES);
  const token = random.pick(tokens);
  const { walletClient, publicClient } = clientsFor(manifest, traderIndex);
  const held = await abortable(
    publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [walletClient.account.address],
    }),
    opts.signal,
  );
  if (held > 0n && random.next() < 0.5) {
    const share = BigInt(random.int(10, 60));
    await sellToken(walletClient, publicClient, manifest, token, (held * share) / 100n, 0n, opts);
    return "sell";
  }
  const amountInWei = parseEther("0.005") * BigInt(random.int(1, 20));
  await buyToken(walletClient, publicClient, manifest, token, amountInWei, 0n, opts);
  return "buy";
}

/**
 * Seeds demo activity: three launches by dev accounts 1–3 (two with a first buy), random buys and
 * sells by dev accounts 4–8 with a trade on the ETH/USD reference pool after every third of them
 * (when the deployment has one), wallet-to-wallet transfers from each creator holding tokens to dev
 * accounts 9 and 0, and one fee collection of the first token's positions.
 * Deterministic for a given seed on a fresh deployment.
 * @param manifest The deployment (a devnet with anvil's funded dev accounts).
 * @param opts Random seed, number of trades, abort signal.
 * @returns The launched tokens and counts of what was done.
 * @throws Whatever the underlying actions throw (reverts, RPC errors); the signal's reason when aborted.
 * @example
 * const seeded = await seedDemo(manifest);
 * // seeded.tokens.length === 3, seeded.feeCollections === 1
 */
export async function seedDemo(manifest: DeploymentManifest, opts: SeedDemoOptions = {}): Promise<SeedDemoResult> {
  const random = createRandom(opts.seed ?? 4663);
  const tokens: SeededToken[] = [];
  for (const [i, launch] of DEMO_LAUNCHES.entries()) {
    const { walletClient, publicClient } = clientsFor(manifest, CREATOR_INDEXES[i % CREATOR_INDEXES.length]!);
    const { event } = await launchToken(walletClient, publicClient, manifest, launch, { signal: opts.signal });
    tokens.push({
      token: event.token,
      pool: event.pool,
      creator: event.creator,
      name: event.name,
      symbol: event.symbol,
      positionIds: [...event.positionIds],
    });
  }
  let buys = 0;
  let sells = 0;
  let ethUsdTrades = 0;
  const tokenAddresses = tokens.map((t) => t.token);
  for (let i = 0; i < (opts.trades ?? 12); i++) {
    // The reference price moves between token trades, so trades see different ETH/USD.
    if (i % ETH_USD_TRADE_EVERY === 1 && (await randomEthUsdTrade(manifest, random, { signal: opts.signal })))
      ethUsdTrades++;
    if ((await randomTrade(manifest, random, tokenAddresses, { signal: opts.signal })) === "buy") buys++;
    else sells++;
  }
  // Wallet-to-wallet transfers, so holder lists show holders that never traded: every creator
  // that holds tokens (a first buy) sends a third to one dev account and a tenth to another.
  let transfers = 0;
  for (const [i, t] of tokens.entries()) {
    const creator = clientsFor(manifest, CREATOR_INDEXES[i % CREATOR_INDEXES.length]!);
    const held = await abortable(
      creator.publicClient.readContract({
        address: t.token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [creator.walletClient.account.address],
      }),
      opts.signal,
    );
    if (held === 0n) continue;
    for (const [index, share] of [
      [TRANSFER_RECIPIENT_INDEX, 3n],
      [0, 10n],
    ] as const) {
      const to = clientsFor(manifest, index).walletClient.account.address;
      await transferToken(creator.walletClient, creator.publicClient, t.token, to, held / share, {
        signal: opts.signal,
      });
      transfers++;
    }
  }
  const collector = clientsFor(manifest, 0);
  await collectFees(collector.walletClient, collector.publicClient, manifest, tokens[0]!.positionIds, {
    signal: opts.signal,
  });
  return { tokens, buys, sells, feeCollections: 1, ethUsdTrades, transfers };
}

/** Options for `startRandomTrading`. */
export type RandomTradingOptions = {
  /** Milliseconds between trades. */
  intervalMs: number;
  /** Random seed; default 7. */
  seed?: number;
  /** Called when a trade fails (the loop keeps going); default logs a warning. */
  onError?: (error: unknown) => void;
  /** Ends the loop when aborted, like `stop()` (an in-flight trade is abandoned at once). */
  signal?: AbortSignal;
  /** Longest wait for one trade's receipt in ms; default 30,000 (the node may be gone). */
  receiptTimeoutMs?: number;
};

/**
 * Keeps making random buys and sells (dev accounts 4–8) of tokens launched by the manifest's
 * factory, and now and then a trade on the ETH/USD reference pool, one trade every `intervalMs`,
 * until stopped. Tokens are re-read from `TokenLaunched`
 * logs before each trade, so new launches join in.
 *
 * Stopping never waits for the chain: `stop()` (or aborting `opts.signal`) aborts the in-flight
 * trade's waits (estimate, send, receipt) at once, so a node that died first (Ctrl-C reaches
 * anvil too) cannot hold the loop; each receipt wait is also bounded by `receiptTimeoutMs`.
 * @param manifest The deployment.
 * @param opts Interval (ms), seed, error handler, abort signal, receipt timeout (ms).
 * @returns `stop()`, which aborts the loop and resolves once it has returned (promptly: the loop
 *   never awaits anything that ignores the abort); `done`, which resolves when the loop ends.
 * @throws {RangeError} When `intervalMs` is not positive.
 * @example
 * const trading = startRandomTrading(manifest, { intervalMs: 2000 });
 * await trading.stop(); // returns within milliseconds, even with anvil already gone
 */
export function startRandomTrading(
  manifest: DeploymentManifest,
  opts: RandomTradingOptions,
): { stop(): Promise<void>; done: Promise<void> } {
  if (!(opts.intervalMs > 0)) throw new RangeError(`intervalMs must be > 0, got ${opts.intervalMs}`);
  const random = createRandom(opts.seed ?? 7);
  const onError =
    opts.onError ??
    ((error: unknown) => console.warn(`random trade failed: ${(error as Error).message?.split("\n")[0]}`));
  const { publicClient } = clientsFor(manifest, TRADER_INDEXES[0]);
  const controller = new AbortController();
  const signal = opts.signal ? AbortSignal.any([controller.signal, opts.signal]) : controller.signal;
  const sendOptions: SendOptions = { signal, receiptTimeoutMs: opts.receiptTimeoutMs ?? 30_000 };

  const loop = async () => {
    while (!signal.aborted) {
      try {
        await sleep(opts.intervalMs, undefined, { signal });
        const logs = await abortable(
          publicClient.getContractEvents({
            address: manifest.contracts.launchFactory,
            abi: launchFactoryAbi,
            eventName: "TokenLaunched",
            fromBlock: BigInt(manifest.startBlock),
          }),
          signal,
        );
        const tokens = logs.flatMap((l) => (l.args.token ? [l.args.token] : []));
        // One loop turn in ETH_USD_TRADE_EVERY moves the reference pool instead.
        if (random.int(1, ETH_USD_TRADE_EVERY) === 1 && (await randomEthUsdTrade(manifest, random, sendOptions)))
          continue;
        if (tokens.length > 0) await randomTrade(manifest, random, tokens, sendOptions);
      } catch (error) {
        if (!signal.aborted) onError(error);
      }
    }
  };
  const done = loop();

  return {
    done,
    async stop() {
      controller.abort();
      await done;
    },
  };
}
