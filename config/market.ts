/**
 * Market thresholds the indexer applies when it derives events. They shape derived rows, so a
 * change needs a re-index (a new `DATABASE_SCHEMA`); defaults are documented in the README.
 *
 * - `BIG_BUY_THRESHOLD_WEI` (default 0.05 ETH): a buy paying at least this much WETH is a big buy.
 * - `GRADUATION_MARKET_CAP_WEI` (default 10 ETH): a token graduates the first time its market cap
 *   after a trade reaches this value.
 */
import { parseEther } from "viem";

/** Thresholds in wei. */
export type MarketThresholds = { bigBuyThresholdWei: bigint; graduationMarketCapWei: bigint };

/** Defaults used when the environment does not set a threshold. */
const DEFAULT_MARKET_THRESHOLDS: MarketThresholds = {
  bigBuyThresholdWei: parseEther("0.05"),
  graduationMarketCapWei: parseEther("10"),
};

/**
 * Reads the thresholds from the environment.
 *
 * @param env - environment variables (default `process.env`)
 * @returns thresholds in wei
 * @throws Error when a variable is set but is not a decimal integer
 */
export function loadMarketThresholds(env: NodeJS.ProcessEnv = process.env): MarketThresholds {
  return {
    bigBuyThresholdWei: readWei(env, "BIG_BUY_THRESHOLD_WEI", DEFAULT_MARKET_THRESHOLDS.bigBuyThresholdWei),
    graduationMarketCapWei: readWei(env, "GRADUATION_MARKET_CAP_WEI", DEFAULT_MARKET_THRESHOLDS.graduationMarketCapWei),
  };
}

function readWei(env: NodeJS.ProcessEnv, name: string, fallback: bigint): bigint {
  const value = env[name];
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value)) throw new Error(`${name} must be a decimal integer in wei, got "${value}"`);
  return BigInt(value);
}
