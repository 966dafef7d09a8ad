/** The state every action takes (built by `createLaunchClient`, client.ts). */
import type { Client } from "openapi-fetch";
import type { PublicClient, WalletClient } from "viem";
import type { paths } from "./generated/schema.js";
import type { RetryPolicy } from "./internal/http.js";

/** The client's state, as every action takes it. */
export type LaunchClientBase = {
  baseUrl: string;
  apiKey: string | undefined;
  publicClient: PublicClient | undefined;
  walletClient: WalletClient | undefined;
  retry: RetryPolicy;
  fetch: typeof globalThis.fetch;
  /** The typed openapi-fetch client of every path of the served document. */
  api: Client<paths>;
};
