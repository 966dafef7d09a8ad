import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runStopSteps, type StopStep } from "./stopSequence";

/** A step that records its budget, and stops after `stopMs` (never when undefined). */
function recordedStep(name: string, stopMs: number | undefined, reserveMs?: number) {
  const seen = { budgetMs: -1, killed: false, stopped: false };
  const step: StopStep = {
    name,
    reserveMs,
    stop: (budgetMs) => {
      seen.budgetMs = budgetMs;
      if (stopMs === undefined) return new Promise(() => undefined); // hangs, like a frozen service
      return new Promise((r) => setTimeout(r, stopMs)).then(() => {
        seen.stopped = true;
      });
    },
    kill: () => {
      seen.killed = true;
    },
  };
  return { step, seen };
}

// A fake clock: budgets and deadlines are exact, whatever the machine's load.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("runStopSteps (npm start's stop sequence)", () => {
  it("kills a hanging step when its share is spent and still leaves the next step its reserve", async () => {
    const frozen = recordedStep("the service", undefined);
    const anvil = recordedStep("anvil", 100, 1_000);
    const lines: string[] = [];
    const done = runStopSteps([frozen.step, anvil.step], Date.now() + 3_000, (line) => lines.push(line));
    await vi.advanceTimersByTimeAsync(3_000);
    await done;

    // The hanging step got the time left minus anvil's reserve, and was killed.
    expect(frozen.seen.budgetMs).toBe(2_000);
    expect(frozen.seen.killed).toBe(true);
    // anvil then had its reserve, stopped in order, and was not killed.
    expect(anvil.seen.budgetMs).toBe(1_000);
    expect(anvil.seen.stopped).toBe(true);
    expect(anvil.seen.killed).toBe(false);
    expect(lines).toEqual(["stopped anvil"]);
  });

  it("keeps at most half the time left for later steps", async () => {
    const first = recordedStep("the service", 0);
    const later = recordedStep("anvil", 0, 10_000);
    const done = runStopSteps([first.step, later.step], Date.now() + 1_000, () => undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    await done;
    expect(first.seen.budgetMs).toBe(500);
    expect(later.seen.budgetMs).toBe(1_000);
    expect(later.seen.stopped).toBe(true);
  });

  it("gives a step without later reserves all the time left, and counts a failing stop as stopped", async () => {
    const failing: StopStep = { name: "the demo trading", stop: () => Promise.reject(new Error("already gone")) };
    const last = recordedStep("the devnet lock", 0);
    const lines: string[] = [];
    const done = runStopSteps([failing, last.step], Date.now() + 1_000, (line) => lines.push(line));
    await vi.advanceTimersByTimeAsync(1_000);
    await done;
    expect(last.seen.budgetMs).toBe(1_000);
    expect(lines).toEqual(["stopped the demo trading", "stopped the devnet lock"]);
  });
});
