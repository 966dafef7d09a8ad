import { describe, expect, it } from "vitest";
import { bodyTooSlow, effectiveMaxConnections, FD_RESERVE, hasRequestBody, openFileLimit } from "./httpServerLimits";

describe("HTTP server bounds (pure parts)", () => {
  it("reads the soft open-file limit from /proc/self/limits text, and none where it is unlimited or absent", () => {
    const text =
      "Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 524288               files\n";
    expect(openFileLimit(text)).toBe(1024);
    expect(openFileLimit("Max open files            unlimited            unlimited            files\n")).toBeNull();
    expect(openFileLimit("")).toBeNull();
  });

  it("keeps maxConnections below the open-file limit minus the reserve, never below 16", () => {
    expect(effectiveMaxConnections(4096, 1024)).toBe(1024 - FD_RESERVE);
    expect(effectiveMaxConnections(4096, 20_000)).toBe(4096);
    expect(effectiveMaxConnections(4096, null)).toBe(4096);
    expect(effectiveMaxConnections(4096, 100)).toBe(16);
  });

  it("judges a body slow only after the grace period, against the average rate since then", () => {
    const limits = { bodyMinBytesPerSec: 1024, bodyGraceMs: 5_000 };
    expect(bodyTooSlow(0, 5_000, limits)).toBe(false);
    expect(bodyTooSlow(1, 20_000, limits)).toBe(true); // a byte every 20 s
    expect(bodyTooSlow(15 * 1024, 20_000, limits)).toBe(false); // exactly the rate
    expect(bodyTooSlow(15 * 1024 - 1, 20_000, limits)).toBe(true);
  });

  it("sees a body in a positive Content-Length or a transfer coding", () => {
    expect(hasRequestBody({ headers: { "content-length": "10" } })).toBe(true);
    expect(hasRequestBody({ headers: { "content-length": "0" } })).toBe(false);
    expect(hasRequestBody({ headers: { "transfer-encoding": "chunked" } })).toBe(true);
    expect(hasRequestBody({ headers: {} })).toBe(false);
  });
});
