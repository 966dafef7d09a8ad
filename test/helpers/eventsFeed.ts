/**
 * The confirmed events feed as a test reads it: every page of `GET /api/public/events`, followed
 * by `next_since_id` until it stops moving (docs/public.md "Events feed").
 */
import { expect } from "vitest";
import type { Stack } from "./harness";

/** One record of the events feed (the fields a test compares; the rest pass through). */
export type FeedEvent = { id: number; kind: string; token: string; [field: string]: unknown };

/**
 * Every confirmed event of the stack's REST events feed, ascending by id, optionally filtered.
 * @param stack - the started service (test/helpers/harness.ts)
 * @param keep - which events to return (default: all)
 * @throws when a page is not `ok: true`
 */
export async function confirmedFeedEvents(
  stack: Pick<Stack, "request">,
  keep: (event: FeedEvent) => boolean = () => true,
): Promise<FeedEvent[]> {
  const out: FeedEvent[] = [];
  let since = 0;
  for (;;) {
    const { body } = await stack.request(`/api/public/events?since_id=${since}&limit=500`);
    expect(body.ok).toBe(true);
    out.push(...(body.events as FeedEvent[]).filter(keep));
    if (body.next_since_id === since || body.events.length === 0) return out;
    since = body.next_since_id;
  }
}

/**
 * Blocks to mine past an event before the events feed, the SSE streams and webhooks count it as
 * confirmed with a small `EVENTS_CONFIRMATION_BLOCKS` (market/confirmedBound.ts): nothing above the
 * indexer's finalized block is, and Ponder moves that block to head − 30 once the head is 60 past
 * it, so it trails the head by at most 59 blocks.
 */
export const FINALIZED_DEPTH = 60;
