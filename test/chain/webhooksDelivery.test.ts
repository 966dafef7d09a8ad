/**
 * The webhook delivery worker (webhooks/worker.ts) against the real offchain store (PGlite, and
 * PostgreSQL for the two-replica case when the test server answers) and a real HTTP receiver on
 * 127.0.0.1. The scheduling clock is injected, so a 24-hour retry window passes in milliseconds;
 * the events come from a fixed list standing for the indexer's feed (the e2e test
 * `e2e.webhooks.test.ts` runs the real feed on the devnet).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../store/index";
import {
  createSubscription,
  getSubscriptionForWallet,
  listDeliveries,
  resumeSubscriptionForWallet,
} from "../../store/webhooks";
import { webhookSubscriptions } from "../../store/schema";
import { RETRY_WINDOW_MS } from "../../webhooks/backoff";
import { newSigningSecret } from "../../webhooks/signing";
import type { EventFeed, FeedEvent, FeedQuery } from "../../webhooks/feed";
import { deliveryWorker } from "../../webhooks/worker";
import { scaledMs } from "../helpers/deadlines";
import { dropSchema, postgresAvailable, TEST_DATABASE_URL, uniqueSchemaName } from "../helpers/postgres";

const WALLET = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const TOKEN_A = "0x00000000000000000000000000000000000000aA";
const TOKEN_B = "0x00000000000000000000000000000000000000bB";
const policy = { allowLoopbackHttp: true };

/** A feed of fixed events; `confirmed` is the confirmed boundary (every id <= it is final). */
function fixedFeed(events: FeedEvent[]) {
  const state = { confirmed: 0n };
  const matching = ({ afterId, uptoId, kinds, token }: FeedQuery) =>
    events.filter(
      (e) =>
        e.id > afterId &&
        e.id <= uptoId &&
        kinds.includes(e.kind) &&
        (token === null || e.token.toLowerCase() === token.toLowerCase()),
    );
  const feed: EventFeed = {
    confirmedCursor: async () => state.confirmed,
    nextEvent: async (q) => matching(q)[0] ?? null,
    // The round's shared window (webhooks/window.ts) reads ranges.
    eventsAfter: async (q) => matching(q).slice(0, q.limit),
    eventById: async (id) => events.find((e) => e.id === id) ?? null,
  };
  return { feed, state };
}

function event(id: number, kind = "trade", token = TOKEN_A): FeedEvent {
  const record = { id, kind, token, block_number: Math.floor(id / 1_000_000), confirmed: true, payload: { n: id } };
  return { id: BigInt(id), kind, token, timestampSec: 1_700_000_000, record };
}

type Received = { id: string; type: string; data: { id: number }; signatureOk: boolean };

/** A receiver on 127.0.0.1 whose answer a test sets (`behave`); records what it received. */
async function receiver() {
  const received: Received[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const state = {
    secret: "",
    behave: (_req: IncomingMessage, res: ServerResponse) => void res.writeHead(204).end(),
  };
  const server: Server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let signatureOk = true;
      try {
        new Webhook(state.secret).verify(body, req.headers as Record<string, string>);
      } catch {
        signatureOk = false;
      }
      const parsed = JSON.parse(body);
      received.push({ id: String(req.headers["webhook-id"]), type: parsed.type, data: parsed.data, signatureOk });
      state.behave(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    state,
    received,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let dir: string;
let store: Store;
let rx: Awaited<ReturnType<typeof receiver>>;
let now: number;
const clock = () => now;

async function subscribe(input: { events?: string[]; token?: string | null; cursor?: bigint } = {}) {
  const secret = newSigningSecret();
  rx.state.secret = secret;
  return createSubscription(store, {
    wallet: WALLET,
    apiKeyId: "key_test",
    url: rx.url,
    events: input.events ?? ["trade", "launch"],
    tokenAddress: input.token ?? null,
    description: null,
    secret,
    cursorEventId: input.cursor ?? 0n,
    nowMs: now,
    maxPerWallet: 100,
  });
}

/** Ticks until a tick makes no attempt (bounded). */
async function drain(worker: ReturnType<typeof deliveryWorker>) {
  for (let i = 0; i < 100; i++) if ((await worker.tick()) === 0) return;
  throw new Error("the worker kept attempting");
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "webhooks-"));
  store = await openStore({ kind: "pglite", dir, schema: "launch_store" });
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await store.db.delete(webhookSubscriptions);
  now = 1_800_000_000_000;
  rx = await receiver();
  return () => rx.close();
});

describe("webhook delivery worker", () => {
  it("delivers every matching confirmed event once, in id order, signed, wrapped as {type, timestamp, data}; nothing beyond the confirmed boundary", async () => {
    const events = [
      event(1_000_010, "launch"),
      event(1_000_020),
      event(1_000_030, "fee_claim"),
      event(2_000_010, "trade", TOKEN_B),
      event(3_000_010),
    ];
    const { feed, state } = fixedFeed(events);
    const sub = await subscribe();
    const worker = deliveryWorker({ store, feed, policy, nowMs: clock });
    state.confirmed = 2_999_999n;
    await drain(worker);
    expect(rx.received.map((r) => r.id)).toEqual(["1000010", "1000020", "2000010"]);
    expect(rx.received.every((r) => r.signatureOk)).toBe(true);
    expect(rx.received[0]).toMatchObject({ type: "launch", data: { id: 1_000_010, kind: "launch" } });
    const row = await getSubscriptionForWallet(store, sub.id, WALLET);
    expect(row?.cursorEventId).toBe(2_999_999n);
    expect(row?.leaseToken).toBeNull();
    state.confirmed = 3_999_999n;
    await drain(worker);
    expect(rx.received.map((r) => r.id)).toEqual(["1000010", "1000020", "2000010", "3000010"]);
  });

  it("filters by token", async () => {
    const { feed, state } = fixedFeed([event(1_000_010), event(1_000_020, "trade", TOKEN_B), event(1_000_030)]);
    await subscribe({ events: ["trade"], token: TOKEN_B });
    state.confirmed = 9_999_999n;
    await drain(deliveryWorker({ store, feed, policy, nowMs: clock }));
    expect(rx.received.map((r) => r.id)).toEqual(["1000020"]);
  });

  it("a receiver that fails then recovers loses nothing: the next event waits until the previous one is acknowledged, retries follow the backoff on the injected clock", async () => {
    const { feed, state } = fixedFeed([event(1_000_010), event(1_000_020), event(1_000_030)]);
    const sub = await subscribe();
    const worker = deliveryWorker({ store, feed, policy, nowMs: clock, random: () => 0 });
    state.confirmed = 9_999_999n;
    let failures = 0;
    rx.state.behave = (_req, res) => {
      if (failures < 5) {
        failures++;
        res.writeHead(500).end("down for maintenance");
      } else res.writeHead(200).end("ok");
    };
    // Not due before its retry time: ticks without advancing the clock attempt nothing more.
    expect(await worker.tick()).toBe(1);
    expect(await worker.tick()).toBe(0);
    let row = await getSubscriptionForWallet(store, sub.id, WALLET);
    expect(row).toMatchObject({ pendingEventId: 1_000_010n, attempts: 1, status: "active" });
    expect(row!.nextAttemptAtMs).toBe(now + 2_500);
    for (let i = 0; i < 10 && rx.received.length < 8; i++) {
      now = (await getSubscriptionForWallet(store, sub.id, WALLET))!.nextAttemptAtMs;
      await worker.tick();
    }
    // Five failed attempts of the first event, then all three in order.
    expect(rx.received.map((r) => r.id)).toEqual([...Array(6).fill("1000010"), "1000020", "1000030"]);
    row = await getSubscriptionForWallet(store, sub.id, WALLET);
    expect(row).toMatchObject({ pendingEventId: null, attempts: 0, cursorEventId: 9_999_999n, status: "active" });
    const log = await listDeliveries(store, sub.id, null, 50);
    expect(log.map((d) => d.outcome)).toEqual([
      "delivered",
      "delivered",
      "delivered",
      "failed",
      "failed",
      "failed",
      "failed",
      "failed",
    ]);
    expect(log.at(-1)).toMatchObject({ statusCode: 500, responsePrefix: "down for maintenance", attempt: 1 });
    expect(log[3]).toMatchObject({ attempt: 5 });
  });

  it("after 24 hours of failures marks the subscription failing and pauses without skipping; the hourly probe resumes from the first unacknowledged event once the receiver is back", async () => {
    const { feed, state } = fixedFeed([event(1_000_010), event(1_000_020)]);
    const sub = await subscribe();
    const worker = deliveryWorker({ store, feed, policy, nowMs: clock, random: () => 0.5 });
    state.confirmed = 9_999_999n;
    rx.state.behave = (req) => void req.socket.destroy(); // connection dropped, no answer
    const start = now;
    for (let i = 0; i < 200; i++) {
      const row = (await getSubscriptionForWallet(store, sub.id, WALLET))!;
      if (row.status === "failing") break;
      now = row.nextAttemptAtMs;
      await worker.tick();
    }
    let row = (await getSubscriptionForWallet(store, sub.id, WALLET))!;
    expect(row.status).toBe("failing");
    expect(row.pendingEventId).toBe(1_000_010n);
    expect(now - start).toBeGreaterThanOrEqual(RETRY_WINDOW_MS);
    expect(new Set(rx.received.map((r) => r.id))).toEqual(new Set(["1000010"]));
    const attempts = rx.received.length;
    expect(attempts).toBeGreaterThan(20);
    // Paused: nothing until the probe an hour later.
    now += 59 * 60_000;
    expect(await worker.tick()).toBe(0);
    rx.state.behave = (_req, res) => void res.writeHead(204).end();
    now += 60_000;
    await drain(worker);
    expect(rx.received.slice(attempts).map((r) => r.id)).toEqual(["1000010", "1000020"]);
    row = (await getSubscriptionForWallet(store, sub.id, WALLET))!;
    expect(row).toMatchObject({ status: "active", statusReason: null, pendingEventId: null });
  });

  it("a 410 disables the subscription; resume continues from the same event", async () => {
    const { feed, state } = fixedFeed([event(1_000_010), event(1_000_020)]);
    const sub = await subscribe();
    const worker = deliveryWorker({ store, feed, policy, nowMs: clock });
    state.confirmed = 9_999_999n;
    rx.state.behave = (_req, res) => void res.writeHead(410).end();
    await drain(worker);
    now += 48 * 3_600_000;
    await drain(worker);
    expect(rx.received.map((r) => r.id)).toEqual(["1000010"]);
    expect(await getSubscriptionForWallet(store, sub.id, WALLET)).toMatchObject({
      status: "disabled",
      pendingEventId: 1_000_010n,
    });
    rx.state.behave = (_req, res) => void res.writeHead(200).end();
    await resumeSubscriptionForWallet(store, sub.id, WALLET, now);
    await drain(worker);
    expect(rx.received.map((r) => r.id)).toEqual(["1000010", "1000010", "1000020"]);
  });

  it("a crash mid-delivery (lease never written back) repeats only the in-flight event, after the lease expires", async () => {
    const { feed, state } = fixedFeed([event(1_000_010), event(1_000_020)]);
    const sub = await subscribe();
    state.confirmed = 9_999_999n;
    // The first worker's process "dies" while the receiver holds its request: it never answers.
    let hold = true;
    rx.state.behave = (_req, res) => {
      if (hold) return; // left hanging
      res.writeHead(204).end();
    };
    const dying = deliveryWorker({ store, feed, policy, nowMs: clock, attemptTimeoutMs: 60_000 });
    const inFlight = dying.tick();
    await expect.poll(() => rx.received.length).toBe(1);
    hold = false;
    // Another process: the lease (attempt timeout + 20 s) holds it off until it expires.
    const other = deliveryWorker({ store, feed, policy, nowMs: clock });
    expect(await other.tick()).toBe(0);
    now += 81_000;
    await drain(other);
    expect(rx.received.map((r) => r.id)).toEqual(["1000010", "1000010", "1000020"]);
    // The "dead" worker's late outcome is discarded: its lease token is gone.
    rx.state.behave = (_req, res) => void res.writeHead(204).end();
    void inFlight.catch(() => undefined);
    expect((await getSubscriptionForWallet(store, sub.id, WALLET))!.cursorEventId).toBe(9_999_999n);
  });
});

describe("two delivery processes on one PostgreSQL", async () => {
  const pg = await postgresAvailable();
  it.skipIf(!pg)(
    "each subscription is delivered by exactly one of them at a time: no concurrent requests per subscription, every event exactly once",
    async () => {
      const schema = uniqueSchemaName("webhooks");
      const a = await openStore({ kind: "postgres", url: TEST_DATABASE_URL, schema });
      const b = await openStore({ kind: "postgres", url: TEST_DATABASE_URL, schema });
      try {
        const events = Array.from({ length: 30 }, (_, i) => event(1_000_000 + i * 10));
        const { feed, state } = fixedFeed(events);
        state.confirmed = 9_999_999n;
        const secret = newSigningSecret();
        rx.state.secret = secret;
        // The receiver answers slowly, so the two processes' rounds overlap.
        rx.state.behave = (_req, res) => void setTimeout(() => res.writeHead(204).end(), 5);
        await createSubscription(a, {
          wallet: WALLET,
          apiKeyId: "key_test",
          url: rx.url,
          events: ["trade"],
          tokenAddress: null,
          description: null,
          secret,
          cursorEventId: 0n,
          nowMs: Date.now(),
          maxPerWallet: 10,
        });
        const workers = [a, b].map((s) => deliveryWorker({ store: s, feed, policy, maxEventsPerClaim: 3 }));
        // Both tick until every event arrived (a tick that finds the other's lease claims nothing
        // and returns at once, so a fixed number of ticks could run out under load), then a few
        // more ticks each, in which nothing more may arrive.
        const deadlineMs = Date.now() + scaledMs(30_000);
        await Promise.all(
          workers.map(async (w) => {
            while (rx.received.length < events.length && Date.now() < deadlineMs) await w.tick();
            for (let i = 0; i < 3; i++) await w.tick();
          }),
        );
        expect(rx.received.map((r) => r.id)).toEqual(events.map((e) => e.id.toString()));
        expect(rx.maxInFlight()).toBe(1);
        expect(rx.received.every((r) => r.signatureOk)).toBe(true);
      } finally {
        await a.close();
        await b.close();
        await dropSchema(schema);
      }
    },
  );
});
