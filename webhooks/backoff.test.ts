import { describe, expect, it } from "vitest";
import { BASE_DELAY_MS, MAX_DELAY_MS, nextAfterFailure, RETRY_WINDOW_MS, retryDelayMs } from "./backoff";

describe("webhook retry schedule", () => {
  it("doubles from 5 s up to the 1 h cap, jittered into [half, full] of the nominal delay", () => {
    expect(retryDelayMs(1, 0)).toBe(BASE_DELAY_MS / 2);
    expect(retryDelayMs(1, 0.999999)).toBeLessThanOrEqual(BASE_DELAY_MS);
    expect(retryDelayMs(2, 0)).toBe(BASE_DELAY_MS);
    expect(retryDelayMs(4, 0)).toBe(4 * BASE_DELAY_MS);
    expect(retryDelayMs(11, 0)).toBe(MAX_DELAY_MS / 2);
    expect(retryDelayMs(50, 1)).toBe(MAX_DELAY_MS);
    expect(retryDelayMs(10_000, 0.5)).toBe(0.75 * MAX_DELAY_MS);
    for (let n = 1; n < 40; n++) expect(retryDelayMs(n + 1, 0)).toBeGreaterThanOrEqual(retryDelayMs(n, 0));
  });

  it("retries for at least 24 hours whatever the jitter, then pauses (probe an hour later)", () => {
    for (const random of [0, 0.5, 0.999999]) {
      let now = 0;
      let failed = 0;
      for (;;) {
        failed++;
        const next = nextAfterFailure({ failedAttempts: failed, firstAttemptAtMs: 0, nowMs: now, random });
        if (next.kind === "pause") {
          expect(now).toBeGreaterThanOrEqual(RETRY_WINDOW_MS);
          expect(next.probeAtMs).toBe(now + 3_600_000);
          break;
        }
        expect(next.atMs).toBeGreaterThan(now);
        now = next.atMs;
      }
      // Ends within one (capped) delay after the window: 24-25 h, 14 attempts + hourly ones.
      expect(now).toBeLessThan(RETRY_WINDOW_MS + MAX_DELAY_MS);
      expect(failed).toBeGreaterThan(20);
    }
  });
});
