/**
 * A browser session for tests, over any fetch-like function (the running service, or an in-process
 * `app.request()`): the session cookie, its CSRF token, the same-origin POST, and Sign-In with
 * Ethereum (EIP-4361) signed by a local account, as the launch page does it.
 */
import type { LocalAccount } from "viem";

/** Fetches `path` (absolute path on the service) and resolves the Response. */
export type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

/** A browser session: cookie header value and CSRF token; `wallet` once signed in. */
export type BrowserSession = { cookie: string; csrf: string; wallet?: string };

/**
 * A parsed answer: `body` is the parsed JSON, or the text when it is not JSON; `json` is the
 * parsed JSON or undefined; `text` and `contentType` as received.
 */
export type Answer = { status: number; headers: Headers; body: any; json: any; text: string; contentType: string };

/** Reads a response: status, headers, text, and the body parsed as JSON when it is JSON. */
export async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: res.status,
    headers: res.headers,
    body: json === undefined ? text : json,
    json,
    text,
    contentType: res.headers.get("content-type") ?? "",
  };
}

/**
 * The session cookie pair (`name=value`) that response headers set, if any: a new session, or
 * the rotated cookie of a sign-in.
 */
export function sessionCookieOf(headers: Headers): string | undefined {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => /^(__Host-)?session=/.test(c));
}

/**
 * Opens a session: `GET /api/evm/evmchain/session`.
 * @returns the cookie and its CSRF token
 */
export async function openSession(fetcher: Fetcher): Promise<BrowserSession> {
  const res = await fetcher("/api/evm/evmchain/session");
  const cookie = sessionCookieOf(res.headers);
  const body = (await res.json()) as { csrf_token: string };
  if (!cookie) throw new Error(`GET /api/evm/evmchain/session set no session cookie (status ${res.status})`);
  return { cookie, csrf: body.csrf_token };
}

/**
 * A same-origin session POST with the CSRF token in the header and the body (`origin` is the
 * service's origin). A rotated session cookie in the answer replaces `session.cookie`.
 */
export async function sessionPost(
  fetcher: Fetcher,
  origin: string,
  session: BrowserSession,
  path: string,
  body: Record<string, unknown>,
): Promise<Answer> {
  const res = await fetcher(`/api/evm/evmchain/${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: origin,
      Cookie: session.cookie,
      "X-CSRF-Token": session.csrf,
    },
    body: JSON.stringify({ ...body, csrf_token: session.csrf }),
  });
  const rotated = sessionCookieOf(res.headers);
  if (rotated) session.cookie = rotated;
  return answer(res);
}

/**
 * Signs `session` in as `account` (challenge, personal_sign, sign-in), like the launch page.
 * @param options.createApiKey - the same signature creates an API key (returned)
 * @returns the sign-in answer (`api_key` when created); `session` now carries the rotated cookie
 * @throws when sign-in does not answer 200
 */
export async function signIn(
  fetcher: Fetcher,
  origin: string,
  session: BrowserSession,
  account: LocalAccount,
  options: { createApiKey?: boolean } = {},
): Promise<Answer> {
  const challenge = await sessionPost(fetcher, origin, session, "sign-in/challenge", {
    wallet: account.address,
    create_api_key: options.createApiKey ?? false,
  });
  if (challenge.status !== 200)
    throw new Error(`sign-in challenge: ${challenge.status} ${JSON.stringify(challenge.body)}`);
  const signature = await account.signMessage({ message: challenge.body.message });
  const signedIn = await sessionPost(fetcher, origin, session, "sign-in", { wallet: account.address, signature });
  if (signedIn.status !== 200) throw new Error(`sign-in: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
  session.wallet = account.address;
  return signedIn;
}

/** A new session signed in as `account`. */
export async function signedInSession(
  fetcher: Fetcher,
  origin: string,
  account: LocalAccount,
): Promise<BrowserSession> {
  const session = await openSession(fetcher);
  await signIn(fetcher, origin, session, account);
  return session;
}
