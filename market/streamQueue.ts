/**
 * The bounded frame buffer of one Server-Sent Events connection (docs/public.md "Streams").
 *
 * Invariants:
 * - The hub never waits for a client: {@link FrameQueue.push} is synchronous. A push that would
 *   hold more than `maxFrames` unsent frames closes the queue instead (`reason: "slow"`): the
 *   connection is dropped, never buffered without bound. The client resumes with `Last-Event-ID`.
 * - A catch-up from the database (which can wait) uses {@link FrameQueue.room} to pause until the
 *   writer has drained the queue below half, so a long catch-up never trips the bound.
 * - After `close`, `next` drains what is queued (unless `discard`), then returns null.
 */

/** One SSE frame: an event (`event` absent = the default `message` type), or a comment line. */
export type Frame = { event?: string; id?: string; data: string } | { comment: string };

/** Why a queue closed. */
export type CloseReason = "client" | "slow" | "shutdown" | "error";

/** A bounded FIFO of frames with one reader (the connection's writer loop). */
export class FrameQueue {
  private readonly frames: Frame[] = [];
  private wakeReader: (() => void) | null = null;
  private wakeRoom: Array<() => void> = [];
  /** Set once closed; the reason it closed. */
  closedBy: CloseReason | null = null;
  /** Called once when the queue closes (the connection aborts its response on `slow`). */
  onClose: ((reason: CloseReason) => void) | null = null;

  /**
   * @param maxFrames - most unsent frames held before the connection counts as slow (>= 1)
   */
  constructor(readonly maxFrames: number) {
    if (!Number.isInteger(maxFrames) || maxFrames < 1) throw new RangeError(`maxFrames ${maxFrames} must be >= 1`);
  }

  /** Unsent frames held now. */
  get size(): number {
    return this.frames.length;
  }

  /**
   * Queues a frame for the writer.
   * @returns false when the queue is closed, or closes now because it would exceed `maxFrames`
   */
  push(frame: Frame): boolean {
    if (this.closedBy) return false;
    if (this.frames.length >= this.maxFrames) {
      this.close("slow", true);
      return false;
    }
    this.frames.push(frame);
    this.wakeReader?.();
    return true;
  }

  /**
   * The next frame, waiting for one; null once closed and drained.
   * @example await queue.next() // { id: "12000031", data: "{…}" }
   */
  async next(): Promise<Frame | null> {
    for (;;) {
      const frame = this.frames.shift();
      if (frame) {
        if (this.frames.length <= this.maxFrames / 2) this.releaseRoom();
        return frame;
      }
      this.releaseRoom();
      if (this.closedBy) return null;
      await new Promise<void>((resolve) => {
        this.wakeReader = resolve;
      });
      this.wakeReader = null;
    }
  }

  /** Resolves once at most half of `maxFrames` is queued (or the queue closed). */
  room(): Promise<void> {
    if (this.closedBy || this.frames.length <= this.maxFrames / 2) return Promise.resolve();
    return new Promise((resolve) => this.wakeRoom.push(resolve));
  }

  /**
   * Closes the queue (the first reason wins).
   * @param reason - `client` (disconnected), `slow` (over the bound), `shutdown`, or `error` (a failed read)
   * @param discard - drop the frames still queued (a slow or gone client gets nothing more)
   */
  close(reason: CloseReason, discard = false): void {
    if (this.closedBy) return;
    this.closedBy = reason;
    if (discard) this.frames.length = 0;
    this.wakeReader?.();
    this.releaseRoom();
    this.onClose?.(reason);
  }

  private releaseRoom(): void {
    const waiting = this.wakeRoom;
    this.wakeRoom = [];
    for (const resolve of waiting) resolve();
  }
}
