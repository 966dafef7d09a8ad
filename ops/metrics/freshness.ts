/**
 * Freshness measured per block (docs/operations.md "Freshness", docs/public.md "Freshness"):
 * how long after a block's timestamp its rows became readable through the API, and how long after
 * it the streams queued its frames. Block timestamps are whole unix seconds, so every value
 * includes up to one second of the block's own second (a block at 12.9 s is stamped 12).
 */
import { decodeCheckpointBlock } from "../ponderInternals";
import { metrics } from "./registry";

/**
 * Age of the indexed head: wall clock − the head block's timestamp, whole seconds, at least 0.
 * @param checkpoint - Ponder's `latest_checkpoint` (75 digits)
 * @param nowMs - wall clock, ms
 * @example headAgeSec(checkpointOfBlockAt(1_000), 1_003_500) // 3
 */
export function headAgeSec(checkpoint: string, nowMs: number): number {
  return Math.max(0, Math.floor(nowMs / 1000) - Number(decodeCheckpointBlock(checkpoint).timestampSec));
}

/**
 * A watcher of the indexed head the API reads: observes `launchpad_freshness_row_visible_seconds`
 * (wall clock − block timestamp) once per new head, the first time any read sees it.
 * @param nowMs - wall clock, ms (injectable for tests)
 * @returns a function to call with every checkpoint read (null before the first block is ignored)
 */
export function rowVisibleObserver(nowMs: () => number = Date.now): (checkpoint: string | null) => void {
  let last: string | null = null;
  return (checkpoint) => {
    if (checkpoint === null || checkpoint === last) return;
    // Only a head that moved forward is new data (a reorg's rewind is not a block becoming visible).
    if (last !== null && checkpoint < last) {
      last = checkpoint;
      return;
    }
    last = checkpoint;
    const blockSec = Number(decodeCheckpointBlock(checkpoint).timestampSec);
    metrics.freshnessRowVisible.observe(Math.max(0, nowMs() / 1000 - blockSec));
  };
}

/** The process's one head watcher: the read cache and the stream poller both report to it. */
export const observeIndexedHead = rowVisibleObserver();

/** Response header carrying `freshness_sec` on the public market reads (docs/public.md "Freshness"). */
export const FRESHNESS_HEADER = "Freshness-Sec";

/**
 * Observes one stream frame's freshness (`launchpad_freshness_sse_emit_seconds`).
 * @param stream - `trades` or `events`
 * @param frame - `pending` (a preview, as soon as indexed) or `confirmed` (after the confirmation depth)
 * @param blockTimestampSec - the row's block timestamp, unix seconds
 * @param nowMs - wall clock, ms
 */
export function observeStreamEmit(
  stream: string,
  frame: "pending" | "confirmed",
  blockTimestampSec: number,
  nowMs: number = Date.now(),
): void {
  metrics.freshnessSseEmit.observe({ stream, frame }, Math.max(0, nowMs / 1000 - blockTimestampSec));
}
