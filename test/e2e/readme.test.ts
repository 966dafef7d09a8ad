/**
 * The README's tour works when pasted: every fenced `sh` block under its "## Tour" heading runs with
 * bash against a started stack seeded as `npm start` seeds its devnet (`seedDemo`), with `BASE`
 * pointing at the stack's service, after the blocks before it (test/helpers/readmeTour.ts). Each
 * must exit 0 and print something, and nothing it prints may be `undefined` (a field the tour
 * names that the service no longer serves). So the tour cannot drift from the service. The wallet
 * examples of docs/api.md (a v1 launch, a swap build, run with node + viem as the wallet) run the same
 * way, with the stack's API key of dev account 0 as `KEY`, and so does the SDK's quick start
 * (sdk/README.md: builds the package, launches a token through it and prints its first trade).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../devnet/seed";
import { startStack, until, type Stack } from "../helpers/harness";
import { scaledMs } from "../helpers/deadlines";
import { readFileSync } from "node:fs";
import { readmeTourBlocks, shellBlocks, tourScript } from "../helpers/readmeTour";
import { runToExit } from "../helpers/runToExit";

const blocks = readmeTourBlocks();
/** docs/api.md's wallet examples (launch, swap): node + viem scripts that act as the wallet. */
const walletExamples = shellBlocks(readFileSync("docs/api.md", "utf8")).filter((b) =>
  b.includes("node --input-type=module"),
);
/** sdk/README.md's quick start: build the SDK, then a node script that uses it. */
const sdkQuickStart = shellBlocks(readFileSync("sdk/README.md", "utf8"));
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ schema: "e2e_readme" });
  const seeded = await seedDemo(stack.manifest, { trades: 6 });
  const headBlock = await stack.publicClient.getBlockNumber();
  // Every seeded block indexed, so each read below sees the launches and their trades.
  await until(
    "the seeded history indexed",
    async () => {
      const { status, body } = await stack.request("/api/v1/ready");
      return status === 200 && BigInt(body.indexed_block) >= headBlock ? true : undefined;
    },
    scaledMs(60_000),
  );
  expect(seeded.tokens).toHaveLength(3);
});

afterAll(async () => {
  await stack?.stop();
});

describe("README tour", () => {
  it("has command blocks under its heading", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  it.each(blocks.map((block, index) => [index + 1, block.split("\n")[0]!.slice(0, 60), index] as const))(
    "tour block %i (%s) exits 0 and prints what it promises",
    async (_n, _first, index) => {
      const result = await runToExit("bash", ["-c", tourScript(blocks, index)], {
        env: { ...process.env, BASE: stack.service.url },
        timeout: scaledMs(60_000),
      });
      const report = `block ${index + 1}:\n${blocks[index]}\n--- stdout:\n${result.stdout}\n--- stderr:\n${result.stderr}`;
      expect(result.status, report).toBe(0);
      const lines = result.stdout.split("\n").filter((line) => line.trim() !== "");
      expect(lines.length, report).toBeGreaterThan(0);
      expect(result.stdout, report).not.toMatch(/\bundefined\b|\bNaN\b/);
    },
  );
});

describe("docs/api.md wallet examples", () => {
  it("has the launch and the swap example", () => {
    expect(walletExamples.length).toBeGreaterThanOrEqual(2);
  });

  it.each(walletExamples.map((_block, index) => [index + 1, index] as const))(
    "wallet example %i exits 0 and prints its result",
    async (_n, index) => {
      const result = await runToExit("bash", ["-c", `set -euo pipefail\n${walletExamples[index]}`], {
        env: { ...process.env, API: stack.service.url, KEY: stack.apiKey },
        timeout: scaledMs(60_000),
      });
      const report = `${walletExamples[index]}\n--- stdout:\n${result.stdout}\n--- stderr:\n${result.stderr}`;
      expect(result.status, report).toBe(0);
      expect(result.stdout, report).toMatch(/^(confirmed 0x[0-9a-fA-F]{40} |success 0x)/m);
      expect(result.stdout, report).not.toMatch(/\bundefined\b/);
    },
  );
});

describe("sdk/README.md quick start", () => {
  it("has one block", () => {
    expect(sdkQuickStart).toHaveLength(1);
  });

  it("runs as written: launches a token through the SDK and prints its first trade", async () => {
    const block = sdkQuickStart[0]!;
    const result = await runToExit("bash", ["-c", `set -euo pipefail\n${block}`], {
      env: { ...process.env, API: stack.service.url, KEY: stack.apiKey },
      timeout: scaledMs(120_000),
    });
    const report = `${block}\n--- stdout:\n${result.stdout}\n--- stderr:\n${result.stderr}`;
    expect(result.status, report).toBe(0);
    const launched = result.stdout.match(/^launched (0x[0-9a-fA-F]{40}) (\S+)$/m);
    expect(launched, report).not.toBeNull();
    expect(launched![2], report).toContain(launched![1]!);
    // The first buy of 0.01 ETH, pushed by the trades stream.
    expect(result.stdout, report).toMatch(/^first trade buy 10000000000000000 wei$/m);
    // The service serves the launched token under its symbol.
    const token = await until(
      "the quick start's token served",
      async () => {
        const { status, body } = await stack.request(`/api/v1/evmchain/tokens/${launched![1]}`);
        return status === 200 ? body.token : undefined;
      },
      scaledMs(60_000),
    );
    expect(token.symbol).toBe("QUICK");
  });
});
