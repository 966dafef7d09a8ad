/**
 * The next step of an `include_unconfirmed` subscription (docs/webhooks.md "Unconfirmed events
 * and retractions"). Events are sent as soon as they are indexed; each one acknowledged is
 * remembered (`webhook_unconfirmed_sent`, with its transaction hash) until its block is final.
 * Then it is still indexed under the same id with the same transaction (settled, forgotten), or it
 * is not: a reorg removed it, and an `event.retracted` naming it is sent, in order, before any
 * event after it. A remembered id that is indexed now with *another* transaction was replaced by
 * a reorg and is retracted at once; a remembered id that is merely missing waits for finality
 * (after a crash the indexer drops and re-indexes its unfinal blocks, so a missing row is not yet
 * a retraction).
 *
 * Invariant: every matching event with an id at most `cursor_event_id` is final and settled
 * (acknowledged as it is now, or its retraction acknowledged); the cursor moves only over ids
 * where that holds, so a replacement at a retracted id is still ahead of it and gets sent.
 */
import type { UnconfirmedSent, WebhookSubscription } from "../store/webhooks";
import { blockOf, type EventFeed, type FeedEvent, txHashOf } from "./feed";

/** What an `include_unconfirmed` subscription does next, with the cursor and rows it can settle. */
export type UnconfirmedStep = {
  /** The cursor after this step (never lower than now). */
  cursor: bigint;
  /** Remembered events at or below `cursor`: settled, to forget. */
  settled: bigint[];
  /** What to send now, if anything: a retraction first, else the next event not yet sent. */
  next: { retract: UnconfirmedSent } | { send: FeedEvent } | null;
};

const key = (id: bigint, txHash: string) => `${id}:${txHash.toLowerCase()}`;

/**
 * Decides the next step of `sub` (no item in flight).
 * @param sent - its remembered unconfirmed events, ascending
 * @param bounds.confirmed - the feed's confirmed boundary (ids at or below it are final)
 * @param bounds.indexed - the highest indexed id
 * @throws Error when the feed cannot serve unconfirmed events
 */
export async function nextUnconfirmedStep(
  feed: EventFeed,
  sub: Pick<WebhookSubscription, "cursorEventId" | "events" | "tokenAddress">,
  sent: UnconfirmedSent[],
  bounds: { confirmed: bigint; indexed: bigint },
): Promise<UnconfirmedStep> {
  if (!feed.eventsAfter || !feed.eventsByIds) throw new Error("this event feed serves no unconfirmed events");
  const now = new Map(
    (sent.length ? await feed.eventsByIds(sent.map((s) => s.eventId)) : []).map((e) => [e.id, txHashOf(e)]),
  );
  const retract = sent.find((s) => {
    const tx = now.get(s.eventId);
    if (tx !== undefined && tx.toLowerCase() !== s.txHash.toLowerCase()) return true; // replaced
    return tx === undefined && s.eventId <= bounds.confirmed; // gone for good
  });
  const known = new Set(sent.map((s) => key(s.eventId, s.txHash)));
  const ahead =
    sub.cursorEventId < bounds.indexed
      ? await feed.eventsAfter({
          afterId: sub.cursorEventId,
          uptoId: bounds.indexed,
          kinds: sub.events,
          token: sub.tokenAddress,
          limit: sent.length + 1,
        })
      : [];
  const fresh = ahead.find((e) => !known.has(key(e.id, txHashOf(e))));
  let cursor = bounds.confirmed;
  if (fresh && fresh.id - 1n < cursor) cursor = fresh.id - 1n;
  if (retract && retract.eventId - 1n < cursor) cursor = retract.eventId - 1n;
  // A remembered event that is missing but not yet final holds the cursor below it too.
  for (const s of sent) if (!now.has(s.eventId) && s.eventId - 1n < cursor) cursor = s.eventId - 1n;
  if (cursor < sub.cursorEventId) cursor = sub.cursorEventId;
  const settled = sent.filter((s) => s.eventId <= cursor).map((s) => s.eventId);
  return { cursor, settled, next: retract ? { retract } : fresh ? { send: fresh } : null };
}

/** The row remembered once the receiver acknowledged unconfirmed event `e`. */
export function sentRow(e: FeedEvent): Omit<UnconfirmedSent, "subscriptionId"> {
  return {
    eventId: e.id,
    kind: e.kind,
    token: e.token,
    txHash: txHashOf(e),
    blockNumber: blockOf(e),
    timestampSec: e.timestampSec,
  };
}

/** The `webhook-id` of the retraction of `s` (unique: an id can be retracted again with another transaction). */
export const retractionMessageId = (s: Pick<UnconfirmedSent, "eventId" | "txHash">) =>
  `retracted_${s.eventId}_${s.txHash.toLowerCase()}`;

/** The `data` of an `event.retracted`: which event (id, kind, token, transaction, block) is gone. */
export function retractionData(s: UnconfirmedSent): Record<string, unknown> {
  return {
    id: Number(s.eventId),
    kind: s.kind,
    token: s.token,
    tx_hash: s.txHash,
    block_number: Number(s.blockNumber),
    timestamp_sec: s.timestampSec,
  };
}
