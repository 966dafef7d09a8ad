/**
 * The rows of the two streams, each rendered once (its preview and its confirmed frame) however
 * many connections receive it, read by event id from the indexer's tables.
 */
import { toJsonText } from "../src/domain/json";
import type { MarketDb } from "./db";
import { eventRecord } from "./eventRecord";
import { eventsById, tradesByEventId } from "./streamQueries";
import type { StreamKind } from "./streamSettings";
import { tradeRecord } from "./tradeRecord";

/** Above every event id (ids are block × 1,000,000 + position, `src/domain/events.ts`). */
export const MAX_ID = 2n ** 62n;

/** One row of a stream, rendered once. */
export type StreamRow = {
  id: bigint;
  token: string;
  /** Identity of a preview: id plus its exact content (a reorg that changes a row changes it). */
  key: string;
  pendingJson: string;
  confirmedJson: string;
  /** What a `reorg` frame names for it. */
  dropped: Record<string, unknown>;
  /** The row's block timestamp, unix seconds (freshness metrics). */
  timestampSec: number;
};

function streamRow(
  id: bigint,
  token: string,
  record: (confirmed: boolean) => unknown,
  dropped: object,
  timestampSec: bigint,
): StreamRow {
  const pendingJson = toJsonText(record(false));
  return {
    id,
    token,
    key: `${id}|${pendingJson}`,
    pendingJson,
    confirmedJson: toJsonText(record(true)),
    dropped: dropped as Record<string, unknown>,
    timestampSec: Number(timestampSec),
  };
}

/** Rows of a stream with id in (after, before), ascending. */
export type Source = (
  db: MarketDb,
  after: bigint,
  before: bigint,
  limit: number,
  token?: `0x${string}`,
) => Promise<StreamRow[]>;

export const STREAM_SOURCES: Record<StreamKind, Source> = {
  trades: async (db, after, before, limit, token) =>
    (await tradesByEventId(db, after, before, limit, token)).map(({ eventId, trade }) => {
      const record = tradeRecord(trade);
      return streamRow(
        eventId,
        trade.token,
        (confirmed) => ({ ...record, event_id: Number(eventId), confirmed }),
        {
          event_id: Number(eventId),
          id: record.id,
          tx_hash: record.tx_hash,
          block_number: record.block_number,
        },
        trade.timestampSec,
      );
    }),
  events: async (db, after, before, limit, token) =>
    (await eventsById(db, after, before, limit, token)).map((row) =>
      streamRow(
        row.id,
        row.token,
        (confirmed) => eventRecord(row, confirmed),
        {
          id: Number(row.id),
          kind: row.kind,
          tx_hash: row.txHash,
          block_number: Number(row.blockNumber),
        },
        row.timestampSec,
      ),
    ),
};
