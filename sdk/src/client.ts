/**
 * `createLaunchClient`: the service's base URL and API key, the viem clients the write actions use,
 * and the typed openapi-fetch client of every path (`client.api`), with each action of this package
 * bound as a method (viem's decorator style: `client.getToken(...)` is `getToken(client, ...)`).
 */
import createClient from "openapi-fetch";
import type { PublicClient, WalletClient } from "viem";
import { buildClaim } from "./actions/buildClaim.js";
import { buildSwap } from "./actions/buildSwap.js";
import { getCandles } from "./actions/getCandles.js";
import { getCreatorRewards } from "./actions/getCreatorRewards.js";
import { getHolders } from "./actions/getHolders.js";
import { getLaunch } from "./actions/getLaunch.js";
import { getToken } from "./actions/getToken.js";
import { getTrades } from "./actions/getTrades.js";
import { launchToken } from "./actions/launchToken.js";
import { search } from "./actions/search.js";
import { getTopTokens, getTrending } from "./actions/getTopTokens.js";
import { uploadImage } from "./actions/uploadImage.js";
import { watchEvents } from "./actions/watchEvents.js";
import { watchTrades } from "./actions/watchTrades.js";
import type { paths } from "./generated/schema.js";
import type { LaunchClientBase } from "./clientBase.js";
import { DEFAULT_RETRY, type RetryPolicy } from "./internal/http.js";

/** What {@link createLaunchClient} takes. */
export type LaunchClientConfig = {
  /** The service's origin, e.g. `http://127.0.0.1:42069` (no trailing path). */
  baseUrl: string;
  /** An API key (`sk_live_…`), sent as `Authorization: Bearer` on `/api/v1/…` only. */
  apiKey?: string;
  /** Reads the chain (launch resume, receipts); default: one built from the service's published RPC. */
  publicClient?: PublicClient;
  /** The creator's / trader's wallet: signs the intent and sends transactions. */
  walletClient?: WalletClient;
  /** Retry of 429/5xx answers honouring `Retry-After` (default 4 attempts, waits up to 30 s). */
  retry?: Partial<RetryPolicy>;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof globalThis.fetch;
};

type Bound<F> = F extends (client: LaunchClientBase, ...rest: infer A) => infer R ? (...args: A) => R : never;

/** A launch client: its state plus every action bound to it. */
export type LaunchClient = LaunchClientBase & {
  launchToken: Bound<typeof launchToken>;
  getLaunch: Bound<typeof getLaunch>;
  uploadImage: Bound<typeof uploadImage>;
  getToken: Bound<typeof getToken>;
  getTrades: Bound<typeof getTrades>;
  getCandles: Bound<typeof getCandles>;
  search: Bound<typeof search>;
  getTopTokens: Bound<typeof getTopTokens>;
  getTrending: Bound<typeof getTrending>;
  getHolders: Bound<typeof getHolders>;
  getCreatorRewards: Bound<typeof getCreatorRewards>;
  buildSwap: Bound<typeof buildSwap>;
  buildClaim: Bound<typeof buildClaim>;
  watchTrades: Bound<typeof watchTrades>;
  watchEvents: Bound<typeof watchEvents>;
};

/**
 * Creates a client of one service.
 * @example
 * import { createLaunchClient } from "@evmchain/launch-sdk";
 * const client = createLaunchClient({ baseUrl: "http://127.0.0.1:42069", apiKey: process.env.KEY, walletClient });
 * const token = await client.getToken({ address: "0x…" });
 */
export function createLaunchClient(config: LaunchClientConfig): LaunchClient {
  const baseUrl = config.baseUrl.replace(/\/+$/, "");
  const fetchImpl = config.fetch ?? globalThis.fetch.bind(globalThis);
  const api = createClient<paths>({ baseUrl, fetch: fetchImpl });
  const apiKey = config.apiKey;
  if (apiKey) {
    api.use({
      onRequest({ request }) {
        // The key is for the v1 surface only: public and session routes never see it.
        if (new URL(request.url).pathname.startsWith("/api/v1/"))
          request.headers.set("Authorization", `Bearer ${apiKey}`);
        return request;
      },
    });
  }
  const base: LaunchClientBase = {
    baseUrl,
    apiKey,
    publicClient: config.publicClient,
    walletClient: config.walletClient,
    retry: { ...DEFAULT_RETRY, ...config.retry },
    fetch: fetchImpl,
    api,
  };
  const bind =
    <A extends unknown[], R>(action: (client: LaunchClientBase, ...args: A) => R) =>
    (...args: A) =>
      action(base, ...args);
  return {
    ...base,
    launchToken: bind(launchToken),
    getLaunch: bind(getLaunch),
    uploadImage: bind(uploadImage),
    getToken: bind(getToken),
    getTrades: bind(getTrades),
    getCandles: bind(getCandles),
    search: bind(search),
    getTopTokens: bind(getTopTokens),
    getTrending: bind(getTrending),
    getHolders: bind(getHolders),
    getCreatorRewards: bind(getCreatorRewards),
    buildSwap: bind(buildSwap),
    buildClaim: bind(buildClaim),
    watchTrades: bind(watchTrades),
    watchEvents: bind(watchEvents),
  };
}
