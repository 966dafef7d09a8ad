/**
 * End to end, signed webhooks (docs/webhooks.md) on the devnet with a real local receiver (a
 * node:http server on 127.0.0.1, admitted by the devnet setting `WEBHOOKS_ALLOW_LOOPBACK_HTTP=1`):
 * every confirmed event on chain arrives, in the events feed's id order, each `webhook-id` once
 * after dedupe, every signature verified with the `standardwebhooks` package, `data` equal to the
 * events feed's record; a receiver that answers 500s at first loses nothing; ping, deliveries,
 * rotation (both secrets sign), another wallet's key (404), the SSRF refusal, delete, and the
 * delivery metrics. Retry timing over hours runs on an injected clock in
 * `webhooks.delivery.test.ts`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { getAddress, parseEther, type Address } from "viem";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buyToken, launchToken, sellToken } from "../../devnet/actions";
import { loadStoreConfig, openStore } from "../../store/index";
import { createApiKey } from "../../store/keys";
import { apiKeys } from "../../store/schema";
import { killService, restartIfKilled } from "../helpers/crash";
import { scaledMs } from "../helpers/deadlines";
import { jsonPost, startStack, until, type Stack } from "../helpers/harness";
import { confirmedFeedEvents } from "../helpers/eventsFeed";

const CONFIRMATIONS = 3;
/**
 * Blocks to mine past an event before a webhook may deliver it: webhooks deliver nothing above the
 * indexer's finalized block (webhooks/feedSource.ts), which Ponder moves to head − 30 once the head is
 * 60 past it, so it trails the head by at most 59 blocks.
 */
const DELIVERY_DEPTH = 60;
const KINDS = ["launch", "trade", "big_buy", "graduation", "fee_claim"];
let stack: Stack;
let server: Server;
let receiverUrl: string;

type Delivery = { headers: Record<string, string>; body: string; json: any; answered: number };
const deliveries: Delivery[] = [];
/** Requests still to answer with 500 before the receiver "recovers". */
let failNext = 0;
/** While set, event requests are left unanswered (the receiver hangs); kept to close later. */
let hold = false;
const held: import("node:http").ServerResponse[] = [];

async function rpc(method: string, params: unknown[]) {
  return stack.publicClient.request({ method: method as never, params: params as never });
}
const mine = (blocks: number) => rpc("anvil_mine", [`0x${blocks.toString(16)}`]);

/** Every confirmed event of the REST events feed, ascending. */
const restEvents = (): Promise<any[]> => confirmedFeedEvents(stack);

const events = () => deliveries.filter((d) => d.json.type !== "ping");

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      if (hold && JSON.parse(body).type !== "ping") {
        deliveries.push({ headers: req.headers as Record<string, string>, body, json: JSON.parse(body), answered: 0 });
        held.push(res);
        return;
      }
      const answered = failNext > 0 && JSON.parse(body).type !== "ping" ? 500 : 204;
      if (answered === 500) failNext--;
      deliveries.push({ headers: req.headers as Record<string, string>, body, json: JSON.parse(body), answered });
      res.writeHead(answered).end(answered === 500 ? "try later" : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  stack = await startStack({
    schema: "e2e_webhooks",
    env: {
      EVENTS_CONFIRMATION_BLOCKS: String(CONFIRMATIONS),
      WEBHOOKS_ALLOW_LOOPBACK_HTTP: "1",
      PUBLIC_RATE_LIMIT_PER_MINUTE: "100000",
      V1_RATE_LIMIT_PER_MINUTE: "100000",
      WEBHOOKS_PER_WALLET: "2",
      // A short attempt deadline, so a crashed delivery's lease (deadline + 20 s) expires sooner.
      WEBHOOK_ATTEMPT_TIMEOUT_MS: "2000",
    },
  });
});

afterAll(async () => {
  if (stack) await restartIfKilled(stack).catch(() => undefined);
  await stack?.stop();
  server?.closeAllConnections();
  server?.close();
});

describe("webhooks on the devnet", () => {
  let id: string;
  let secret: string;
  let token: Address;

  it("creates a subscription (201, whsec_ secret once), refuses a metadata-service URL, bounds subscriptions per wallet, lists it only for the key's wallet, and refuses a key without the webhook scope", async () => {
    const refused = await stack.request(
      "/api/v1/evmchain/webhooks",
      jsonPost({ url: "https://169.254.169.254/latest/meta-data", events: ["trade"] }),
    );
    expect({ status: refused.status, error: refused.body.error }).toEqual({
      status: 400,
      error: "invalid_webhook_url",
    });
    const bad = await stack.request("/api/v1/evmchain/webhooks", jsonPost({ url: receiverUrl, events: ["swap"] }));
    expect({ status: bad.status, error: bad.body.error }).toEqual({ status: 400, error: "invalid_request" });

    const created = await stack.request(
      "/api/v1/evmchain/webhooks",
      jsonPost({ url: receiverUrl, events: KINDS, since_id: 0, description: "e2e receiver" }),
    );
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(created.body.webhook).toMatchObject({
      url: receiverUrl,
      events: KINDS,
      status: "active",
      cursor_event_id: 0,
    });
    id = created.body.webhook.id;
    secret = created.body.secret;
    const got = await stack.request(`/api/v1/evmchain/webhooks/${id}`);
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain(secret);
    const list = await stack.request("/api/v1/evmchain/webhooks");
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toEqual([id]);

    // The per-wallet bound (WEBHOOKS_PER_WALLET=2 here): the third is refused, nothing stored.
    const second = await stack.request("/api/v1/evmchain/webhooks", jsonPost({ url: receiverUrl, events: ["launch"] }));
    expect(second.status).toBe(201);
    const third = await stack.request("/api/v1/evmchain/webhooks", jsonPost({ url: receiverUrl, events: ["launch"] }));
    expect({ status: third.status, error: third.body.error }).toEqual({ status: 409, error: "webhook_limit_reached" });
    await stack.request(`/api/v1/evmchain/webhooks/${second.body.webhook.id}`, { method: "DELETE" });
    expect((await stack.request("/api/v1/evmchain/webhooks")).body.webhooks).toHaveLength(1);

    // Another wallet's key sees nothing of it (PostgreSQL: the store is shared with the service).
    if (stack.serviceEnv.DATABASE_URL) {
      const store = await openStore(loadStoreConfig(stack.serviceEnv));
      const other = await createApiKey(store, { wallet: stack.wallet(3).account.address, createdVia: "cli" });
      await store.close();
      const auth = { headers: { Authorization: `Bearer ${other.secret}` } };
      expect((await stack.request(`/api/v1/evmchain/webhooks/${id}`, auth)).status).toBe(404);
      expect((await stack.request(`/api/v1/evmchain/webhooks/${id}/deliveries`, auth)).status).toBe(404);
      expect((await stack.request(`/api/v1/evmchain/webhooks/${id}`, { ...auth, method: "DELETE" })).body.error).toBe(
        "webhook_not_found",
      );
      expect((await stack.request("/api/v1/evmchain/webhooks", auth)).body.webhooks).toEqual([]);
      // A key issued without the webhook scope (as every key made before webhooks existed): 403.
      const legacy = await openStore(loadStoreConfig(stack.serviceEnv));
      const old = await createApiKey(legacy, { wallet: stack.wallet(0).account.address, createdVia: "cli" });
      await legacy.db
        .update(apiKeys)
        .set({
          scopes: ["evmchain:launch:build", "evmchain:launch:confirm", "evmchain:launch:read", "evmchain:market:read"],
        })
        .where(eq(apiKeys.id, old.key.id));
      await legacy.close();
      const denied = await stack.request("/api/v1/evmchain/webhooks", {
        headers: { Authorization: `Bearer ${old.secret}` },
      });
      expect({ status: denied.status, error: denied.body.error }).toEqual({ status: 403, error: "insufficient_scope" });
    }
  });

  it("a ping arrives signed and is logged", async () => {
    const ping = await stack.request(`/api/v1/evmchain/webhooks/${id}/test`, jsonPost({}));
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ delivered: true, status_code: 204 });
    const got = deliveries.find((d) => d.headers["webhook-id"] === ping.body.message_id)!;
    expect(got.json).toMatchObject({ type: "ping", data: { webhook_id: id } });
    expect(() => new Webhook(secret).verify(got.body, got.headers)).not.toThrow();
  });

  it("delivers every confirmed event on chain, in id order, once after dedupe, signed, with the events feed's record; 500s at first lose nothing", async () => {
    failNext = 2;
    const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
      name: "Hooked",
      symbol: "HOOK",
      firstBuyWei: parseEther("0.01"),
    });
    token = getAddress(launched.event.token);
    for (const [i, wei] of [parseEther("0.002"), parseEther("0.08"), parseEther("0.003")].entries())
      await buyToken(stack.wallet(2 + i), stack.publicClient, stack.manifest, token, wei);
    await sellToken(stack.wallet(2), stack.publicClient, stack.manifest, token, 1_000n * 10n ** 18n);
    await mine(DELIVERY_DEPTH + 1);
    const rest = await until("the events feed confirmed the sell", async () => {
      const all = await restEvents();
      return all.filter((e) => e.kind === "trade").length >= 5 ? all : undefined;
    });
    expect(rest.map((e) => e.kind)).toContain("big_buy");
    // Two 500s cost a retry after 2.5-5 s and one after 5-10 s.
    await until(
      "every event delivered",
      async () =>
        new Set(
          events()
            .filter((d) => d.answered === 204)
            .map((d) => d.headers["webhook-id"]),
        ).size >= rest.length
          ? true
          : undefined,
      scaledMs(60_000),
    );
    const acked = events().filter((d) => d.answered === 204);
    expect(acked.map((d) => Number(d.headers["webhook-id"]))).toEqual(rest.map((e) => e.id));
    expect(acked.map((d) => d.json.data)).toEqual(rest);
    expect(acked.map((d) => d.json.type)).toEqual(rest.map((e) => e.kind));
    for (const d of events()) expect(() => new Webhook(secret).verify(d.body, d.headers)).not.toThrow();
    // The failed attempts were of the first event, repeated before anything after it was sent.
    const sent = events().map((d) => Number(d.headers["webhook-id"]));
    expect(sent.slice(0, 3)).toEqual([rest[0].id, rest[0].id, rest[0].id]);
    expect(sent.slice(2)).toEqual(rest.map((e) => e.id));

    const log = await stack.request(`/api/v1/evmchain/webhooks/${id}/deliveries?limit=2`);
    expect(log.status).toBe(200);
    expect(log.body.deliveries).toHaveLength(2);
    expect(log.body.next_cursor).toMatch(/^\d+$/);
    const all = await stack.request(`/api/v1/evmchain/webhooks/${id}/deliveries?limit=200`);
    expect(all.body.deliveries.filter((d: { outcome: string }) => d.outcome === "failed")).toHaveLength(2);
    expect(all.body.deliveries.at(-2)).toMatchObject({ status_code: 500, response_prefix: "try later", attempt: 1 });
    const sub = await stack.request(`/api/v1/evmchain/webhooks/${id}`);
    expect(sub.body.webhook).toMatchObject({ status: "active", pending_event_id: null, attempts: 0 });
  });

  it("after a secret rotation, the next event verifies with the new secret and with the old one", async () => {
    const rotated = await stack.request(`/api/v1/evmchain/webhooks/${id}/rotate-secret`, jsonPost({}));
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    expect(rotated.body.webhook.previous_secret_expires_at_sec).toBeGreaterThan(Date.now() / 1000 + 23 * 3600);
    const before = events().length;
    await buyToken(stack.wallet(4), stack.publicClient, stack.manifest, token, parseEther("0.001"));
    await mine(DELIVERY_DEPTH + 1);
    await until("the buy delivered", async () => (events().length > before ? true : undefined), scaledMs(30_000));
    const next = events().at(-1)!;
    expect(() => new Webhook(rotated.body.secret).verify(next.body, next.headers)).not.toThrow();
    expect(() => new Webhook(secret).verify(next.body, next.headers)).not.toThrow();
  });

  it("counts deliveries and lag in /metrics", async () => {
    const res = await stack.request("/metrics");
    expect(res.status).toBe(200);
    const text = String(res.body);
    expect(text).toMatch(/launchpad_webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    expect(text).toMatch(/launchpad_webhook_deliveries_total\{outcome="failed"\} 2/);
    expect(text).toMatch(/launchpad_webhook_delivery_lag_seconds_count [1-9]/);
    expect(text).toMatch(/launchpad_webhook_failing_subscriptions 0/);
  });

  it("a kill -9 mid-delivery loses nothing: after the restart the in-flight event is sent again, then the rest, in order", async () => {
    const before = events().length;
    const lastAcked = Number(
      events()
        .filter((d) => d.answered === 204)
        .at(-1)!.headers["webhook-id"],
    );
    hold = true;
    await buyToken(stack.wallet(5), stack.publicClient, stack.manifest, token, parseEther("0.001"));
    await mine(DELIVERY_DEPTH + 1);
    await until(
      "the next event in flight",
      async () => (events().length > before ? true : undefined),
      scaledMs(30_000),
    );
    const inFlight = Number(events().at(-1)!.headers["webhook-id"]);
    await killService(stack);
    // While the service is down the chain moves on.
    await buyToken(stack.wallet(6), stack.publicClient, stack.manifest, token, parseEther("0.001"));
    await mine(DELIVERY_DEPTH + 1);
    hold = false;
    for (const res of held.splice(0)) res.destroy();
    await stack.restart();
    const ackedAfter = () =>
      events()
        .slice(before)
        .filter((d) => d.answered === 204)
        .map((d) => Number(d.headers["webhook-id"]));
    // The feed (depth 3) is re-read until the re-indexed blocks are back and every one of its events
    // after the last acknowledged one was acknowledged.
    let rest: number[] = [];
    await until(
      "every event after the kill acknowledged",
      async () => {
        rest = (await restEvents()).filter((e) => e.id > lastAcked).map((e) => e.id);
        const acked = new Set(ackedAfter());
        return rest.length >= 2 && rest.every((e) => acked.has(e)) ? true : undefined;
      },
      scaledMs(90_000),
    );
    expect(rest[0]).toBe(inFlight);
    expect(ackedAfter()).toEqual(rest);
    // Repeats only of the event that was in flight when the process died.
    const unanswered = new Set(
      events()
        .slice(before)
        .filter((d) => d.answered !== 204)
        .map((d) => Number(d.headers["webhook-id"])),
    );
    expect([...unanswered]).toEqual([inFlight]);
  });

  it("deletes the subscription: 404 afterwards", async () => {
    const gone = await stack.request(`/api/v1/evmchain/webhooks/${id}`, { method: "DELETE" });
    expect(gone.body).toMatchObject({ ok: true, deleted: true });
    expect((await stack.request(`/api/v1/evmchain/webhooks/${id}`)).status).toBe(404);
  });
});
