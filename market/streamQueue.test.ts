import { describe, expect, it } from "vitest";
import { FrameQueue } from "./streamQueue";

describe("FrameQueue (one stream connection's buffer)", () => {
  it("hands frames to the writer in order", async () => {
    const queue = new FrameQueue(4);
    queue.push({ id: "1", data: "a" });
    queue.push({ event: "pending", data: "b" });
    expect(await queue.next()).toEqual({ id: "1", data: "a" });
    expect(await queue.next()).toEqual({ event: "pending", data: "b" });
    const waiting = queue.next();
    queue.push({ comment: "keep-alive" });
    expect(await waiting).toEqual({ comment: "keep-alive" });
  });

  it("drops a slow client instead of buffering past the bound", async () => {
    const queue = new FrameQueue(3);
    const reasons: string[] = [];
    queue.onClose = (reason) => reasons.push(reason);
    for (let i = 0; i < 3; i++) expect(queue.push({ id: String(i), data: "x" })).toBe(true);
    expect(queue.push({ id: "3", data: "x" })).toBe(false);
    expect(queue.closedBy).toBe("slow");
    expect(reasons).toEqual(["slow"]);
    expect(queue.size).toBe(0); // nothing more is written to a dropped client
    expect(await queue.next()).toBeNull();
    expect(queue.push({ id: "4", data: "x" })).toBe(false);
  });

  it("drains what is queued after a shutdown, then ends", async () => {
    const queue = new FrameQueue(5);
    queue.push({ id: "7", data: "x" });
    queue.push({ comment: "shutdown" });
    queue.close("shutdown");
    expect(await queue.next()).toEqual({ id: "7", data: "x" });
    expect(await queue.next()).toEqual({ comment: "shutdown" });
    expect(await queue.next()).toBeNull();
  });

  it("paces a catch-up: room() waits until the writer drained to half", async () => {
    const queue = new FrameQueue(4);
    for (let i = 0; i < 4; i++) queue.push({ id: String(i), data: "x" });
    let roomy = false;
    const room = queue.room().then(() => {
      roomy = true;
    });
    await queue.next();
    await Promise.resolve();
    expect(roomy).toBe(false); // 3 of 4 still queued
    await queue.next(); // 2 of 4: half
    await room;
    expect(roomy).toBe(true);
    expect(() => new FrameQueue(0)).toThrow(RangeError);
  });
});
