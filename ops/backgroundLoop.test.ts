/**
 * The background workers' timer loop (ops/backgroundLoop.ts): the pause follows each step's
 * outcome, an error never ends the loop, steps never overlap, and nothing runs after `stop()`.
 * Time is vitest's fake clock, so no test waits.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backgroundLoop } from "./backgroundLoop";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("backgroundLoop", () => {
  it("waits after each step the pause its result asks for", async () => {
    const startedAtMs: number[] = [];
    const loop = backgroundLoop({
      step: async () => {
        startedAtMs.push(Date.now());
        return startedAtMs.length;
      },
      // Step n is followed by a pause of n x 100 ms.
      delayAfterMs: (n) => n * 100,
      delayAfterErrorMs: () => 5_000,
    });
    const t0 = Date.now();
    loop.start();
    await vi.advanceTimersByTimeAsync(600);
    await loop.stop();
    expect(startedAtMs.map((t) => t - t0)).toEqual([0, 100, 300, 600]);
  });

  it("tells onError of a step that throws, waits the error pause and keeps going", async () => {
    const errors: string[] = [];
    let calls = 0;
    const loop = backgroundLoop({
      step: async () => {
        calls++;
        if (calls <= 2) throw new Error(`failure ${calls}`);
        return calls;
      },
      delayAfterMs: () => 10_000,
      delayAfterErrorMs: () => 1_000,
      onError: (err) => errors.push(err.message),
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1_001);
    expect(calls).toBe(3);
    expect(errors).toEqual(["failure 1", "failure 2"]);
    await loop.stop();
  });

  it("never runs two steps at once and runs none after stop() resolves", async () => {
    let inStep = 0;
    let maxInStep = 0;
    let calls = 0;
    const loop = backgroundLoop({
      step: async () => {
        calls++;
        inStep++;
        maxInStep = Math.max(maxInStep, inStep);
        await new Promise((resolve) => setTimeout(resolve, 50));
        inStep--;
        return 0;
      },
      delayAfterMs: () => 0,
      delayAfterErrorMs: () => 0,
    });
    loop.start();
    loop.start();
    await vi.advanceTimersByTimeAsync(25);
    const stopped = loop.stop();
    await vi.advanceTimersByTimeAsync(50);
    await stopped;
    const callsAtStop = calls;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(maxInStep).toBe(1);
    expect(callsAtStop).toBe(1);
    expect(calls).toBe(callsAtStop);
    expect(inStep).toBe(0);
  });
});
