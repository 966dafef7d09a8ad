/**
 * What the delivery worker reads events from (`feedSource.ts` in the service, fixed lists in tests):
 * the events feed's records, its confirmed boundary and, for `include_unconfirmed` subscriptions,
 * what is indexed above it.
 */

/** One event as the feed serves it. */
export type FeedEvent = {
  id: bigint;
  kind: string;
  /** Checksummed token address. */
  token: string;
  /** Block time, unix seconds. */
  timestampSec: number;
  /** The record exactly as `GET /api/public/events` serves it (`tx_hash`, `block_number`, …). */
  record: Record<string, unknown>;
};

/** A filter over the feed: ids in `(afterId, uptoId]` of one of `kinds` (and of `token` when given). */
export type FeedQuery = {
  afterId: bigint;
  uptoId: bigint;
  kinds: readonly string[];
  token: string | null;
};

/** Where events come from. */
export type EventFeed = {
  /**
   * The highest event id that is final: every event with a smaller or equal id is confirmed and
   * will never change. `null` before the indexer recorded a block.
   */
  confirmedCursor: () => Promise<bigint | null>;
  /** The first event matching `q`. */
  nextEvent: (q: FeedQuery) => Promise<FeedEvent | null>;
  /** One event by id (the one in flight), or null when no event has it (now). */
  eventById: (id: bigint) => Promise<FeedEvent | null>;
  /** The highest id of an indexed block, final or not (`include_unconfirmed`); null before the first. */
  indexedCursor?: () => Promise<bigint | null>;
  /** The first `limit` events matching `q`, ascending (`include_unconfirmed`). */
  eventsAfter?: (q: FeedQuery & { limit: number }) => Promise<FeedEvent[]>;
  /** The events with these ids that are indexed now (`include_unconfirmed`). */
  eventsByIds?: (ids: bigint[]) => Promise<FeedEvent[]>;
};

/** The transaction hash of a feed event (its record's `tx_hash`). */
export const txHashOf = (e: FeedEvent): string => String(e.record.tx_hash);
/** The block number of a feed event (its record's `block_number`). */
export const blockOf = (e: FeedEvent): bigint => BigInt(e.record.block_number as number);
