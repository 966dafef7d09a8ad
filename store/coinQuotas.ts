/**
 * Daily coin quotas (docs/trust.md "Limits"; spec: default_coins_per_day,
 * default_finalized_coins_per_day): per wallet over all its API keys, and per client IP over all
 * its wallets, counted in the store's `counters` so that the count commits with the launch it
 * counts.
 */
import { getAddress } from "viem";
import { LIMITS } from "../config/limits";
import { incrementCounterBelow } from "./counters";
import { QuotaExceededError } from "./errors";
import type { Store } from "./index";

const DAY_MS = 86_400_000;

/** A daily per-wallet counter kind. */
export type CoinQuotaKind = "coins_created" | "coins_finalized";

/**
 * The `counters` bucket of a wallet's daily coin quota: `quota:<kind>:wallet:<checksummed
 * wallet>`. Every key of the wallet counts into the same bucket.
 * @example coinQuotaBucket("coins_created", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266") // "quota:coins_created:wallet:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
 */
export function coinQuotaBucket(kind: CoinQuotaKind, wallet: string): string {
  return `quota:${kind}:wallet:${getAddress(wallet)}`;
}

/**
 * The `counters` bucket of a client IP's daily coin quota: `quota:<kind>:ip:<address>`. Every
 * wallet and key the client uses counts into the same bucket.
 * @example coinQuotaIpBucket("coins_created", "203.0.113.7") // "quota:coins_created:ip:203.0.113.7"
 */
export function coinQuotaIpBucket(kind: CoinQuotaKind, ip: string): string {
  return `quota:${kind}:ip:${ip}`;
}

/**
 * Counts one coin against the daily quota (UTC day) of the key's wallet — one bucket per wallet,
 * shared by all its keys, so creating more keys buys no more coins — and, given `client`, against
 * the daily quota of the client IP, shared by every wallet it uses, so minting throw-away wallets
 * buys no more coins either (docs/trust.md "Limits"). Atomic and without overshoot.
 * Call it once per coin created (intent / create-draft) or finalized (confirm / finalize), before
 * persisting; an idempotent replay must not call it again. Given a transaction's store (see
 * `inTransaction`), the counts commit or roll back with the rest of that transaction (confirm
 * counts this way, so a crash never leaves a finalized coin counted without its launch; a refusal
 * by the IP quota rolls back the wallet's count too).
 *
 * @param wallet - the API key's wallet (`key.wallet`), any case
 * @param options.limit - per wallet; default {@link LIMITS} (500 per day for either kind)
 * @param options.client - the client IP (`clientIp`) and its daily limit (default {@link LIMITS}:
 *   `coinsCreatedPerIpPerDay` / `coinsFinalizedPerIpPerDay`); absent: no per-IP count
 * @param options.nowMs - the app's clock, unix milliseconds (`AppDeps.nowMs`)
 * @returns the wallet's count today (including this one), its limit and when the day ends (unix ms)
 * @throws QuotaExceededError whose `retryAfterSec` (seconds to the next UTC midnight) the HTTP
 *   layer sends as `Retry-After` (429 `quota_exceeded`)
 * @example await consumeCoinQuota(tx, key.wallet, "coins_finalized", { nowMs: Date.now(), client: { ip: "203.0.113.7" } })
 */
export async function consumeCoinQuota(
  store: Store,
  wallet: string,
  kind: CoinQuotaKind,
  options: { limit?: number; nowMs: number; client?: { ip: string; limit?: number } },
): Promise<{ used: number; limit: number; resetAtMs: number }> {
  const limit = options.limit ?? (kind === "coins_created" ? LIMITS.coinsCreatedPerDay : LIMITS.coinsFinalizedPerDay);
  const { nowMs } = options;
  const resetAtMs = nowMs - (nowMs % DAY_MS) + DAY_MS;
  const refuse = (what: "wallet" | "client", bound: number) =>
    new QuotaExceededError(
      what === "wallet"
        ? `daily quota of ${bound} ${kind.replace("_", " ")} per wallet reached, over all its API keys (resets at 00:00 UTC)`
        : `daily quota of ${bound} ${kind.replace("_", " ")} per client reached, over all its wallets and API keys (resets at 00:00 UTC)`,
      {
        quota: `quota_${kind}${what === "wallet" ? "" : "_ip"}`,
        retryAfterSec: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)),
      },
    );
  const result = await incrementCounterBelow(store, coinQuotaBucket(kind, wallet), DAY_MS, limit, nowMs);
  if (!result) throw refuse("wallet", limit);
  if (options.client) {
    const ipLimit =
      options.client.limit ??
      (kind === "coins_created" ? LIMITS.coinsCreatedPerIpPerDay : LIMITS.coinsFinalizedPerIpPerDay);
    if (!(await incrementCounterBelow(store, coinQuotaIpBucket(kind, options.client.ip), DAY_MS, ipLimit, nowMs)))
      throw refuse("client", ipLimit);
  }
  return { used: result.hits, limit, resetAtMs: result.resetAtMs };
}
