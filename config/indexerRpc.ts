/**
 * The indexer's RPC URLs and its provider budget, for `ponder.config.ts`.
 *
 * Ponder 0.17 limits each RPC URL adaptively: 20 requests/s at first, +5 % per second of full use,
 * -5 % per 429. A paid provider's limit is known (hundreds to thousands of requests/s), so the
 * operator sets it: `INDEXER_RPC_MAX_RPS` (the provider's rate limit per URL) and optionally
 * `INDEXER_RPC_START_RPS` (default: the max). The patched limiter (patches/ponder+0.17.7.patch,
 * `PONDER_RPC_MAX_RPS` / `PONDER_RPC_START_RPS`) then starts each URL at its start rate, never
 * grows past its max and still backs off on 429. Unset, Ponder's defaults stay (safe for public
 * RPCs). docs/operations.md "Provider budget".
 */
import { ConfigError, type Env } from "./env";

/** The RPC URLs the indexer uses: `INDEXER_RPC_URLS` (comma-separated), else `fallback` (`RPC_URL` or the devnet's). */
export function indexerRpcUrls(env: Pick<Env, "INDEXER_RPC_URLS">, fallback: string): string[] {
  const urls = (env.INDEXER_RPC_URLS ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean);
  return urls.length > 0 ? urls : [fallback];
}

/**
 * The indexer's own provider URLs, which like `RPC_URL` may carry a key and must never appear in a
 * response or a log line (config/redact.ts): every `INDEXER_RPC_URLS` entry and `INDEXER_WS_URL`.
 * @param env - validated settings
 * @returns the URLs as configured (trimmed), none when both settings are unset
 * @example privateIndexerUrls({ INDEXER_RPC_URLS: "https://a/k1", INDEXER_WS_URL: "wss://a/k1" }) // ["https://a/k1", "wss://a/k1"]
 */
export function privateIndexerUrls(env: Pick<Env, "INDEXER_RPC_URLS" | "INDEXER_WS_URL">): string[] {
  return [...indexerRpcUrls(env, ""), ...(env.INDEXER_WS_URL ? [env.INDEXER_WS_URL] : [])].filter(Boolean);
}

/** Parsed requests/s per URL of one setting (validated by config/env.ts), `undefined` when unset. */
function perUrl(name: string, value: string | undefined, urlCount: number, problems: string[]): number[] | undefined {
  if (value === undefined) return undefined;
  const rates = value.split(",").map((n) => Number(n.trim()));
  if (rates.length === 1) return Array.from({ length: urlCount }, () => rates[0]!);
  if (rates.length !== urlCount)
    problems.push(`${name}: lists ${rates.length} rates for ${urlCount} RPC URL(s); give one, or one per URL`);
  return rates;
}

/**
 * The budget as the patched Ponder reads it: environment variables to set before Ponder builds its
 * RPC clients (it reads them in `createRpc`, after the config file ran).
 *
 * @param env - validated settings (`INDEXER_RPC_MAX_RPS`, `INDEXER_RPC_START_RPS`: requests/s)
 * @param urlCount - how many RPC URLs the indexer has ({@link indexerRpcUrls})
 * @returns `{ PONDER_RPC_MAX_RPS, PONDER_RPC_START_RPS }`, one comma-separated rate per URL, each
 *   absent when its setting is unset, e.g. `{ PONDER_RPC_MAX_RPS: "200,200" }`
 * @throws ConfigError when a list's length is neither 1 nor the URL count, or a start rate exceeds
 *   its URL's max
 * @example rpcBudgetEnv({ INDEXER_RPC_MAX_RPS: "300" }, 2) // { PONDER_RPC_MAX_RPS: "300,300" }
 */
export function rpcBudgetEnv(
  env: Pick<Env, "INDEXER_RPC_MAX_RPS" | "INDEXER_RPC_START_RPS">,
  urlCount: number,
): { PONDER_RPC_MAX_RPS?: string; PONDER_RPC_START_RPS?: string } {
  const problems: string[] = [];
  const max = perUrl("INDEXER_RPC_MAX_RPS", env.INDEXER_RPC_MAX_RPS, urlCount, problems);
  const start = perUrl("INDEXER_RPC_START_RPS", env.INDEXER_RPC_START_RPS, urlCount, problems);
  if (problems.length === 0 && max && start?.some((rate, i) => rate > max[i]!))
    problems.push(`INDEXER_RPC_START_RPS: must not exceed INDEXER_RPC_MAX_RPS (${start.join(",")} > ${max.join(",")})`);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...(max ? { PONDER_RPC_MAX_RPS: max.join(",") } : {}),
    ...(start ? { PONDER_RPC_START_RPS: start.join(",") } : {}),
  };
}
