/**
 * End to end through the real service (Ponder + the Hono API, offchain store on PGlite in a
 * temporary folder, anvil): a browser gets a session and CSRF token, the wallet signs the key
 * challenge with a real `personal_sign` (anvil's unlocked dev account, over JSON-RPC), the service
 * returns an API key once, and that key reads the v1 market data of a token launched on the devnet.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWalletClient, getAddress, http, parseEther } from "viem";
import { launchToken } from "../../devnet/actions";
import { devAccount } from "../../devnet/clients";
import { startStack, until, type Stack } from "../helpers/harness";
import { sessionCookieOf } from "../helpers/session";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ schema: "e2e_trust", database: "pglite" });
});

afterAll(async () => {
  await stack?.stop();
});

describe("trust layer through the real service", () => {
  it("creates a key from a wallet signature and reads v1 market data with it", async () => {
    const origin = stack.service.url;
    const session = await stack.request("/api/evm/evmchain/session");
    expect(session.status).toBe(200);
    const setCookie = session.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    let cookie = setCookie.split(";")[0]!;
    const csrf = session.body.csrf_token as string;
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await stack.request(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: origin, Cookie: cookie, "X-CSRF-Token": csrf },
        body: JSON.stringify({ ...body, csrf_token: csrf }),
      });
      // Signing in rotates the session cookie.
      cookie = sessionCookieOf(res.headers) ?? cookie;
      return res;
    };

    const wallet = devAccount(4).address;
    const challenge = await post("/api/evm/evmchain/api-keys/challenge", { wallet });
    expect(challenge.status).toBe(200);
    expect(challenge.body.message).toContain(wallet);
    expect(challenge.body.message).toContain("Chain ID: 4663");

    // personal_sign by anvil itself (JSON-RPC account), as a browser wallet would.
    const rpcWallet = createWalletClient({ account: wallet, transport: http(stack.anvil.rpcUrl) });
    const signature = await rpcWallet.signMessage({ account: wallet, message: challenge.body.message });
    const created = await post("/api/evm/evmchain/api-keys", { wallet, signature });
    expect(created.status).toBe(201);
    // The same signature signed the session in as that wallet.
    expect((await stack.request("/api/evm/evmchain/session", { headers: { Cookie: cookie } })).body.wallet).toBe(
      wallet,
    );
    const apiKey = created.body.api_key as string;
    expect(apiKey).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);
    expect(created.body.key.scopes).toEqual([
      "evmchain:launch:build",
      "evmchain:launch:confirm",
      "evmchain:launch:read",
      "evmchain:market:read",
      "evmchain:webhooks:manage",
    ]);

    // The same signature again: the challenge is consumed.
    const replay = await post("/api/evm/evmchain/api-keys", { wallet, signature });
    expect({ status: replay.status, error: replay.body.error }).toEqual({ status: 400, error: "challenge_not_found" });

    const launched = await launchToken(stack.wallet(4), stack.publicClient, stack.manifest, {
      name: "Trust Test",
      symbol: "TRST",
      firstBuyWei: parseEther("0.01"),
    });
    const token = getAddress(launched.event.token);
    const read = await until("token indexed", async () => {
      const res = await stack.request(`/api/v1/evmchain/tokens/${token}`, {
        headers: { Authorization: `Bearer ${apiKey}` },
      });
      return res.status === 200 ? res : undefined;
    });
    expect(read.body.token).toMatchObject({ address: token, name: "Trust Test", symbol: "TRST", creator: wallet });
    expect(read.headers.get("ratelimit")).toMatch(/^limit=\d+, remaining=\d+, reset=\d+$/);
    expect(read.headers.get("ratelimit-policy")).toMatch(/^\d+;w=60$/);
    expect(read.headers.get("x-request-id")).toBeTruthy();

    const anonymous = await stack.request(`/api/v1/evmchain/tokens/${token}`, { headers: { Authorization: "" } });
    expect({ status: anonymous.status, error: anonymous.body.error }).toEqual({
      status: 401,
      error: "missing_api_key",
    });

    // Health is 200 once the indexer has caught up with the chain (READY_MAX_LAG_BLOCKS): the
    // launch's block may still be on its way, so wait for it rather than race it.
    const health = await until("health ok (caught up)", async () => {
      const res = await stack.request("/api/v1/health");
      return res.status === 200 ? res : undefined;
    });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      ok: true,
      status: "ok",
      store: { ok: true, kind: "pglite" },
      rpc: { ok: true, chain_id: 4663 },
      indexer: { ok: true },
    });
    expect(health.body.indexer.block_number).toBeGreaterThan(0);

    const descriptor = await stack.request("/api/v1");
    expect(descriptor.body).toMatchObject({
      ok: true,
      version: "v1",
      base_url: `http://localhost:${new URL(origin).port}/api/v1`,
    });
  });
});
