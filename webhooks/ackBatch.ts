/**
 * Group commit of acknowledgements (docs/webhooks.md "Delivery rounds"): every subscription waits
 * for its acknowledgement to be written before it sends its next event (so a crash repeats at most
 * the event in flight), but the writes of all subscriptions that are waiting go to the store
 * together, in one transaction per batch (`recordAcknowledgements`). While a batch is written, the
 * next one gathers. Measured: one transaction per acknowledgement took 0.6-0.85 s each on a loaded
 * machine with 100 subscriptions sharing the store's 10 connections, 90% of a delivery's time.
 */
import type { Store } from "../store/index";
import { type Acknowledgement, recordAcknowledgements } from "../store/webhookDelivery";

/** Most acknowledgements per transaction. */
const BATCH_MAX = 500;

type Waiting = { ack: Acknowledgement; resolve: (held: boolean) => void; reject: (err: Error) => void };

/**
 * A group-commit writer over `store`.
 * @example const acks = ackBatcher(store); if (!(await acks.record(ack))) return; // lease lost
 */
export function ackBatcher(store: Store) {
  let queue: Waiting[] = [];
  let writing = false;
  async function flush() {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, BATCH_MAX);
      queue = queue.slice(BATCH_MAX);
      try {
        const held = await recordAcknowledgements(
          store,
          batch.map((w) => w.ack),
        );
        for (const w of batch) w.resolve(held.has(w.ack.id));
      } catch (err) {
        for (const w of batch) w.reject(err as Error);
      }
    }
    writing = false;
  }
  return {
    /** Queues one acknowledgement. @returns whether the lease held (false: nothing was written) */
    record(ack: Acknowledgement): Promise<boolean> {
      return new Promise((resolve, reject) => {
        queue.push({ ack, resolve, reject });
        if (!writing) void flush();
      });
    },
  };
}
