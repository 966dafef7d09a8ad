import { describe, expect, it } from "vitest";
import type { UnconfirmedSent } from "../store/webhooks";
import type { EventFeed, FeedEvent } from "./feed";
import { nextUnconfirmedStep } from "./unconfirmed";

const TOKEN = "0x00000000000000000000000000000000000000aA";
const block = (id: bigint) => id / 1_000_000n;
function ev(id: bigint, tx: string): FeedEvent {
  return {
    id,
    kind: "trade",
    token: TOKEN,
    timestampSec: 1,
    record: { id: Number(id), tx_hash: tx, block_number: Number(block(id)) },
  };
}
function sent(id: bigint, tx: string): UnconfirmedSent {
  return {
    subscriptionId: "wh_x",
    eventId: id,
    kind: "trade",
    token: TOKEN,
    txHash: tx,
    blockNumber: block(id),
    timestampSec: 1,
  };
}
function feed(events: FeedEvent[]): EventFeed {
  const inRange = (afterId: bigint, uptoId: bigint) => events.filter((e) => e.id > afterId && e.id <= uptoId);
  return {
    confirmedCursor: async () => null,
    nextEvent: async (q) => inRange(q.afterId, q.uptoId)[0] ?? null,
    eventById: async (id) => events.find((e) => e.id === id) ?? null,
    eventsAfter: async (q) => inRange(q.afterId, q.uptoId).slice(0, q.limit),
    eventsByIds: async (ids) => events.filter((e) => ids.includes(e.id)),
  };
}
const sub = (cursor: bigint) => ({ cursorEventId: cursor, events: ["trade"], tokenAddress: null });

describe("include_unconfirmed: the next step", () => {
  it("sends the first event not yet sent, and settles sent events once final (the cursor moves over them)", async () => {
    const f = feed([ev(10_000_010n, "0xa"), ev(11_000_010n, "0xb"), ev(40_000_010n, "0xc")]);
    const step = await nextUnconfirmedStep(f, sub(0n), [sent(10_000_010n, "0xa"), sent(11_000_010n, "0xb")], {
      confirmed: 20_999_999n,
      indexed: 45_999_999n,
    });
    expect(step.next).toEqual({ send: ev(40_000_010n, "0xc") });
    expect(step.settled).toEqual([10_000_010n, 11_000_010n]);
    expect(step.cursor).toBe(20_999_999n);
  });

  it("retracts at once an id indexed now with another transaction, before sending its replacement; the cursor stays below it", async () => {
    const f = feed([ev(40_000_010n, "0xd")]);
    const step = await nextUnconfirmedStep(f, sub(20_999_999n), [sent(40_000_010n, "0xc")], {
      confirmed: 20_999_999n,
      indexed: 45_999_999n,
    });
    expect(step.next).toEqual({ retract: sent(40_000_010n, "0xc") });
    expect(step.cursor).toBe(20_999_999n);
    expect(step.settled).toEqual([]);
  });

  it("waits while a sent event is only missing (a crash re-index), retracts it once its block is final", async () => {
    const f = feed([]);
    const waiting = await nextUnconfirmedStep(f, sub(20_999_999n), [sent(40_000_010n, "0xc")], {
      confirmed: 30_999_999n,
      indexed: 45_999_999n,
    });
    expect(waiting.next).toBeNull();
    // The cursor moves up to, not over, the missing event.
    expect(waiting.cursor).toBe(30_999_999n);
    const final = await nextUnconfirmedStep(f, sub(30_999_999n), [sent(40_000_010n, "0xc")], {
      confirmed: 41_999_999n,
      indexed: 80_999_999n,
    });
    expect(final.next).toEqual({ retract: sent(40_000_010n, "0xc") });
    expect(final.cursor).toBe(40_000_009n);
    expect(final.settled).toEqual([]);
  });
});
