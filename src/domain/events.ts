/**
 * Ids of the ordered events table. An id encodes the chain position of what caused it, so ids
 * increase in chain order (block, log index) and several events caused by one log keep a fixed
 * order among themselves (`sub`).
 *
 * id = blockNumber * 1_000_000 + logIndex * 10 + sub, which stays an exact JSON number
 * (< 2^53) below block 9e9 (about 28 years at 10 blocks per second).
 */

/** Kinds of public events, in the order they are emitted for one log. */
export type EventKind = "launch" | "trade" | "big_buy" | "graduation" | "fee_claim";

/** Largest log index the id encoding represents (logs per block on any EVM chain are far fewer). */
export const MAX_LOG_INDEX = 99_999;

/**
 * Event id for the `sub`-th event derived from log `logIndex` of block `blockNumber`.
 *
 * @param blockNumber - block of the log
 * @param logIndex - index of the log in its block
 * @param sub - 0..9, position among events derived from the same log
 * @returns an integer id ordered like (blockNumber, logIndex, sub)
 * @throws RangeError when logIndex or sub is out of range
 * @example eventId(12n, 3, 1) // 12000031n
 */
export function eventId(blockNumber: bigint, logIndex: number, sub: number): bigint {
  if (logIndex < 0 || logIndex > MAX_LOG_INDEX) throw new RangeError(`logIndex ${logIndex} out of range`);
  if (sub < 0 || sub > 9) throw new RangeError(`sub ${sub} out of range`);
  return blockNumber * 1_000_000n + BigInt(logIndex) * 10n + BigInt(sub);
}

/**
 * The first event id of the block after `block`: every id below it belongs to a block at or below
 * `block`; 0 for a negative block (no block yet).
 * @example firstEventIdAfterBlock(12n) // 13000000n
 */
export function firstEventIdAfterBlock(block: bigint): bigint {
  return block < 0n ? 0n : (block + 1n) * 1_000_000n;
}

/** Kind-specific fields of an event; amounts as decimal strings in wei / token base units. */
export type EventPayload = Record<string, string | number | boolean | null>;

/**
 * Serializes an event payload for the `event.payload_json` text column, once per payload (a
 * `big_buy` shares its trade's text).
 *
 * @param payload - flat record of strings, numbers, booleans and nulls
 * @returns its JSON text, keys in insertion order
 * @example encodeEventPayload({ side: "buy" }) // '{"side":"buy"}'
 */
export function encodeEventPayload(payload: EventPayload): string {
  return JSON.stringify(payload);
}

/**
 * Parses the `event.payload_json` text written by `encodeEventPayload`.
 *
 * @param json - JSON text of a flat record
 * @returns the payload, keys in their stored order
 * @throws SyntaxError when the text is not JSON (never for rows this indexer wrote)
 */
export function decodeEventPayload(json: string): EventPayload {
  return JSON.parse(json) as EventPayload;
}
