import { describe, expect, it } from "vitest";
import type { EventFeed, FeedEvent, FeedQuery } from "./feed";
import { readWindow, shareOf } from "./window";

const A = "0x00000000000000000000000000000000000000aA";
const B = "0x00000000000000000000000000000000000000bB";
const ev = (id: number, kind = "trade", token = A): FeedEvent => ({
  id: BigInt(id),
  kind,
  token,
  timestampSec: 1,
  record: { id },
});
const EVENTS = [ev(10), ev(20, "launch"), ev(30, "trade", B), ev(40), ev(50)];

/** A feed over EVENTS that counts its range reads. */
function countingFeed() {
  const reads: (FeedQuery & { limit: number })[] = [];
  const feed: EventFeed = {
    confirmedCursor: async () => 50n,
    nextEvent: async () => null,
    eventById: async () => null,
    eventsAfter: async (q) => {
      reads.push(q);
      return EVENTS.filter(
        (e) =>
          e.id > q.afterId &&
          e.id <= q.uptoId &&
          q.kinds.includes(e.kind) &&
          (q.token === null || e.token.toLowerCase() === q.token.toLowerCase()),
      ).slice(0, q.limit);
    },
  };
  return { feed, reads };
}

describe("shared delivery window", () => {
  it("reads once from the lowest cursor among the subscriptions below the boundary, over the union of their kinds", async () => {
    const { feed, reads } = countingFeed();
    const subs = [
      { cursorEventId: 15n, events: ["trade"], tokenAddress: A },
      { cursorEventId: 0n, events: ["launch"], tokenAddress: null },
      { cursorEventId: 60n, events: ["fee_claim"], tokenAddress: null },
    ];
    const w = await readWindow(feed, subs, 50n, 100);
    expect(reads).toEqual([{ afterId: 0n, uptoId: 50n, kinds: ["trade", "launch"], token: null, limit: 100 }]);
    expect(w?.topId).toBe(50n);
    expect(shareOf(w!, subs[0]!, 100)).toEqual({ events: [ev(40), ev(50)], cursorAfter: 50n });
    expect(shareOf(w!, subs[1]!, 100)).toEqual({ events: [ev(20, "launch")], cursorAfter: 50n });
    expect(await readWindow(feed, [subs[2]!], 50n, 100)).toBeNull();
  });

  it("a full read ends the window at its last id; a share cut at maxEvents leaves the cursor to move event by event", async () => {
    const { feed, reads } = countingFeed();
    const subs = [{ cursorEventId: 0n, events: ["trade"], tokenAddress: A }];
    const w = await readWindow(feed, subs, 50n, 2);
    expect(reads[0]?.token).toBe(A.toLowerCase());
    expect(w).toEqual({ events: [ev(10), ev(40)], topId: 40n });
    expect(shareOf(w!, subs[0]!, 100)).toEqual({ events: [ev(10), ev(40)], cursorAfter: 40n });
    expect(shareOf(w!, subs[0]!, 1)).toEqual({ events: [ev(10)], cursorAfter: null });
    // A cursor above a cut window's top stays where it is.
    expect(shareOf(w!, { ...subs[0]!, cursorEventId: 45n }, 100)).toEqual({ events: [], cursorAfter: 45n });
  });
});
