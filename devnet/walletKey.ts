/**
 * Creates an API key on a running service the way a browser wallet does (session surface:
 * session cookie + CSRF token -> challenge -> personal_sign -> key), signing with a local account.
 * `npm run keys -- create` uses it on a running devnet, whose offchain store is a PGlite folder
 * held by the service process (single-process: no second process may open it), with anvil's dev
 * accounts as the signers.
 */
import type { Address, LocalAccount } from "viem";
import { DEV_ACCOUNT_COUNT, devAccount } from "./clients";

/** A key created through the service. */
export type CreatedKey = { apiKey: string; id: string; wallet: Address; scopes: string[] };

/** Thrown when the service refuses a step; `status` and `code` are the HTTP status and error id. */
export class WalletKeyError extends Error {
  override name = "WalletKeyError" as const;
  constructor(
    readonly shortMessage: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(shortMessage);
  }
}

/**
 * The dev account (anvil's default mnemonic, index 0-9) with this address, if any.
 * @param wallet - address, any case
 * @returns the signing account, or `undefined` when it is not a dev account
 * @example devAccountFor("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266")?.address // "0xf39F…2266" (index 0)
 */
export function devAccountFor(wallet: string): LocalAccount | undefined {
  for (let i = 0; i < DEV_ACCOUNT_COUNT; i++) {
    const account = devAccount(i);
    if (account.address.toLowerCase() === wallet.toLowerCase()) return account;
  }
  return undefined;
}

/**
 * Creates an API key for `account` on the service at `serviceUrl` through the session surface
 * (`GET /api/evm/evmchain/session`, `POST …/api-keys/challenge`, `personal_sign`,
 * `POST …/api-keys`). Each request is bounded by `timeoutMs`.
 * @param serviceUrl - base URL, e.g. `http://127.0.0.1:42069`
 * @param account - the signing wallet (a local account)
 * @param label - label stored with the key (default "cli (devnet)")
 * @param timeoutMs - per-request timeout in ms (default 10,000)
 * @returns the secret (shown once), the key id, wallet and scopes
 * @throws {WalletKeyError} when the service answers a step with an error (its status and error id)
 * @throws the fetch error (`TimeoutError`, connection refused) when the service does not answer
 * @example (await createKeyWithWallet("http://127.0.0.1:42069", devAccount(4))).apiKey // "sk_live_…"
 */
export async function createKeyWithWallet(
  serviceUrl: string,
  account: LocalAccount,
  label = "cli (devnet)",
  timeoutMs = 10_000,
): Promise<CreatedKey> {
  const base = serviceUrl.replace(/\/$/, "");
  const session = await fetch(`${base}/api/evm/evmchain/session`, { signal: AbortSignal.timeout(timeoutMs) });
  const sessionBody = (await session.json()) as { csrf_token?: string; error?: string; message?: string };
  if (!session.ok || !sessionBody.csrf_token)
    throw new WalletKeyError(
      `session: ${sessionBody.message ?? session.statusText}`,
      session.status,
      sessionBody.error,
    );
  const cookie = (session.headers.get("set-cookie") ?? "").split(";")[0]!;
  const csrf = sessionBody.csrf_token;
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${base}/api/evm/evmchain${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Cookie: cookie,
        Origin: new URL(base).origin,
        "X-CSRF-Token": csrf,
      },
      body: JSON.stringify({ ...body, csrf_token: csrf }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const json = (await res.json()) as Record<string, unknown> & { error?: string; message?: string };
    if (!res.ok) throw new WalletKeyError(`${path}: ${json.message ?? res.statusText}`, res.status, json.error);
    return json;
  };
  const challenge = (await post("/api-keys/challenge", { wallet: account.address })) as { message: string };
  const signature = await account.signMessage({ message: challenge.message });
  const created = (await post("/api-keys", { wallet: account.address, signature, label })) as {
    api_key: string;
    key: { id: string; wallet: Address; scopes: string[] };
  };
  return { apiKey: created.api_key, id: created.key.id, wallet: created.key.wallet, scopes: created.key.scopes };
}
