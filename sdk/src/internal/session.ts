/**
 * A signed-in browser session for the session surface's writes that have no v1 twin (the creator
 * rewards claim): `GET /api/evm/evmchain/session` (cookie + CSRF token), then Sign-In with Ethereum
 * (EIP-4361; docs/trust.md) signed by the wallet. Every session POST is same-origin (`Origin`), sends
 * the CSRF token in `X-CSRF-Token` and the body, and follows the cookie the answers rotate.
 */
import type { WalletClient } from "viem";
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "./http.js";

/** The session's cookie pair (`name=value`) and CSRF token. */
export type Session = { cookie: string; csrfToken: string };

/** The `name=value` of the first cookie an answer sets, if any. */
function setCookieOf(response: Response): string | undefined {
  const first = response.headers.getSetCookie?.()[0] ?? response.headers.get("set-cookie") ?? undefined;
  return first?.split(";")[0];
}

/** The headers of a same-origin session request. */
export function sessionHeaders(client: LaunchClientBase, session: Session): Record<string, string> {
  return { Origin: new URL(client.baseUrl).origin, Cookie: session.cookie, "X-CSRF-Token": session.csrfToken };
}

/** Keeps the cookie an answer rotated. */
export function followCookie(session: Session, response: Response): void {
  const rotated = setCookieOf(response);
  if (rotated) session.cookie = rotated;
}

/**
 * Opens a session and signs it in as the wallet's account (challenge → personal_sign → sign-in).
 * @throws LaunchApiError (e.g. 429 `rate_limited` on new sessions per IP, 401 on a bad signature)
 */
export async function signInSession(
  client: LaunchClientBase,
  walletClient: WalletClient,
  signal?: AbortSignal,
): Promise<Session> {
  const account = walletClient.account;
  if (!account) throw new TypeError("signing in needs a walletClient with an account");
  const opened = await send(() => client.api.GET("/api/evm/evmchain/session", { signal }), {
    retry: client.retry,
    signal,
  });
  const cookie = setCookieOf(opened.response);
  if (!cookie) throw new TypeError("the service set no session cookie");
  const session: Session = { cookie, csrfToken: opened.data.csrf_token };
  const challenge = await send(
    () =>
      client.api.POST("/api/evm/evmchain/sign-in/challenge", {
        body: { wallet: account.address, csrf_token: session.csrfToken },
        headers: sessionHeaders(client, session),
        signal,
      }),
    { retry: false, signal },
  );
  followCookie(session, challenge.response);
  const signature = await walletClient.signMessage({ account, message: challenge.data.message });
  const signedIn = await send(
    () =>
      client.api.POST("/api/evm/evmchain/sign-in", {
        body: { wallet: account.address, signature, csrf_token: session.csrfToken },
        headers: sessionHeaders(client, session),
        signal,
      }),
    { retry: false, signal },
  );
  followCookie(session, signedIn.response);
  return session;
}
