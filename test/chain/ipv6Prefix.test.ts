/**
 * A non-default `CLIENT_IPV6_PREFIX_BITS` reaches every per-IP budget (issue 29 item 4 and its
 * gap: the key-creation and daily coin counts used the default /64 whatever the setting). With a
 * /48 configured, addresses in different /64s of one /48 are one client for key creation (session
 * surface) and for the coins created per IP per day (v1 intents and coin drafts); another /48 is
 * another client. The real app (`createApp`, `app.request()` with a socket address per simulated
 * client), a real store (PGlite in a temporary folder) and a real anvil (sign-in signatures are
 * verified through it); the app's clock is injected.
 */
import type { LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { appFixture, type AppFixtureOverrides, type TestApp } from "../helpers/appFixture";
import { routeTestHandles } from "../helpers/routeTestHandles";
import { devAccount } from "../../devnet/clients";
import { createApiKey } from "../../store/keys";
import { answer, openSession, sessionPost, type Answer, type BrowserSession, type Fetcher } from "../helpers/session";

const BASE = "http://localhost:42069";
/** anvil on the saved devnet, an empty market database and a PGlite store, per file. */
const h = routeTestHandles({ storePrefix: "ipv6-prefix-" });
const ORIGIN = new URL(BASE).origin;
const HOUR_MS = 3_600_000;
/** The configured grouping under test: a /48, not the default /64. */
const PREFIX_BITS = 48;

/** The app's clock: 10 minutes past the next full hour, so each test's hourly window stays one window. */
const appNowMs = (() => {
  const start = Date.now() - (Date.now() % HOUR_MS) + HOUR_MS + 10 * 60_000;
  const offset = start - Date.now();
  return () => Date.now() + offset;
})();

function makeApp(limits: AppFixtureOverrides["limits"]) {
  return appFixture(h.app(BASE), {
    nowMs: appNowMs,
    ipv6PrefixBits: PREFIX_BITS,
    limits: { sessionRequestsPerMinute: 10_000, ...limits },
  });
}

/** `app.request()` from the socket address `ip`. */
function fetcherFor(app: TestApp, ip: string): Fetcher {
  return async (path, init) => app.request(`${BASE}${path}`, init, { incoming: { socket: { remoteAddress: ip } } });
}

/** An address in /64 number `subnet` of the /48 `site` (documentation prefix 2001:db8::/32). */
const addressIn = (site: number, subnet: number) => `2001:db8:${site.toString(16)}:${subnet.toString(16)}::1`;

const freshAccount = (): LocalAccount => privateKeyToAccount(generatePrivateKey());

/** Signs `session` in as a fresh wallet with `create_api_key: true`; the refusing or the sign-in answer. */
async function signInWithKey(fetch: Fetcher, session: BrowserSession): Promise<Answer> {
  const account = freshAccount();
  const challenge = await sessionPost(fetch, ORIGIN, session, "sign-in/challenge", {
    wallet: account.address,
    create_api_key: true,
  });
  if (challenge.status !== 200) return challenge;
  const signature = await account.signMessage({ message: challenge.body.message });
  return sessionPost(fetch, ORIGIN, session, "sign-in", { wallet: account.address, signature });
}

describe("CLIENT_IPV6_PREFIX_BITS reaches the key-creation and coin budgets", () => {
  it("with a /48 configured, key creation from different /64s of one /48 counts as one client (429 rate_limited at the per-IP bound); another /48 is served", async () => {
    const perIp = 2;
    const app = makeApp({ keysPerIpPerHour: perIp });
    const answers: Answer[] = [];
    // One session per /64 (each under the per-session bound): three /64s of the /48 number 1.
    for (let subnet = 1; subnet <= 3; subnet++) {
      const fetch = fetcherFor(app, addressIn(1, subnet));
      answers.push(await signInWithKey(fetch, await openSession(fetch)));
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[2]!.body).toMatchObject({ ok: false, error: "rate_limited" });
    const other = fetcherFor(app, addressIn(2, 1));
    const served = await signInWithKey(other, await openSession(other));
    expect(served.status).toBe(200);
    expect(served.body.api_key).toMatch(/^sk_live_/);
  });

  it("with a /48 configured, coins created from different /64s of one /48 count against one daily per-IP quota (429 quota_exceeded); another /48 is served", async () => {
    const perIp = 2;
    const app = makeApp({ coinsCreatedPerIpPerDay: perIp });
    const intent = {
      creator: devAccount(1).address,
      name: "Prefix Coin",
      symbol: "PRFX",
      first_buy_wei: "1000000000000000",
    };
    const post = async (ip: string, path: string, idem: string) => {
      const key = (await createApiKey(h.store, { wallet: freshAccount().address, createdVia: "cli" })).secret;
      return fetcherFor(app, ip)(path, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": idem },
        body: JSON.stringify(intent),
      }).then(answer);
    };
    const answers = [
      await post(addressIn(3, 1), "/api/v1/evmchain/launches/intent", "prefix-1"),
      await post(addressIn(3, 2), "/api/v1/coins/create-draft", "prefix-2"),
      await post(addressIn(3, 3), "/api/v1/evmchain/launches/intent", "prefix-3"),
    ];
    expect(answers.map((a) => a.status)).toEqual([201, 201, 429]);
    expect(answers[2]!.body).toMatchObject({ ok: false, error: "quota_exceeded" });
    expect((await post(addressIn(4, 1), "/api/v1/evmchain/launches/intent", "prefix-4")).status).toBe(201);
  });
});
