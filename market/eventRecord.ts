/**
 * The event record the events feed and the event stream serve, conventions as `tokenRecord.ts`.
 */
import { getAddress } from "viem";
import type { event } from "../ponder.schema";
import { decodeEventPayload } from "../src/domain/events";

type EventRow = typeof event.$inferSelect;

const ADDRESS_FIELDS = new Set(["creator", "pool", "factory", "trader"]);

/**
 * Event record (docs/public.md "Events feed"): `id` (JSON number, increasing in chain order),
 * `kind`, `token`, chain position, time, and the kind's typed payload (amounts as decimal
 * strings, addresses checksummed).
 */
export function eventRecord(row: EventRow, confirmed: boolean) {
  const payload: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(decodeEventPayload(row.payloadJson))) {
    payload[k] = ADDRESS_FIELDS.has(k) && typeof v === "string" ? getAddress(v) : v;
  }
  return {
    id: Number(row.id),
    kind: row.kind,
    token: getAddress(row.token),
    block_number: Number(row.blockNumber),
    log_index: row.logIndex,
    timestamp_sec: Number(row.timestampSec),
    tx_hash: row.txHash,
    confirmed,
    payload,
  };
}
