/**
 * One feed read per delivery round, shared by every confirmed-mode subscription that is due
 * (docs/webhooks.md "Delivery rounds"): the window of events from the lowest cursor among them up
 * to the confirmed boundary is read once, then each subscription takes the events of its filter
 * (kinds, token) above its own cursor. The read is bounded (`limit`): when it is full, the window
 * ends at the last id read and the rest waits for the next round; a subscription's cursor never
 * moves past the window's top, so nothing is skipped.
 */
import type { EventFeed, FeedEvent } from "./feed";

/** What the fan-out needs of a subscription. */
export type WindowSubscription = {
  cursorEventId: bigint;
  events: readonly string[];
  tokenAddress: string | null;
};

/** One subscription's share of a window. */
export type WindowShare = {
  /** Its matching events above its cursor, ascending, at most `maxEvents`. */
  events: FeedEvent[];
  /**
   * Where its cursor may move once every event in `events` is acknowledged: the window's top
   * (every matching event up to there is in `events`), or null when `events` was cut at
   * `maxEvents` (the cursor then moves event by event).
   */
  cursorAfter: bigint | null;
};

/** A window read: its events ascending, and the highest id it covers. */
export type FeedWindow = { events: FeedEvent[]; topId: bigint };

/**
 * Reads the window shared by `subs` once: events with ids in `(min cursor, confirmed]` of any of
 * their kinds (of their token when they all ask for the same one), ascending, at most `limit`.
 * @returns the events and the window's top (`confirmed`, or the last id read when `limit` cut it);
 *   null when no subscription is below `confirmed`
 * @throws Error when the feed cannot read a range (`eventsAfter`)
 */
export async function readWindow(
  feed: EventFeed,
  subs: readonly WindowSubscription[],
  confirmed: bigint,
  limit: number,
): Promise<FeedWindow | null> {
  if (!feed.eventsAfter) throw new Error("this event feed cannot read a range of events");
  const below = subs.filter((s) => s.cursorEventId < confirmed);
  if (below.length === 0) return null;
  const afterId = below.reduce((m, s) => (s.cursorEventId < m ? s.cursorEventId : m), confirmed);
  const kinds = [...new Set(below.flatMap((s) => s.events))];
  const tokens = new Set(below.map((s) => s.tokenAddress?.toLowerCase() ?? null));
  const token = tokens.size === 1 ? [...tokens][0]! : null;
  const events = await feed.eventsAfter({ afterId, uptoId: confirmed, kinds, token, limit });
  const topId = events.length === limit ? events.at(-1)!.id : confirmed;
  return { events, topId };
}

/**
 * One subscription's share of a window.
 * @param maxEvents - most events handed to it in one round
 * @example shareOf({ events: [e5, e7], topId: 9n }, { cursorEventId: 5n, events: ["trade"], tokenAddress: null }, 100) // { events: [e7], cursorAfter: 9n }
 */
export function shareOf(window: FeedWindow, sub: WindowSubscription, maxEvents: number): WindowShare {
  const token = sub.tokenAddress?.toLowerCase() ?? null;
  const events: FeedEvent[] = [];
  for (const e of window.events) {
    if (e.id <= sub.cursorEventId || !sub.events.includes(e.kind)) continue;
    if (token !== null && e.token.toLowerCase() !== token) continue;
    events.push(e);
    if (events.length === maxEvents) return { events, cursorAfter: null };
  }
  return { events, cursorAfter: window.topId > sub.cursorEventId ? window.topId : sub.cursorEventId };
}
