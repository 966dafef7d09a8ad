/**
 * The bounded decode queue on its own: slots, FIFO hand-over, a full queue, a wait that runs out
 * and a failing task. Gates are promises the test resolves; no sleeps.
 */
import { describe, expect, it } from "vitest";
import { decodeQueue, DecodeOverloadedError } from "./decodeQueue";

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe("decodeQueue", () => {
  it("runs at most `concurrency` tasks, hands slots over in arrival order, and refuses beyond `maxQueued` at once", async () => {
    const queue = decodeQueue({ concurrency: 2, maxQueued: 2, maxWaitMs: 60_000, retryAfterSec: 3 });
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) => queue.run(async () => (started.push(i), await g.promise, i)));
    expect({ active: queue.active(), queued: queue.queued() }).toEqual({ active: 2, queued: 2 });
    const refused = await queue.run(async () => "never").catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DecodeOverloadedError);
    expect(refused).toMatchObject({ reason: "queue_full", retryAfterSec: 3 });
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await runs[1];
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect({ active: queue.active(), queued: queue.queued() }).toEqual({ active: 0, queued: 0 });
  });

  it("gives up a wait after `maxWaitMs` with wait_timeout, leaving the queue usable", async () => {
    const queue = decodeQueue({ concurrency: 1, maxQueued: 1, maxWaitMs: 20 });
    const held = gate();
    const first = queue.run(() => held.promise);
    const waited = await queue.run(async () => "late").catch((err: unknown) => err);
    expect(waited).toMatchObject({ name: "DecodeOverloadedError", reason: "wait_timeout" });
    expect(queue.queued()).toBe(0);
    held.open();
    await first;
    expect(await queue.run(async () => "next")).toBe("next");
  });

  it("frees the slot when a task fails and rethrows its error", async () => {
    const queue = decodeQueue({ concurrency: 1, maxQueued: 0 });
    await expect(queue.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(queue.active()).toBe(0);
    expect(await queue.run(async () => 7)).toBe(7);
  });

  it("refuses bounds that are not positive integers", () => {
    expect(() => decodeQueue({ concurrency: 0 })).toThrow(RangeError);
    expect(() => decodeQueue({ maxQueued: -1 })).toThrow(RangeError);
    expect(() => decodeQueue({ maxWaitMs: 1.5 })).toThrow(RangeError);
  });
});
