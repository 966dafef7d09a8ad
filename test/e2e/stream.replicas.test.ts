/**
 * End to end, `Last-Event-ID` resume of the events stream across API processes on one
 * PostgreSQL (docs/public.md "Streams"): a client reads the stream from the indexer
 * (`ponder start`), goes away, and comes back to an API replica (`ponder serve`) with its
 * `Last-Event-ID`, then back to the indexer: it receives exactly the events after its last id,
 * each once, the same records as the REST events feed. Resume across a restart of one process is
 * `test/e2e/stream.test.ts`. Skipped, with the reason, when the test PostgreSQL is unreachable.
 */
import { EventSource } from "eventsource";
import { getAddress, parseEther, type Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buyToken, launchToken } from "../../devnet/actions";
import type { PonderProcess } from "../../scripts/ponderProcess";
import { scaledMs } from "../helpers/deadlines";
import { startStack, until, type Stack } from "../helpers/harness";
import { postgresAvailable, TEST_DATABASE_URL } from "../helpers/postgres";
import { confirmedFeedEvents, FINALIZED_DEPTH } from "../helpers/eventsFeed";

const available = await postgresAvailable();
if (!available) console.warn(`PostgreSQL mode skipped: ${TEST_DATABASE_URL} is unreachable`);

const CONFIRMATIONS = 3;
let stack: Stack;
let replica: PonderProcess;
let token: Address;

type Frame = { id: string; data: { id: number } & Record<string, unknown> };

/** An EventSource on `base + path` collecting confirmed frames; `lastEventId` is sent on the first request. */
function listen(base: string, path: string, lastEventId?: string) {
  const frames: Frame[] = [];
  const es = new EventSource(`${base}${path}`, {
    fetch: (url, init) => {
      const headers = new Headers(init?.headers);
      if (lastEventId !== undefined && !headers.has("Last-Event-ID")) headers.set("Last-Event-ID", lastEventId);
      return fetch(url, { ...init, headers });
    },
  });
  es.addEventListener("message", (e) => frames.push({ id: e.lastEventId, data: JSON.parse(e.data) }));
  return { frames, close: () => es.close() };
}

/** Every confirmed event of the REST events feed, ascending. */
const restEvents = (): Promise<Array<{ id: number }>> => confirmedFeedEvents(stack);

/** A buy, mined past the confirmation depth, once the REST feed has `count` events. */
async function buyAndConfirm(wallet: number, count: number) {
  await buyToken(stack.wallet(wallet), stack.publicClient, stack.manifest, token, parseEther("0.001"));
  await stack.publicClient.request({
    method: "anvil_mine" as never,
    params: [`0x${FINALIZED_DEPTH.toString(16)}`] as never,
  });
  return until(`${count} events confirmed`, async () => {
    const all = await restEvents();
    return all.length >= count ? all : undefined;
  });
}

beforeAll(async () => {
  if (!available) return;
  stack = await startStack({
    schema: "e2e_stream_replicas",
    database: "postgres",
    env: {
      EVENTS_CONFIRMATION_BLOCKS: String(CONFIRMATIONS),
      PUBLIC_RATE_LIMIT_PER_MINUTE: "100000",
      STREAM_POLL_INTERVAL_MS: "20",
    },
  });
  replica = await stack.startExtra({ command: "serve" });
  const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
    name: "Relay",
    symbol: "RLAY",
    firstBuyWei: parseEther("0.01"),
  });
  token = getAddress(launched.event.token);
});

afterAll(async () => {
  await stack?.stop();
});

describe.skipIf(!available)("events stream resume across API processes", () => {
  it("a client that left the indexer resumes on the replica, then on the indexer, with Last-Event-ID: no gap, no duplicate, the REST feed's records", async () => {
    const first = await buyAndConfirm(2, 3);
    const onIndexer = listen(stack.service.url, "/api/public/stream/events?since_id=0");
    await expect.poll(() => onIndexer.frames.length, { timeout: scaledMs(10_000) }).toBe(first.length);
    onIndexer.close();
    const lastOnIndexer = onIndexer.frames.at(-1)!.id;

    const second = await buyAndConfirm(3, first.length + 1);
    const onReplica = listen(replica.url, "/api/public/stream/events?since_id=0", lastOnIndexer);
    await expect
      .poll(() => onReplica.frames.length, { timeout: scaledMs(10_000) })
      .toBe(second.filter((e) => e.id > Number(lastOnIndexer)).length);
    onReplica.close();
    const lastOnReplica = onReplica.frames.at(-1)!.id;

    const third = await buyAndConfirm(4, second.length + 1);
    const back = listen(stack.service.url, "/api/public/stream/events", lastOnReplica);
    await expect
      .poll(() => back.frames.length, { timeout: scaledMs(10_000) })
      .toBe(third.filter((e) => e.id > Number(lastOnReplica)).length);
    back.close();

    const seen = [...onIndexer.frames, ...onReplica.frames, ...back.frames];
    expect(seen.map((f) => Number(f.id))).toEqual(third.map((e) => e.id));
    expect(seen.map((f) => f.data)).toEqual(third);
    expect(onReplica.frames.length).toBeGreaterThan(0);
    expect(back.frames.length).toBeGreaterThan(0);
  });
});
