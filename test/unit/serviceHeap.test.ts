/**
 * `npm start`'s heap bound for the service (scripts/ponderProcess.ts `serviceHeapArgs`,
 * docs/operations.md "Memory"): the flag it builds really caps a Node process's V8 heap, and the
 * operator's `NODE_OPTIONS` or `SERVICE_HEAP_MB=0` turns it off.
 */
import { describe, expect, it } from "vitest";
import { serviceHeapArgs } from "../../scripts/ponderProcess";
import { runToExit } from "../helpers/runToExit";

/** The heap limit (MB) V8 reports in a Node process started with `args`. */
async function heapLimitMb(args: string[]): Promise<number> {
  const { stdout } = await runToExit(
    process.execPath,
    [...args, "-e", "console.log(require('node:v8').getHeapStatistics().heap_size_limit)"],
    { env: { PATH: process.env.PATH } },
  );
  return Number(stdout.trim()) / 2 ** 20;
}

describe("serviceHeapArgs", () => {
  it("caps the service's heap at SERVICE_HEAP_MB, 512 MB by default", async () => {
    expect(serviceHeapArgs({})).toEqual(["--max-old-space-size=512"]);
    const args = serviceHeapArgs({ SERVICE_HEAP_MB: "448" });
    expect(args).toEqual(["--max-old-space-size=448"]);
    // old space 448 MB plus the young generation: well under Node's default (>= 2 GB here)
    const limit = await heapLimitMb(args);
    expect(limit).toBeGreaterThanOrEqual(448);
    expect(limit).toBeLessThan(600);
  });

  it("leaves the heap to the operator's NODE_OPTIONS or to Node with SERVICE_HEAP_MB=0", () => {
    expect(serviceHeapArgs({ NODE_OPTIONS: "--max-old-space-size=2048" })).toEqual([]);
    expect(serviceHeapArgs({ SERVICE_HEAP_MB: "0" })).toEqual([]);
  });

  it("refuses a cap too small to hold Ponder", () => {
    expect(() => serviceHeapArgs({ SERVICE_HEAP_MB: "100" })).toThrow(/0 \(Node's default\) or an integer >= 256/);
  });
});
