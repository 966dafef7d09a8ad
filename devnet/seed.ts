/**
 * Demo activity for a fresh devnet: a few launches, random trades, a fee collection, and an
 * optional background loop of random trades so the chain keeps moving.
 */
import { erc20Abi, parseEther, type Address } from "viem";
import { launchFactoryAbi } from "../abis/LaunchFactory.js";
import { buyToken, collectFees, launchToken, sellToken } from "./actions.js";
import { createDevnetClients, devAccount } from "./clients.js";
import type { DeploymentManifest } from "./manifest.js";
import { createRandom, type Random } from "./random.js";

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
};

function clientsFor(manifest: DeploymentManifest, index: number) {
  return createDevnetClients(manifest.rpcUrl, manifest.chainId, devAccount(index));
}

/**
 * Makes one random trade: a buy of 0.005–0.1 ETH, or (if the trader holds the token, half the
 * time) a sale of 10–60% of the holding.
 * @param manifest The deployment.
 * @param random The random source.
 * @param tokens Tokens to trade (non-empty).
 * @returns Which kind of trade was made.
 * @throws Whatever `buyToken`/`sellToken` throw.
 */
async function randomTrade(manifest: DeploymentManifest, random: Random, tokens: readonly Address[]): Promise<"buy" | "sell"> {
  const traderIndex = random.pick(TRADER_INDEXES);
  const token = random.pick(tokens);
  const { walletClient, publicClient } = clientsFor(manifest, traderIndex);
  const held = await publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [walletClient.account.address],
  });
  if (held > 0n && random.next() < 0.5) {
    const share = BigInt(random.int(10, 60));
    await sellToken(walletClient, publicClient, manifest, token, (held * share) / 100n);
    return "sell";
  }
  const amountInWei = parseEther("0.005") * BigInt(random.int(1, 20));
  await buyToken(walletClient, publicClient, manifest, token, amountInWei);
  return "buy";
}

/**
 * Seeds demo activity: three launches by dev accounts 1–3 (two with a first buy), random buys and
 * sells by dev accounts 4–8, and one fee collection of the first token's positions.
 * Deterministic for a given seed on a fresh deployment.
 * @param manifest The deployment (a devnet with anvil's funded dev accounts).
 * @param opts Random seed and number of trades.
 * @returns The launched tokens and counts of what was done.
 * @throws Whatever the underlying actions throw (reverts, RPC errors).
 * @example
 * const seeded = await seedDemo(manifest);
 * // seeded.tokens.length === 3, seeded.feeCollections === 1
 */
export async function seedDemo(manifest: DeploymentManifest, opts: SeedDemoOptions = {}): Promise<SeedDemoResult> {
  const random = createRandom(opts.seed ?? 4663);
  const tokens: SeededToken[] = [];
  for (const [i, launch] of DEMO_LAUNCHES.entries()) {
    const { walletClient, publicClient } = clientsFor(manifest, CREATOR_INDEXES[i % CREATOR_INDEXES.length]!);
    const { event } = await launchToken(walletClient, publicClient, manifest, launch);
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
  const tokenAddresses = tokens.map((t) => t.token);
  for (let i = 0; i < (opts.trades ?? 12); i++) {
    if ((await randomTrade(manifest, random, tokenAddresses)) === "buy") buys++;
    else sells++;
  }
  const collector = clientsFor(manifest, 0);
  await collectFees(collector.walletClient, collector.publicClient, manifest, tokens[0]!.positionIds);
  return { tokens, buys, sells, feeCollections: 1 };
}

/** Options for `startRandomTrading`. */
export type RandomTradingOptions = {
  /** Milliseconds between trades. */
  intervalMs: number;
  /** Random seed; default 7. */
  seed?: number;
  /** Called when a trade fails (the loop keeps going); default logs a warning. */
  onError?: (error: unknown) => void;
};

/**
 * Keeps making random buys and sells (dev accounts 4–8) of tokens launched by the manifest's
 * factory, one trade every `intervalMs`, until stopped. Tokens are re-read from `TokenLaunched`
 * logs before each trade, so new launches join in.
 * @param manifest The deployment.
 * @param opts Interval (ms), seed, error handler.
 * @returns `stop()`, which resolves after the in-flight trade (if any) finished.
 * @throws {RangeError} When `intervalMs` is not positive.
 */
export function startRandomTrading(manifest: DeploymentManifest, opts: RandomTradingOptions): { stop(): Promise<void> } {
  if (!(opts.intervalMs > 0)) throw new RangeError(`intervalMs must be > 0, got ${opts.intervalMs}`);
  const random = createRandom(opts.seed ?? 7);
  const onError = opts.onError ?? ((error: unknown) => console.warn(`random trade failed: ${(error as Error).message?.split("\n")[0]}`));
  const { publicClient } = clientsFor(manifest, TRADER_INDEXES[0]);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const tick = async () => {
    try {
      const logs = await publicClient.getContractEvents({
        address: manifest.contracts.launchFactory,
        abi: launchFactoryAbi,
        eventName: "TokenLaunched",
        fromBlock: BigInt(manifest.startBlock),
      });
      const tokens = logs.flatMap((l) => (l.args.token ? [l.args.token] : []));
      if (tokens.length > 0 && !stopped) await randomTrade(manifest, random, tokens);
    } catch (error) {
      if (!stopped) onError(error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      inFlight = tick().finally(schedule);
    }, opts.intervalMs);
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
  };
}
